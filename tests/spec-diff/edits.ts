// Why: `client-records-mock diff` and the libraries it was compared with are
// judged on the same realistic edits to openapi.yaml, each with the right
// answer for clients of this API and the reason. The table is data: the tests
// (diff.test.ts) and the library comparison (compare-libraries.ts, whose
// results are docs/spec-diff.md) both apply each edit to a copy of the spec.
import YAML from 'yaml';

/** Replace `find` (which must occur exactly once, or at least once with `all`) by `replace` in the YAML text. */
export interface TextPatch {
  find: string;
  replace: string;
  all?: boolean;
}
/** Set (or, with `value` undefined, delete) the node at a path, through the yaml Document API (comments and layout kept). */
export interface NodePatch {
  at: (string | number)[];
  value?: unknown;
}
export type Patch = TextPatch | NodePatch;

export interface Edit {
  id: string;
  /** What a team member would write in the commit message. */
  title: string;
  /** The edit is applied on top of this one's result (an edit that changes something an earlier edit added). */
  base?: string;
  patches: Patch[];
  /** The right answer for clients of this API. */
  breaking: boolean;
  why: string;
  /** Each must match one reported change's message (what the diff is expected to say, loosely). */
  reports: RegExp[];
}

const PAGE_SIZE_SCHEMA = `      description: Records per page, 1 to 100. Larger values are rejected, never clamped.
      schema:
        type: integer
        format: int32
        minimum: 1
        maximum: 100
        default: 25`;

