// The table of rules: every rule openapi.yaml states (descriptions included),
// each with the checks that enforce it from outside (matched by their titles)
// or the reason no outside check can. The coverage summary reports against it;
// a rule whose pattern matches no check is reported as unenforced, so the
// table cannot silently drift from the checks.

export interface SpecRule {
  id: string;
  /** Where openapi.yaml states it. */
  where: string;
  rule: string;
  /** Titles of the checks that enforce it (the property run is titled `property run …`). */
  checks?: RegExp;
  /** Why no check from outside can enforce it. */
  unchecked?: string;
}

const PROPERTY = 'property run';

export const SPEC_RULES: readonly SpecRule[] = [
  // Paths and methods
  {
    id: 'paths.exact',
    where: 'info: Errors (404 NOT_FOUND); components/responses/NotFound',
    rule: 'Paths are case-sensitive and exact, no trailing slash; any other path is 404 NOT_FOUND',
    checks: /→ 404 NOT_FOUND, never a redirect|→ 404 NOT_FOUND or .* own answer, never a redirect/,
  },
  {
    id: 'methods.get-only',
    where: 'info: Errors (405); components/responses/MethodNotAllowed',
    rule: 'Any method but GET on a known path is 405 METHOD_NOT_ALLOWED with Allow: GET',
    checks: /→ 405 METHOD_NOT_ALLOWED with Allow: GET/,
  },
  // Authentication
  {
    id: 'auth.required',
    where: 'info: Authentication; securitySchemes.ApiKeyAuth',
    rule: 'Every /Client/* operation requires X-Api-Key; missing or unknown is 401 UNAUTHORIZED',
    checks: /with (no key|an unknown key) in X-Api-Key → 401 UNAUTHORIZED/,
  },
  {
    id: 'auth.near-miss',
    where: 'info: Authentication',
    rule: 'Only an accepted key passes: another case, a prefix or a longer key is an unknown key (401)',
    checks: /near-miss X-Api-Key/,
  },
  {
    id: 'auth.public',
    where: 'ping, exception: security: []',
    rule: 'Ping and Exception are public',
    checks: /Ping → 200 "Pong" without a key|Exception → 500 TEST_EXCEPTION with the exact message, without a key/,
  },
  {
    id: 'auth.placement',
    where: 'components/securitySchemes/ApiKeyAuth: in header, name X-Api-Key',
    rule: 'The key counts in the X-Api-Key header (any case of the name) and nowhere else: another header, Authorization, the query or a cookie is no key (401)',
    checks: /with the key in .* → accepted \(ApiKeyAuth|with the key in .*, not in X-Api-Key → 401/,
  },
  {
    id: 'auth.message',
    where: 'info: Authentication',
    rule: 'The 401 Message tells a missing key from an unknown one',
    checks: /Messages differ/,
  },
  {
    id: 'auth.dev-key',
    where: 'info: Authentication',
    rule: 'The mock accepts dev-key unless other keys are configured',
    unchecked: 'A configuration default of our mock, not of the API; the runner takes --api-key',
  },
  // Parameters: format and limits
  {
    id: 'param.page',
    where: 'components/parameters/Page',
    rule: 'page is an integer from 1 to 2147483647, default 1; anything else is 400 naming page, never clamped',
    checks: new RegExp(`query parameter page, |page 1 of 25 by default|${PROPERTY}`),
  },
  {
    id: 'param.pageSize',
    where: 'components/parameters/PageSize',
    rule: 'pageSize is an integer from 1 to 100, default 25; anything else is 400 naming pageSize, never clamped',
    checks: new RegExp(`query parameter pageSize, |${PROPERTY}`),
  },
  {
    id: 'param.active',
    where: 'getClientsExtended: active',
    rule: 'active is true or false; any other value is 400',
    checks: /query parameter active, type boolean|active=(true|false) → only/,
  },
  {
    id: 'param.uuid',
    where: 'idStaff, idLocation, idClient: format uuid, maxLength 36',
    rule: 'A value that is not a uuid is 400 (Detail: not 404)',
    checks: /parameter (idStaff|idLocation|idClient), format uuid|idClient holding a "%2F"|on idClient → 400/,
  },
  {
    id: 'param.filter.length',
    where: 'filter: maxLength 200',
    rule: 'filter is at most 200 characters',
    checks: /query parameter filter, maxLength 200/,
  },
  {
    id: 'param.unknown',
    where: 'info: Lists (undocumented parameters)',
    rule: 'A query parameter not documented for the operation is 400, naming it',
    checks: /query parameters it does not document/,
  },
  { id: 'param.twice', where: 'info: Lists (a parameter given twice)', rule: 'A parameter given twice is 400', checks: /given twice/ },
  {
    id: 'param.generated',
    where: 'every parameter schema',
    rule: 'Every value a schema accepts is 2xx, every value it rejects is 400 (generated, seeded)',
    checks: new RegExp(PROPERTY),
  },
  // Filter semantics
  {
    id: 'filter.substring',
    where: 'filter description',
    rule: 'Substring match over FullName, PersonalId, Email and Phone, each on its own; exactly the matching clients',
    checks: /filter=<a term only in (FullName|Email)>|only matching clients, including/,
  },
  {
    id: 'filter.folding',
    where: 'filter description',
    rule: 'Folding is NFD, marks removed, lower case, nine listed letters replaced; nothing else folds',
    checks: /folded and upper-cased|case- and accent-insensitive/,
  },
  {
    id: 'filter.phone-digits',
    where: 'filter description',
    rule: 'A digit term also matches the phone digits ignoring spaces, dashes and brackets',
    checks: /phone digits|last digits of a Phone/,
  },
  {
    id: 'filter.trim-empty',
    where: 'filter description',
    rule: 'The term is trimmed; empty means no filter',
    checks: /filter= \(empty or blank\)/,
  },
  {
    id: 'filter.plain-text',
    where: 'filter description',
    rule: "Every character is plain text ('+' and %20 mean a space; O'Brien, @, /, (, , need no escaping)",
    checks: new RegExp(`reserved characters and unicode|${PROPERTY}`),
  },
  {
    id: 'filter.and',
    where: 'getClientsExtended description',
    rule: 'All given filters combine with AND; X-Total-Count counts clients matching them all',
    checks: /\(AND\)/,
  },
  {
    id: 'filter.ids',
    where: 'idStaff, idLocation descriptions',
    rule: "Only that staff member's / location's clients; an unknown uuid matches none",
    checks: /idStaff → only|idLocation → only|idStaff=<unknown uuid>/,
  },
  {
    id: 'filter.ids.case',
    where: 'idStaff, idLocation descriptions: "Uuids are compared case-insensitively (RFC 9562 §4 …)"',
    rule: 'idStaff and idLocation in upper case select the same clients',
    checks: /=<uuid in upper case> → the same clients/,
  },
  {
    id: 'filter.active',
    where: 'active description',
    rule: 'true keeps active clients only, false inactive only',
    checks: /active=(true|false) → only|active=true plus active=false/,
  },
  // Ordering and paging
  {
    id: 'order',
    where: 'info: Lists (order)',
    rule: 'Ordered by FullName (en, primary strength), ties by IdClient; same order in Simple and Extended',
    checks: /ordered by FullName|ordered across every page boundary|same clients in the same order/,
  },
  { id: 'paging.echo', where: 'info: Lists', rule: 'Page and PageSize echo the request', checks: /echoing Page 2 and PageSize 7/ },
  {
    id: 'paging.past-end',
    where: 'components/parameters/Page',
    rule: 'A page past the end is 200 with an empty Results',
    checks: /page past the end/,
  },
  {
    id: 'paging.tiling',
    where: 'info: Lists',
    rule: 'Pages tile the list: no client twice, none left out, as many as X-Total-Count',
    checks: /pages tile|full walk/,
  },
  {
    id: 'body.shape',
    where: 'ClientSimplePage, ClientExtendedPage',
    rule: 'The body is exactly {Page, PageSize, Results}',
    checks: /200 page 1 of 25 by default/,
  },
  // Response headers
  {
    id: 'header.total',
    where: 'components/headers/X-Total-Count',
    rule: 'X-Total-Count is the number of matching clients over all pages',
    checks: /X-Total-Count counts every client|full walk|X-Total-Count 0/,
  },
  {
    id: 'header.link.presence',
    where: 'components/headers/Link',
    rule: 'first and last always; prev when page > 1; next when page < last',
    checks: /200 page 1 of 25 by default|page past the end/,
  },
  {
    id: 'header.link.targets',
    where: 'components/headers/Link',
    rule: 'Each target is the same operation with the named page, the same pageSize and every other parameter; following it gives that page',
    checks: /every Link target/,
  },
  {
    id: 'header.link.length',
    where: 'components/headers/Link: maxLength 16384',
    rule: 'A long non-ASCII filter makes a long Link, within its maxLength',
    checks: /200 emoji/,
  },
  {
    id: 'header.request-id.echo',
    where: 'components/headers/X-Request-Id',
    rule: 'On every response; echoed when 1-128 of [A-Za-z0-9_.:@-]',
    checks: /X-Request-Id echoed when/,
  },
  {
    id: 'header.request-id.generated',
    where: 'components/headers/X-Request-Id',
    rule: 'Any other X-Request-Id is replaced with a generated one',
    checks: /X-Request-Id outside the rule/,
  },
  {
    id: 'header.request-id.log',
    where: 'components/headers/X-Request-Id',
    rule: "The id is in the server's log line",
    unchecked: 'Logs are not visible from outside',
  },
  {
    id: 'header.cors',
    where: 'info: CORS; components/headers/Access-Control-Allow-Origin',
    rule: 'With an accepted Origin: Access-Control-Allow-Origin, and X-Total-Count, Link, X-Request-Id exposed',
    checks: /with an Origin → Access-Control-Allow-Origin/,
  },
  {
    id: 'header.cors.preflight',
    where: 'info: CORS',
    rule: 'A preflight is 2xx allowing the origin, GET and X-Api-Key',
    checks: /CORS preflight|\(no preflight\)/,
  },
  {
    id: 'methods.no-override',
    where: 'info: Errors (405: any method but GET)',
    rule: 'The method on the request line is the method: X-HTTP-Method-Override and _method change nothing',
    checks: /no method override/,
  },
  { id: 'header.allow', where: 'components/responses/MethodNotAllowed', rule: '405 carries Allow: GET', checks: /with Allow: GET/ },
  // Media type
  {
    id: 'media.json',
    where: 'every response: content application/json',
    rule: 'Every body is application/json (RFC 8259: UTF-8, no byte order mark) and conforms to its schema',
    // Every exchange is held to its schema; these checks exist for the success bodies of each operation.
    checks: /Ping → 200 "Pong" without a key|full walk \(pageSize 100, bounded\)|spread over the whole list|conforming bodies/,
  },
  // In-record rules
  {
    id: 'record.fullname',
    where: 'components/schemas/FullName',
    rule: 'PersonalInfo.FullName is FirstName, one space, LastName',
    checks: /in-record rules/,
  },
  {
    id: 'record.personal-id',
    where: 'components/schemas/PersonalId',
    rule: 'PersonalId begins with DateOfBirth (no dashes) and ends in the Luhn digit of YYMMDDNNN',
    checks: /in-record rules/,
  },
  {
    id: 'record.personal-id.unique',
    where: 'components/schemas/PersonalId',
    rule: 'PersonalId is unique per client',
    checks: /unique ids and PersonalIds/,
  },
  {
    id: 'record.repeats',
    where: 'components/schemas/ClientExtended',
    rule: 'Extended basic fields repeat PersonalInfo and ContactInfo; StaffName/LocationName null with their ids',
    checks: /in-record rules/,
  },
  {
    id: 'record.detail-agrees',
    where: 'getClientDetail description',
    rule: 'Detail agrees with Extended (PersonalInfo, ContactInfo, Status, Staff, Location)',
    checks: /agrees with Extended|agreeing with Extended/,
  },
  {
    id: 'record.detail-case',
    where: 'getClientDetail idClient description: "Uuids are compared case-insensitively (RFC 9562 §4 …)"',
    rule: 'The id in upper case finds the same client',
    checks: /Detail\/\{idClient\} → the id in upper case/,
  },
  // Errors
  {
    id: 'error.dto',
    where: 'info: Errors; components/schemas/ErrorDto',
    rule: 'Every non-2xx is an ErrorDto {Code, Message} with the documented status and Code',
    // The checks whose title names an error status and its Code.
    checks:
      /→ 400 VALIDATION_ERROR naming|→ 401 UNAUTHORIZED|→ 404 NOT_FOUND|→ 405 METHOD_NOT_ALLOWED|→ 404 CLIENT_NOT_FOUND|→ 500 TEST_EXCEPTION with the exact message/,
  },
  {
    id: 'error.not-found',
    where: 'getClientDetail 404',
    rule: 'A uuid no client has is 404 CLIENT_NOT_FOUND naming the id',
    checks: /404 CLIENT_NOT_FOUND naming the id/,
  },
  {
    id: 'error.exception',
    where: 'exception description',
    rule: 'Exception is always 500 TEST_EXCEPTION with the example Message',
    checks: /TEST_EXCEPTION/,
  },
  {
    id: 'error.internal',
    where: 'info: Errors (500 INTERNAL_ERROR)',
    rule: 'Anything unexpected is 500 INTERNAL_ERROR, never a stack trace',
    checks: /Prefer: code=500|property run/,
  },
  {
    id: 'error.statuses',
    where: 'every operation: responses',
    rule: 'Every documented status of every operation is reachable',
    checks: /every documented status/,
  },
  // Mock controls
  {
    id: 'prefer',
    where: 'info: Mock controls; components/parameters/Prefer',
    rule: 'Prefer: code=NNN returns that documented status (a real deployment ignores it)',
    checks: /with Prefer: code=/,
  },
  {
    id: 'prefer.delay',
    where: 'components/parameters/Prefer',
    rule: 'Prefer: delay=MS delays the response',
    unchecked: 'Timing: no timed assertions in the suite; a real deployment ignores it',
  },
  // Ping
  { id: 'ping', where: 'ping description', rule: 'Ping always answers the JSON string "Pong"', checks: /"Pong"/ },
];

export interface RuleStatus {
  rule: SpecRule;
  checks: { name: string; passed: boolean }[];
  status: 'enforced' | 'failed' | 'not-run' | 'unchecked';
}

/** Each rule with the checks (by title) that ran for it and whether they passed. */
export function ruleStatuses(results: readonly { name: string; passed: boolean }[]): RuleStatus[] {
  return SPEC_RULES.map((rule) => {
    if (!rule.checks) return { rule, checks: [], status: 'unchecked' };
    const checks = results.filter((result) => rule.checks!.test(result.name));
    const status = checks.length === 0 ? 'not-run' : checks.every((c) => c.passed) ? 'enforced' : 'failed';
    return { rule, checks, status };
  });
}