export const EDITS: readonly Edit[] = [
  {
    id: 'N01',
    title: 'docs: reword the `active` description and change the `filter` example',
    patches: [
      {
        find: "          description: '`true` keeps active clients only, `false` inactive clients only. Any other value is `400`.'",
        replace: "          description: '`true`: active clients only; `false`: inactive clients only; anything else is `400`.'",
      },
      { find: '          example: lindqvist', replace: '          example: andersson' },
    ],
    breaking: false,
    why: 'descriptions and examples change no request or answer',
    reports: [/description changed/, /example changed/],
  },
  {
    id: 'N02',
    title: 'new operation GET /api/v1/Client/Count',
    patches: [
      {
        find: '  /api/v1/Client/Detail/{idClient}:\n',
        replace: `  /api/v1/Client/Count:
    get:
      operationId: countClients
      tags: [Client]
      summary: Count the clients
      responses:
        '200':
          description: The number of clients.
          content:
            application/json:
              schema:
                type: integer
                minimum: 0
        '401':
          $ref: '#/components/responses/Unauthorized'
  /api/v1/Client/Detail/{idClient}:
`,
      },
    ],
    breaking: false,
    why: 'an operation no client calls yet',
    reports: [/operation added/],
  },
  {
    id: 'N03',
    title: 'new optional query parameter `sort` on Extended',
    patches: [
      {
        find: '        - name: idLocation\n          in: query\n',
        replace: `        - name: sort
          in: query
          description: The order of the list.
          schema:
            type: string
            enum: [FullName, -FullName, IdClient]
        - name: idLocation
          in: query
`,
      },
    ],
    breaking: false,
    why: 'optional: every request that was valid still is and gets the same answer',
    reports: [/optional .*parameter sort added/],
  },
  {
    id: 'N04',
    title: 'optional response field `PreferredName` in ClientExtended (additionalProperties: false)',
    patches: [
      {
        find: "        Status:\n          $ref: '#/components/schemas/ClientStatus'\n    ClientSimplePage:",
        replace:
          "        Status:\n          $ref: '#/components/schemas/ClientStatus'\n        PreferredName:\n          type: string\n          maxLength: 60\n    ClientSimplePage:",
      },
    ],
    breaking: false,
    why: 'clients read the fields they know and ignore the rest (docs/decisions.md: additionalProperties: false describes the answer, it is not a promise that no field is ever added)',
    reports: [/PreferredName: optional property added/],
  },
  {
    id: 'N05',
    title: 'optional field `MiddleName` in the shared PersonalInfo (Extended and Detail)',
    patches: [
      {
        find: '          enum: [Male, Female, Other, Unknown]\n          maxLength: 7\n',
        replace:
          "          enum: [Male, Female, Other, Unknown]\n          maxLength: 7\n        MiddleName:\n          $ref: '#/components/schemas/PersonName'\n",
      },
    ],
    breaking: false,
    why: 'as N04, through a $ref shared by two operations',
    reports: [/MiddleName: optional property added/],
  },
  {
    id: 'N06',
    title: 'required response field `UpdatedAt` in ClientDetail',
    patches: [
      {
        find: '      required: [IdClient, PersonalInfo, ContactInfo, Staff, Location, Insurance, Medical, Status]',
        replace: '      required: [IdClient, PersonalInfo, ContactInfo, Staff, Location, Insurance, Medical, Status, UpdatedAt]',
      },
      {
        find: "        Status:\n          $ref: '#/components/schemas/ClientStatus'\n    PersonalInfo:",
        replace:
          "        Status:\n          $ref: '#/components/schemas/ClientStatus'\n        UpdatedAt:\n          type: string\n          format: date-time\n    PersonalInfo:",
      },
    ],
    breaking: false,
    why: 'an answer that always has one more field: what clients read is still there',
    reports: [/UpdatedAt: property added/],
  },
  {
    id: 'N07',
    title: '`filter` accepts longer terms: maxLength 200 → 500',
    patches: [{ find: '            maxLength: 200\n', replace: '            maxLength: 500\n' }],
    breaking: false,
    why: 'a request parameter widened: every request that was valid still is',
    reports: [/maxLength raised 200 → 500/],
  },
  {
    id: 'N08',
    title: 'Medication.Dosage maxLength 30 → 20 (response)',
    patches: [{ find: '          maxLength: 30\n', replace: '          maxLength: 20\n' }],
    breaking: false,
    why: 'a response value narrowed: every answer still fits what clients expect',
    reports: [/maxLength lowered 30 → 20/],
  },
  {
    id: 'N09',
    title: 'new optional response header X-RateLimit-Remaining on Simple',
    patches: [
      {
        find: '          description: One page of clients.\n          headers:\n',
        replace: `          description: One page of clients.
          headers:
            X-RateLimit-Remaining:
              description: Requests left in the current window.
              required: false
              schema:
                type: integer
                minimum: 0
`,
      },
    ],
    breaking: false,
    why: 'a header clients do not read yet',
    reports: [/header X-RateLimit-Remaining added/],
  },
  {
    id: 'N10',
    title: '`idLocation` marked deprecated',
    patches: [
      {
        find: '        - name: idLocation\n          in: query\n',
        replace: '        - name: idLocation\n          in: query\n          deprecated: true\n',
      },
    ],
    breaking: false,
    why: 'still accepted; a warning for later',
    reports: [/deprecated/],
  },
  {
    id: 'N11',
    title: '`sort` gains the value -IdClient (request enum widened)',
    base: 'N03',
    patches: [
      {
        find: '            enum: [FullName, -FullName, IdClient]',
        replace: '            enum: [FullName, -FullName, IdClient, -IdClient]',
      },
    ],
    breaking: false,
    why: 'a request parameter accepts one more value',
    reports: [/enum value -IdClient added/],
  },
  {
    id: 'N12',
    title: '`idStaff` no longer has to be a uuid (format removed on a request parameter)',
    patches: [
      {
        find: '          schema:\n            type: string\n            format: uuid\n            maxLength: 36\n          example: af9b5699-ba15-4e04-8356-9e6f724c2891\n',
        replace:
          '          schema:\n            type: string\n            maxLength: 36\n          example: af9b5699-ba15-4e04-8356-9e6f724c2891\n',
      },
    ],
    breaking: false,
    why: 'a request parameter widened: every id that was valid still is',
    reports: [/format uuid removed/],
  },
  {
    id: 'B01',
    title: 'ClientSimple loses `Email`',
    patches: [
      {
        find: '      required: [IdClient, FullName, PersonalId, Phone, Email]',
        replace: '      required: [IdClient, FullName, PersonalId, Phone]',
      },
      {
        find: "        Email:\n          $ref: '#/components/schemas/Email'\n    ClientExtended:",
        replace: '    ClientExtended:',
      },
    ],
    breaking: true,
    why: 'clients reading Email get nothing',
    reports: [/Email: property removed/],
  },
  {
    id: 'B02',
    title: '`pageSize` at most 50 (was 100)',
    patches: [{ find: PAGE_SIZE_SCHEMA, replace: PAGE_SIZE_SCHEMA.replace('1 to 100', '1 to 50').replace('maximum: 100', 'maximum: 50') }],
    breaking: true,
    why: 'pageSize=100 was valid and is now 400',
    reports: [/maximum lowered 100 → 50/],
  },
  {
    id: 'B03',
    title: 'new required query parameter `idOrganisation` on Simple',
    patches: [
      {
        find: "        - $ref: '#/components/parameters/PageSize'\n        - $ref: '#/components/parameters/Prefer'\n      responses:\n        '200':\n          description: One page of clients.",
        replace: `        - $ref: '#/components/parameters/PageSize'
        - name: idOrganisation
          in: query
          required: true
          schema:
            type: string
            format: uuid
        - $ref: '#/components/parameters/Prefer'
      responses:
        '200':
          description: One page of clients.`,
      },
    ],
    breaking: true,
    why: 'every request without it is now 400',
    reports: [/required .*parameter idOrganisation added/],
  },
  {
    id: 'B04',
    title: 'unknown client: 410 instead of 404',
    patches: [
      {
        find: "        '404':\n          description: No client has this",
        replace: "        '410':\n          description: No client has this",
      },
    ],
    breaking: true,
    why: 'clients that handle 404 for an unknown client never see it again',
    reports: [/status 404 removed/, /status 410 added/],
  },
  {
    id: 'B05',
    title: 'error code CLIENT_NOT_FOUND renamed CLIENT_UNKNOWN',
    patches: [
      { find: '            - CLIENT_NOT_FOUND\n', replace: '            - CLIENT_UNKNOWN\n' },
      { find: 'Code: CLIENT_NOT_FOUND', replace: 'Code: CLIENT_UNKNOWN', all: true },
    ],
    breaking: true,
    why: 'clients matching on Code meet a value they do not know',
    reports: [/enum value CLIENT_UNKNOWN added/],
  },
  {
    id: 'B06',
    title: 'Gender gains NonBinary (response enum)',
    patches: [
      {
        find: '          enum: [Male, Female, Other, Unknown]\n          maxLength: 7\n',
        replace: '          enum: [Male, Female, Other, Unknown, NonBinary]\n          maxLength: 9\n',
      },
    ],
    breaking: true,
    why: 'a client with a switch over the four values meets a fifth',
    reports: [/enum value NonBinary added/, /maxLength raised 7 → 9/],
  },
  {
    id: 'B07',
    title: '`sort` loses IdClient (request enum narrowed)',
    base: 'N03',
    patches: [{ find: '            enum: [FullName, -FullName, IdClient]', replace: '            enum: [FullName, -FullName]' }],
    breaking: true,
    why: 'sort=IdClient was valid and is now 400',
    reports: [/enum value IdClient removed/],
  },
  {
    id: 'B08',
    title: '`filter` at most 100 characters (was 200)',
    patches: [{ find: '            maxLength: 200\n', replace: '            maxLength: 100\n' }],
    breaking: true,
    why: 'a 150-character term was valid and is now 400',
    reports: [/maxLength lowered 200 → 100/],
  },
  {
    id: 'B09',
    title: 'FullName up to 200 characters (was 120, response)',
    patches: [
      {
        find: '      minLength: 1\n      maxLength: 120\n      examples: [Åsa Lindqvist]',
        replace: '      minLength: 1\n      maxLength: 200\n      examples: [Åsa Lindqvist]',
      },
    ],
    breaking: true,
    why: 'clients sized their columns and layouts for 120',
    reports: [/maxLength raised 120 → 200/],
  },
  {
    id: 'B10',
    title: 'PersonalInfo.DateOfBirth may be null',
    patches: [
      { find: '        DateOfBirth:\n          type: string\n', replace: "        DateOfBirth:\n          type: [string, 'null']\n" },
    ],
    breaking: true,
    why: 'clients parsing the date meet null',
    reports: [/DateOfBirth: may now be null/],
  },
  {
    id: 'B11',
    title: 'Simple no longer sends X-Total-Count',
    patches: [
      {
        find: "          description: One page of clients.\n          headers:\n            X-Total-Count:\n              $ref: '#/components/headers/X-Total-Count'\n",
        replace: '          description: One page of clients.\n          headers:\n',
      },
    ],
    breaking: true,
    why: 'clients computing the page count from it get nothing',
    reports: [/header X-Total-Count removed/],
  },
  {
    id: 'B12',
    title: 'Diagnostics/Exception removed',
    patches: [{ at: ['paths', '/api/v1/Diagnostics/Exception'] }],
    breaking: true,
    why: 'clients calling it get 404',
    reports: [/operation removed/],
  },
  {
    id: 'B13',
    title: 'Ping requires the X-Api-Key',
    patches: [{ at: ['paths', '/api/v1/Diagnostics/Ping', 'get', 'security'] }],
    breaking: true,
    why: 'a health check without a key now gets 401',
    reports: [/security/],
  },
  {
    id: 'B14',
    title: '`pageSize` renamed `limit`',
    patches: [{ find: '      name: pageSize\n', replace: '      name: limit\n' }],
    breaking: true,
    why: 'unknown query parameters are 400 here: every request with pageSize fails',
    reports: [/parameter pageSize removed/, /optional .*parameter limit added/],
  },
  {
    id: 'B15',
    title: 'ClientSimple.Email no longer required',
    patches: [
      {
        find: '      required: [IdClient, FullName, PersonalId, Phone, Email]',
        replace: '      required: [IdClient, FullName, PersonalId, Phone]',
      },
    ],
    breaking: true,
    why: 'clients reading Email may get nothing',
    reports: [/Email: no longer required/],
  },
  {
    id: 'B16',
    title: '`pageSize` default 10 (was 25)',
    patches: [{ find: PAGE_SIZE_SCHEMA, replace: PAGE_SIZE_SCHEMA.replace('default: 25', 'default: 10') }],
    breaking: true,
    why: 'the same request (no pageSize) now gets another answer',
    reports: [/default changed 25 → 10/],
  },
  {
    id: 'B17',
    title: 'the API key travels in `Authorization` (was `X-Api-Key`)',
    patches: [{ find: '      name: X-Api-Key\n', replace: '      name: Authorization\n' }],
    breaking: true,
    why: 'clients sending X-Api-Key now get 401',
    reports: [/security scheme ApiKeyAuth: name changed X-Api-Key → Authorization/],
  },
  {
    id: 'B18',
    title: 'X-Request-Id no longer promised on every answer (required: true → false)',
    patches: [
      {
        find: "        the server's log line.\n      required: true\n",
        replace: "        the server's log line.\n      required: false\n",
      },
    ],
    breaking: true,
    why: 'clients logging it may get nothing',
    reports: [/header X-Request-Id: no longer required/],
  },
  {
    id: 'B19',
    title: '`filter=` (an empty value) no longer allowed',
    patches: [{ find: '          allowEmptyValue: true\n', replace: '' }],
    breaking: true,
    why: '`filter=` was valid (no filter) and is now 400',
    reports: [/allowEmptyValue/],
  },
  {
    id: 'B20',
    title: 'Gender becomes free text (enum removed, response)',
    patches: [{ find: '          enum: [Male, Female, Other, Unknown]\n          maxLength: 7\n', replace: '          maxLength: 7\n' }],
    breaking: true,
    why: 'a response value widened: clients switching over the four values meet others',
    reports: [/enum removed/],
  },
];

function applyPatch(text: string, patch: Patch, id: string): string {
  if ('find' in patch) {
    const count = text.split(patch.find).length - 1;
    if (count === 0 || (count > 1 && !patch.all)) {
      throw new Error(`edit ${id}: ${count} occurrences of ${JSON.stringify(patch.find.slice(0, 80))} in the spec (openapi.yaml changed?)`);
    }
    return text.split(patch.find).join(patch.replace);
  }
  const document = YAML.parseDocument(text);
  if (!document.hasIn(patch.at)) throw new Error(`edit ${id}: no node at ${patch.at.join(' / ')} in the spec (openapi.yaml changed?)`);
  if (patch.value === undefined) document.deleteIn(patch.at);
  else document.setIn(patch.at, patch.value);
  return document.toString({ lineWidth: 0 });
}

/** The spec text after an edit (and its base edit, first). Throws when a patch no longer applies. */
export function applyEdit(specText: string, edit: Edit): string {
  let text = specText;
  if (edit.base) {
    const base = EDITS.find((candidate) => candidate.id === edit.base);
    if (!base) throw new Error(`edit ${edit.id}: no base edit ${edit.base}`);
    text = applyEdit(text, base);
  }
  for (const patch of edit.patches) text = applyPatch(text, patch, edit.id);
  return text;
}

/** The spec an edit starts from (openapi.yaml, or its base edit's result). */
export function editBase(specText: string, edit: Edit): string {
  const base = edit.base ? EDITS.find((candidate) => candidate.id === edit.base) : undefined;
  return base ? applyEdit(specText, base) : specText;
}
