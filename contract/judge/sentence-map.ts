// The sentence table's data: every sentence of openapi.yaml (as sentences.ts
// splits it, by its stable id) mapped to the rules that enforce it — the
// judge's (rules.ts JUDGE_RULES, CHECK_RULES, applied to every exchange) or a check's own
// (`check.…`, declared where the check is defined) — or to the reason no
// check from outside can. tests/contract/sentences.test.ts compares it with
// the document both ways: a sentence with no entry, an entry for a sentence
// the document no longer has, or a rule nobody declares fails the test.
// Regenerate the ids (not the mapping) when a sentence's wording changes.

/** A sentence's entry in the table: the rules that enforce it, or why none can. */
export interface SentenceEntry {
  /** Rule ids: the judge's (rules.ts JUDGE_RULES, CHECK_RULES) or a check's own (`check.…`, declared by the check). */
  rules?: readonly string[];
  /** Where the rules enforce only part of the sentence, which part. */
  note?: string;
  /** Why no check from outside can enforce it (then no rules). */
  reason?: string;
}

/** A summary naming the default data set of our mock. */
const DEFAULT_DATA =
  "Names the mock's default data set (SEED=1, CLIENTS=1000), which a deployment does not have. tests/spec/examples-exist.test.ts holds our mock to it; tests/spec/examples-keep-rules.test.ts holds the example itself to the record rules.";

/** A named example's title. */
const EXAMPLE_TITLE =
  'The title of a named example the mock serves for `Prefer: example=…`, which a real deployment ignores. The example itself keeps the schema, record and error-table rules (tests/spec/examples-keep-rules.test.ts).';

/** A Prefer example's title. */
const PREFER_EXAMPLE =
  'The title of an example value of the Prefer mock control; each value is a valid Prefer (tests/spec/examples-keep-rules.test.ts), and a real deployment ignores the header.';

export const SENTENCE_MAP: Readonly<Record<string, SentenceEntry>> = {
  // Read-only access to the client records of a health-care provider, plus two diagnostics endpoints.
  'info:read-only-access-to-7ff81a': { rules: ['request.method', 'request.path'] },
  // This document is the single source of truth: the mock server, its request and response validation, its gene…
  'info:this-document-is-the-0d4f3f': {
    reason:
      "About how this project is built (everything derived from the document), not about a deployment's answers; npm run gen:check and lint:spec enforce it in this repository.",
  },
  // Every `/api/v1/Client/*` operation requires the `X-Api-Key` request header.
  'info#authentication:every-apiv1client-operation-requires-a41198': { rules: ['request.key-missing'] },
  // A missing header and an unknown key are both answered with `401` and `Code: UNAUTHORIZED`; the `Message` te…
  'info#authentication:a-missing-header-and-aa1bfc': {
    rules: ['request.key-missing', 'request.key-unknown', 'error.code', 'check.auth-messages'],
  },
  // The two diagnostics operations (`Ping`, `Exception`) are public.
  'info#authentication:the-two-diagnostics-operations-9fde67': { rules: ['check.public'] },
  // The mock accepts the key `dev-key` unless other keys are configured.
  'info#authentication:the-mock-accepts-the-52feba': {
    reason: "A default of our mock's configuration, not of the API: the runner takes the deployment's key with --api-key.",
  },
  // `page` is an integer from 1 (default 1); `pageSize` an integer from 1 to 100 (default 25), written in decimal…
  'info#lists-paging-order:page-is-an-integer-1fcdfe': { rules: ['request.value', 'list.echo', 'relation.tiling'] },
  // Any other value (0, negative, a fraction, not a number, another spelling such as `1e1` or `0x10`, empty, abo…
  'info#lists-paging-order:any-other-value-0-00cd10': { rules: ['request.value', 'response.status', 'error.message'] },
  // A page past the end is `200` with an empty `Results` array; `Page` and `PageSize` always echo the request.
  'info#lists-paging-order:a-page-past-the-71671f': { rules: ['check.past-end', 'list.echo', 'list.total'] },
  // Clients are ordered by `FullName` (case- and accent-insensitive, English collation: the Unicode Collation A…
  'info#lists-paging-order:clients-are-ordered-by-eaf1e8': { rules: ['list.order', 'check.order', 'relation.tiling'] },
  // `Simple` and `Extended` use the same order, so a client has the same position in both.
  'info#lists-paging-order:simple-and-extended-use-4b2ed0': { rules: ['check.simple-extended', 'list.rows-agree'] },
  // The body is exactly `{Page, PageSize, Results}`.
  'info#lists-paging-order:the-body-is-exactly-f6dd88': { rules: ['response.schema'] },
  // The number of matching clients travels in the `X-Total-Count` header, and an RFC 8288 `Link` header carries…
  'info#lists-paging-order:the-number-of-matching-4d9a82': { rules: ['list.total', 'list.link'] },
  // Both headers are exposed to browsers through CORS.
  'info#lists-paging-order:both-headers-are-exposed-6fe1b5': { rules: ['cors.expose'] },
  // A request with an `Origin` the server accepts (any, by default) gets `Access-Control-Allow-Origin` (`*` or …
  'info#cors:a-request-with-an-6673de': { rules: ['cors.allow-origin', 'cors.expose', 'check.cors'] },
  // A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method: GET`) on any path of this document…
  'info#cors:a-preflight-options-with-309317': { rules: ['cors.preflight', 'check.preflight'] },
  // The API sends no validators (no `ETag`, no `Last-Modified`), and every response is `Cache-Control: no-store`.
  'info#conditional-requests:the-api-sends-no-4657b7': {
    rules: ['response.header'],
    note: "The no-store part (the Cache-Control header's pattern). No rule yet asserts the absence of ETag and Last-Modified.",
  },
  // `If-None-Match`, `If-Match`, `If-Modified-Since`, `If-Unmodified-Since` and `If-Range` change nothing (`Range` i…
  'info#conditional-requests:ifnonematch-ifmatch-ifmodifiedsince-ifunmodifiedsince-32829c': {
    rules: ['check.conditional', 'check.history'],
    note: "Each precondition header, before and after the plain request, held to the plain answer (derived/conditional.ts); the run's own requests replayed after conditional forms of themselves (history/).",
  },
  // An `OPTIONS` that is not a preflight is a method like any other (`405`).
  'info#cors:an-options-that-is-72e081': {
    rules: ['request.method'],
    note: 'A plain OPTIONS is judged as any other method (405); the derived method checks send it.',
  },
  // Query parameters not documented for an operation are rejected with `400`, so a typo such as `pagesize` is c…
  'info#cors:query-parameters-not-documented-f25df1': { rules: ['request.unknown-parameter', 'request.repeated', 'error.message'] },
  // Every non-2xx response is an `ErrorDto` `{Code, Message}` in JSON:
  'info#errors:every-non-2xx-response-461497': { rules: ['response.schema', 'response.media-type'] },
  // 400 | `VALIDATION_ERROR` | a parameter or header breaks this document; the Message names it
  'info#errors:400-validationerror-a-parameter-ea8401': { rules: ['error.code', 'error.message', 'request.value'] },
  // 401 | `UNAUTHORIZED` | missing or unknown `X-Api-Key`
  'info#errors:401-unauthorized-missing-or-519e0e': { rules: ['error.code', 'request.key-missing', 'request.key-unknown'] },
  // 404 | `CLIENT_NOT_FOUND` | `Detail` of a well-formed uuid that no client has
  'info#errors:404-clientnotfound-detail-of-2d2134': { rules: ['error.code', 'check.detail-not-found'] },
  // 404 | `NOT_FOUND` | no such path (paths are case-sensitive and exact, no trailing slash)
  'info#errors:404-notfound-no-such-9a043b': { rules: ['request.path', 'error.code', 'check.path-normalisation'] },
  // 405 | `METHOD_NOT_ALLOWED` | any method but GET on a known path; the `Allow: GET` header is set
  'info#errors:405-methodnotallowed-any-method-9dff25': {
    rules: ['request.method', 'error.code', 'response.header', 'check.no-method-override', 'check.head-no-content'],
  },
  // 500 | `TEST_EXCEPTION` | always, from `Diagnostics/Exception`
  'info#errors:500-testexception-always-from-82a8fa': { rules: ['check.exception', 'error.code'] },
  // 500 | `INTERNAL_ERROR` | anything unexpected, or a simulated failure; never a stack trace
  'info#errors:500-internalerror-anything-unexpected-a48a1e': { rules: ['error.no-stack', 'error.code', 'check.prefer'] },
  // The `Prefer` request header steers one response, as with Prism: `Prefer: code=404` returns that documented …
  'info#mock-controls:the-prefer-request-header-bedfcc': {
    rules: ['check.prefer'],
    note: 'The `code=` part only: `delay=` is timing, which the suite does not assert.',
  },
  // Both may be combined: `Prefer: code=500, delay=2000`.
  'info#mock-controls:both-may-be-combined-56372a': {
    rules: ['check.prefer-mock'],
    note: 'Combined with delay=0 (`code=500; delay=0`); the delay itself is timing, which the suite does not assert. Checked on a deployment that honours Prefer (the mock); a real deployment ignores the header, and the check then skips.',
  },
  // A real deployment of this API ignores the header.
  'info#mock-controls:a-real-deployment-of-12df05': { rules: ['check.prefer'] },
  // Local mock server (development environment; start it with `npm start`)
  'servers.server:local-mock-server-development-1f537f': { reason: 'Where our mock runs during development, not a property of the API.' },
  // Public endpoints to check that the service runs and that an integration handles errors.
  'tags.Diagnostics:public-endpoints-to-check-8c2c43': { rules: ['check.public', 'check.ping', 'check.exception'] },
  // Read-only client records in three levels of detail.
  'tags.Client:read-only-client-records-aa95e1': { rules: ['response.schema', 'request.method'] },
  // Require the `X-Api-Key` header.
  'tags.Client:require-the-xapikey-header-532d03': { rules: ['request.key-missing'] },
  // Check that the API is running
  'ping.summary:check-that-the-api-d1cb7d': { rules: ['check.ping'] },
  // Public; `X-Api-Key` is not required.
  'ping:public-xapikey-is-not-375f26': { rules: ['check.public'] },
  // Always answers the JSON string `"Pong"`.
  'ping:always-answers-the-json-3948af': { rules: ['check.ping', 'response.schema'] },
  // The service is running.
  'ping.200:the-service-is-running-80a6b4': { rules: ['check.ping'] },
  // Trigger a server-side error on purpose
  'exception.summary:trigger-a-server-side-770a5b': { rules: ['check.exception'] },
  // Public; `X-Api-Key` is not required.
  'exception:public-xapikey-is-not-375f26': { rules: ['check.public'] },
  // Always fails with `500` and `Code: TEST_EXCEPTION` and exactly the `Message` of the `testException` example…
  'exception:always-fails-with-500-d278d2': { rules: ['check.exception'] },
  // Always returned, by design: `Code` is `TEST_EXCEPTION`.
  'exception.500:always-returned-by-design-2cdf4e': { rules: ['check.exception', 'error.code'] },
  // A simulated failure (`Prefer: code=500`) is `INTERNAL_ERROR`.
  'exception.500:a-simulated-failure-prefercode500-f68383': { rules: ['check.prefer'] },
  // The designed failure
  'exception.500.testException.summary:the-designed-failure-32f45f': { rules: ['check.exception'] },
  // List clients with basic information
  'getClientsSimple.summary:list-clients-with-basic-5a2e87': { rules: ['response.schema'] },
  // A page of clients with their basic fields, in the documented order (`FullName`, then `IdClient`).
  'getClientsSimple:a-page-of-clients-0e28d5': { rules: ['response.schema', 'list.order'] },
  // The total number of clients is in `X-Total-Count`; page links are in `Link`.
  'getClientsSimple:the-total-number-of-034feb': { rules: ['list.total', 'list.link'] },
  // One page of clients.
  'getClientsSimple.200:one-page-of-clients-6ee194': { rules: ['response.schema'] },
  // The first page of two clients: the answer to `?pageSize=2` from the default data (SEED=1, CLIENTS=1000)
  'getClientsSimple.200.typical.summary:the-first-page-of-c4aa9d': { reason: DEFAULT_DATA },
  // No clients: `Results` is empty and `X-Total-Count` is 0 (Prefer: example=empty)
  'getClientsSimple.200.empty.summary:no-clients-results-is-4b3be8': { reason: EXAMPLE_TITLE },
  // Exactly one client; `X-Total-Count` is 1 (Prefer: example=single)
  'getClientsSimple.200.single.summary:exactly-one-client-xtotalcount-7509f0': { reason: EXAMPLE_TITLE },
  // Every string at its maximum length in this document (lists of three items), for layout tests (Prefer: examp…
  'getClientsSimple.200.longest.summary:every-string-at-its-825bd9': { reason: EXAMPLE_TITLE },
  // List clients with extended information and filters
  'getClientsExtended.summary:list-clients-with-extended-f929f0': { rules: ['response.schema'] },
  // A page of clients with their basic fields plus personal and contact details, assigned staff, location and s…
  'getClientsExtended:a-page-of-clients-c6cb42': { rules: ['response.schema', 'check.simple-extended'] },
  // All given filters combine with AND; `X-Total-Count` counts the clients that match them all.
  'getClientsExtended:all-given-filters-combine-8c590c': {
    rules: ['check.filter-and', 'relation.intersection', 'filter.active', 'filter.staff', 'filter.location', 'filter.text'],
  },
  // `true` keeps active clients only, `false` inactive clients only.
  'getClientsExtended.param.active:true-keeps-active-clients-8706c8': { rules: ['filter.active', 'relation.active-partition'] },
  // Any other value is `400`.
  'getClientsExtended.param.active:any-other-value-is-487d88': { rules: ['request.value'] },
  // Full-text search.
  'getClientsExtended.param.filter:full-text-search-c66686': { rules: ['filter.text'] },
  // Trimmed; empty means no filter; inside the term every run of white space counts as one space.
  'getClientsExtended.param.filter:trimmed-empty-means-no-24b44a': {
    rules: ['relation.blank', 'relation.trim', 'relation.white-space', 'filter.text'],
  },
  // White space is exactly the characters with the Unicode `White_Space` property (U+0009 to U+000D, U+0020, U+…
  'getClientsExtended.param.filter:white-space-is-exactly-f2a05c': {
    rules: ['relation.white-space', 'relation.trim', 'check.filter-white-space', 'filter.text'],
  },
  // A client matches when the folded term is a substring of the folded `FullName`, `PersonalId`, `Email` or `Ph…
  'getClientsExtended.param.filter:a-client-matches-when-41d347': {
    rules: [
      'filter.text',
      'check.filter-complete',
      'check.filter-fields',
      'relation.fold-row',
      'relation.case',
      'relation.accents',
      'relation.white-space',
    ],
  },
  // Folding is exactly: Unicode canonical decomposition (NFD), every combining mark (category M) removed, lower…
  'getClientsExtended.param.filter:folding-is-exactly-unicode-44cb00': {
    rules: ['relation.fold-row', 'relation.case', 'relation.accents', 'check.filter-folding', 'filter.text'],
  },
  // So `asa` finds `Åsa` and `YILDIZ` finds `Yıldız`; any other letter (e.g. `ŋ`, `ħ`, `ə`) matches only itself…
  'getClientsExtended.param.filter:so-asa-finds-asa-919efd': {
    rules: ['relation.case', 'relation.accents', 'check.filter-folding', 'check.filter-fields', 'filter.text'],
  },
  // A term made only of digits, spaces, `+`, `-` and brackets, with at least one digit, also matches when its d…
  'getClientsExtended.param.filter:a-term-made-only-e3368f': { rules: ['relation.digits', 'check.filter-phone-digits', 'filter.text'] },
  // Every character is plain text: `+` and `%20` both mean a space; `O'Brien`, `@`, `/`, `(` and `,` need no es…
  'getClientsExtended.param.filter:every-character-is-plain-396e7d': {
    rules: ['relation.plus-space', 'check.filter-plain-text', 'check.allow-reserved'],
  },
  // Only clients assigned to this staff member.
  'getClientsExtended.param.idStaff:only-clients-assigned-to-f3eed6': { rules: ['filter.staff', 'check.filter-ids'] },
  // An unknown uuid matches no client.
  'getClientsExtended.param.idStaff:an-unknown-uuid-matches-cba421': { rules: ['check.unknown-id'] },
  // Uuids are compared case-insensitively (RFC 9562 §4: UUIDs are case-insensitive on input), so the same uuid …
  'getClientsExtended.param.idStaff:uuids-are-compared-case-7b4d6b': { rules: ['relation.uuid-case'] },
  // Only clients of this location.
  'getClientsExtended.param.idLocation:only-clients-of-this-c35aa6': { rules: ['filter.location', 'check.filter-ids'] },
  // An unknown uuid matches no client.
  'getClientsExtended.param.idLocation:an-unknown-uuid-matches-cba421': { rules: ['check.unknown-id'] },
  // Uuids are compared case-insensitively (RFC 9562 §4: UUIDs are case-insensitive on input), so the same uuid …
  'getClientsExtended.param.idLocation:uuids-are-compared-case-7b4d6b': { rules: ['relation.uuid-case'] },
  // One page of the matching clients.
  'getClientsExtended.200:one-page-of-the-101a21': { rules: ['filter.text', 'filter.active', 'filter.staff', 'filter.location'] },
  // The first page of one client: the answer to `?pageSize=1` from the default data (SEED=1, CLIENTS=1000)
  'getClientsExtended.200.typical.summary:the-first-page-of-133222': { reason: DEFAULT_DATA },
  // No clients: `Results` is empty and `X-Total-Count` is 0 (Prefer: example=empty)
  'getClientsExtended.200.empty.summary:no-clients-results-is-4b3be8': { reason: EXAMPLE_TITLE },
  // Exactly one client; `X-Total-Count` is 1 (Prefer: example=single)
  'getClientsExtended.200.single.summary:exactly-one-client-xtotalcount-7509f0': { reason: EXAMPLE_TITLE },
  // Every string at its maximum length in this document (lists of three items), for layout tests (Prefer: examp…
  'getClientsExtended.200.longest.summary:every-string-at-its-825bd9': { reason: EXAMPLE_TITLE },
  // Get the detail of one client
  'getClientDetail.summary:get-the-detail-of-6a4577': { rules: ['response.schema'] },
  // All seven sections of one client.
  'getClientDetail:all-seven-sections-of-c36146': { rules: ['response.schema'] },
  // The values are the same as in the lists for the same client: `PersonalInfo`, `ContactInfo` and `Status` equ…
  'getClientDetail:the-values-are-the-a1fa51': { rules: ['detail.agrees-with-list'] },
  // A value that is not a uuid is `400`; a uuid that no client has is `404 CLIENT_NOT_FOUND`.
  'getClientDetail:a-value-that-is-869cea': { rules: ['request.value', 'error.message', 'check.detail-not-found'] },
  // The client's `IdClient`, as returned by the lists.
  'getClientDetail.param.idClient:the-client-s-idclient-d3a87f': { rules: ['detail.id', 'detail.agrees-with-list'] },
  // Uuids are compared case-insensitively (RFC 9562 §4: UUIDs are case-insensitive on input), so the same uuid …
  'getClientDetail.param.idClient:uuids-are-compared-case-6d82f4': { rules: ['relation.uuid-case'] },
  // The client.
  'getClientDetail.200:the-client-9aa955': { rules: ['detail.id'] },
  // The client of the example idClient, as the default data (SEED=1, CLIENTS=1000) holds it
  'getClientDetail.200.typical.summary:the-client-of-the-432788': { reason: DEFAULT_DATA },
  // Staff, Location and Insurance null, no allergies or medications (Prefer: example=nullSections)
  'getClientDetail.200.nullSections.summary:staff-location-and-insurance-f7c38d': { reason: EXAMPLE_TITLE },
  // Every string at its maximum length in this document (lists of three items), for layout tests (Prefer: examp…
  'getClientDetail.200.longest.summary:every-string-at-its-825bd9': { reason: EXAMPLE_TITLE },
  // No client has this `idClient` (`CLIENT_NOT_FOUND`; the Message names the id).
  'getClientDetail.404:no-client-has-this-9e9168': { rules: ['check.detail-not-found', 'error.message'] },
  // Unknown client
  'getClientDetail.404.clientNotFound.summary:unknown-client-cd8f8e': { rules: ['check.detail-not-found'] },
  // Required on every `/api/v1/Client/*` operation.
  'security.ApiKeyAuth:required-on-every-apiv1client-012430': {
    rules: ['request.key-missing', 'check.key-elsewhere', 'check.key-header-case'],
  },
  // The mock accepts `dev-key` unless keys are configured (`API_KEYS`).
  'security.ApiKeyAuth:the-mock-accepts-devkey-5bdf4e': {
    reason: "A default of our mock's configuration (API_KEYS), not of the API: the runner takes the deployment's key with --api-key.",
  },
  // Page number, from 1.
  'param.Page:page-number-from-1-170f55': { rules: ['request.value'] },
  // A page past the end is an empty page, not an error.
  'param.Page:a-page-past-the-b1fec9': { rules: ['check.past-end'] },
  // Records per page, 1 to 100.
  'param.PageSize:records-per-page-1-aec291': { rules: ['request.value', 'list.echo'] },
  // Larger values are rejected, never clamped.
  'param.PageSize:larger-values-are-rejected-8d1841': { rules: ['request.value', 'response.status'] },
  // Mock control, ignored by a real deployment.
  'param.Prefer:mock-control-ignored-by-b11748': { rules: ['check.prefer'] },
  // A list of preferences as RFC 7240 writes them (`name=value`, separated by commas; a semicolon also separate…
  'param.Prefer:a-list-of-preferences-a198ed': {
    rules: ['check.prefer-mock'],
    note: 'Checked on a deployment that honours Prefer (the mock); a real deployment ignores the header, and the check then skips.',
  },
  // The mock implements three:
  'param.Prefer:the-mock-implements-three-0d34b7': {
    rules: ['check.prefer-mock'],
    note: 'Checked on a deployment that honours Prefer (the mock); a real deployment ignores the header, and the check then skips.',
  },
  // `code=NNN`: answer that status, which the operation must document, with a valid `ErrorDto` (a 2xx status as…
  'param.Prefer:codennn-answer-that-status-60ba37': { rules: ['check.prefer', 'check.prefer-mock'] },
  // `delay=MS`: answer that many milliseconds late (0 to 10000);
  'param.Prefer:delayms-answer-that-many-6344c8': {
    rules: ['check.prefer-mock'],
    note: 'A lower bound only: the answer comes at least that late (less 5 ms of timer slack), with code=200 and with code=500; a loaded machine can only lengthen it, so no upper bound is held. Checked on a deployment that honours Prefer (the mock); a real deployment ignores the header, and the check then skips.',
  },
  // `example=NAME`: answer the operation's named example `NAME` from this document, for the status `code` asks …
  'param.Prefer:examplename-answer-the-operation-a1c2f3': {
    rules: ['check.prefer-mock'],
    note: "Every named example of every operation, by its name (2xx) or with its error status (`code=401, example=missingKey`), answered as itself, and an unknown name; a name the asked status lacks is not held (the description's 'else' reads either way). Checked on a deployment that honours Prefer (the mock); a real deployment ignores the header, and the check then skips.",
  },
  // The lists have `typical`, `empty`, `single` and `longest`, where `X-Total-Count` is the example's number of…
  'param.Prefer:the-lists-have-typical-52d625': {
    rules: ['check.prefer-mock'],
    note: 'Every list example answered as itself; X-Total-Count only for `empty` (0) and `single` (1). Checked on a deployment that honours Prefer (the mock); a real deployment ignores the header, and the check then skips.',
  },
  // As RFC 7240 asks, a preference the mock does not implement (`return=minimal`, `handling=lenient`, `respond-…
  'param.Prefer:as-rfc-7240-asks-b76aa4': {
    rules: ['check.prefer-mock'],
    note: 'Checked on a deployment that honours Prefer (the mock); a real deployment ignores the header, and the check then skips.',
  },
  // A bad value of `code`, `delay` or `example` is `400 VALIDATION_ERROR` naming it; an unknown example name li…
  'param.Prefer:a-bad-value-of-bebfab': {
    rules: ['check.prefer-mock'],
    note: 'That an unknown example name lists the known ones is not checked. Checked on a deployment that honours Prefer (the mock); a real deployment ignores the header, and the check then skips.',
  },
  // delay=0: the real answer, at once
  'param.Prefer.realAnswer.summary:delay-0-the-real-84f642': { reason: PREFER_EXAMPLE },
  // delay=1500: the real answer, 1.5 s late
  'param.Prefer.slow.summary:delay-1500-the-real-42413c': { reason: PREFER_EXAMPLE },
  // code=500: a simulated 500 INTERNAL_ERROR
  'param.Prefer.serverError.summary:code-500-a-simulated-fc4c51': { reason: PREFER_EXAMPLE },
  // code=500, delay=2000: the simulated 500, 2 s late
  'param.Prefer.slowServerError.summary:code-500-delay-2000-a4d3d4': { reason: PREFER_EXAMPLE },
  // example=empty: the named example of an empty list (lists only)
  'param.Prefer.emptyState.summary:example-empty-the-named-130d84': { reason: PREFER_EXAMPLE },
  // return=minimal, delay=0: a preference the mock does not implement is ignored
  'param.Prefer.ignoredPreference.summary:return-minimal-delay-0-2a4fae': { reason: PREFER_EXAMPLE },
  // Number of clients matching the request, over all pages.
  'header.X-Total-Count:number-of-clients-matching-a53e78': { rules: ['list.total', 'check.total', 'relation.tiling'] },
  // RFC 8288 page links as relative references (any RFC 8288 form: one header line or several, parameters in an…
  'header.Link:rfc-8288-page-links-7c86e5': { rules: ['list.link'] },
  // With `last = max(1, ceil(X-Total-Count / pageSize))`: `first` (page 1) and `last` are always present, also …
  'header.Link:with-lastmax1ceilxtotalcountpagesize-first-page-cd8bbf': { rules: ['list.link'] },
  // Each target is the same operation with that `page`, the same `pageSize` and every other query parameter of …
  'header.Link:each-target-is-the-20e90a': { rules: ['list.link', 'check.link-follow'] },
  // A long non-ASCII `filter` makes a long header (four percent-encoded copies of it).
  'header.Link:a-long-non-ascii-0d9699': { rules: ['check.link-length', 'response.header'] },
  // On every response: `no-store` (RFC 9111 §5.2.2.5), so that no browser or shared cache keeps a client's heal…
  'header.Cache-Control:on-every-response-nostore-c1c793': { rules: ['response.header'] },
  // Other directives may stand beside it.
  'header.Cache-Control:other-directives-may-stand-ad43d8': { rules: ['response.header'] },
  // On every response: `nosniff` (the Fetch standard), so that a browser reads a body only as its `Content-Type`…
  'header.X-Content-Type-Options:on-every-response-nosniff-054f3a': { rules: ['response.header'] },
  // On every response: a policy with `default-src 'none'` and `frame-ancestors 'none'`, as the OWASP REST Secur…
  'header.Content-Security-Policy:on-every-response-a-540697': { rules: ['response.header'] },
  // Other directives may stand beside them, in any order; directive names and `'none'` compare in any case (CSP…
  'header.Content-Security-Policy:other-directives-may-stand-690165': { rules: ['response.header'] },
  // On every response: `DENY` (RFC 7034, any case), so that no page frames an answer, in browsers that predate …
  'header.X-Frame-Options:on-every-response-deny-69d281': { rules: ['response.header'] },
  // On every response.
  'header.X-Request-Id:on-every-response-3ce7d7': { rules: ['response.header'] },
  // The request's `X-Request-Id` is echoed unchanged when it is 1 to 128 characters of letters `A-Z a-z`, digit…
  'header.X-Request-Id:the-request-s-xrequestid-ec658e': { rules: ['header.request-id'] },
  // The id is also in the server's log line.
  'header.X-Request-Id:the-id-is-also-710d66': {
    reason: "The server's log is not visible from outside; tests/server holds our mock to it.",
  },
  // CORS: sent when the request carries an `Origin` the server accepts (`*` by default, or the configured origi…
  'header.Access-Control-Allow-Origin:cors-sent-when-the-486ccb': { rules: ['cors.allow-origin', 'check.cors'] },
  // `X-Total-Count`, `Link` and `X-Request-Id` are exposed to browser scripts.
  'header.Access-Control-Allow-Origin:xtotalcount-link-and-xrequestid-cdcc9d': { rules: ['cors.expose'] },
  // A parameter or header breaks this document (`VALIDATION_ERROR`; the Message names it and the rule).
  'response.ValidationError:a-parameter-or-header-351443': {
    rules: ['error.code', 'error.message'],
    note: 'That the Message names the rule too is not checked: a rule has no one spelling.',
  },
  // pageSize above the maximum
  'response.ValidationError.pageSizeTooLarge.summary:pagesize-above-the-maximum-3daf04': { rules: ['request.value'] },
  // A query parameter the operation does not have
  'response.ValidationError.unknownParameter.summary:a-query-parameter-the-ae0a06': { rules: ['request.unknown-parameter'] },
  // The `X-Api-Key` header is missing or holds an unknown key (`UNAUTHORIZED`).
  'response.Unauthorized:the-xapikey-header-is-dbf36d': { rules: ['request.key-missing', 'request.key-unknown', 'error.code'] },
  // The examples are the mock's Messages, each for its own case: `missingKey` when no key is sent, `unknownKey` f…
  'response.Unauthorized:the-examples-are-the-d7f3d2': { rules: ['check.auth-example-messages'] },
  // Another deployment may word its Messages otherwise, but never answers one case with the other case's example…
  'response.Unauthorized:another-deployment-may-word-d3881c': { rules: ['check.auth-messages', 'check.auth-example-messages'] },
  // No key sent
  'response.Unauthorized.missingKey.summary:no-key-sent-38b29a': { rules: ['request.key-missing'] },
  // A key the service does not accept
  'response.Unauthorized.unknownKey.summary:a-key-the-service-fd3b4e': { rules: ['request.key-unknown'] },
  // The path exists but only answers GET (`METHOD_NOT_ALLOWED`).
  'response.MethodNotAllowed:the-path-exists-but-196c49': { rules: ['request.method', 'error.code'] },
  // The methods the path answers.
  'response.MethodNotAllowed.headers.Allow:the-methods-the-path-d4f396': { rules: ['response.header'] },
  // A POST to a read-only path
  'response.MethodNotAllowed.postNotAllowed.summary:a-post-to-a-5f66ef': { rules: ['request.method'] },
  // An unexpected failure, or a simulated one (`INTERNAL_ERROR`).
  'response.InternalError:an-unexpected-failure-or-5cc9ad': { rules: ['error.code', 'check.prefer'] },
  // The Message is generic and never holds a stack trace.
  'response.InternalError:the-message-is-generic-18716a': { rules: ['error.no-stack'] },
  // Unexpected failure
  'response.InternalError.internalError.summary:unexpected-failure-e08da6': {
    reason:
      "The title of an error example; the example keeps the schema and the error table (tests/spec/examples-keep-rules.test.ts), and a deployment's unexpected failures cannot be provoked from outside.",
  },
  // No such path (`NOT_FOUND`).
  'response.NotFound:no-such-path-notfound-a2c973': { rules: ['request.path', 'error.code'] },
  // Not tied to an operation: any request whose path is not one of this document's, such as `/api/v1/client/sim…
  'response.NotFound:not-tied-to-an-ea03cb': { rules: ['request.path'] },
  // A path that does not exist
  'response.NotFound.noSuchPath.summary:a-path-that-does-a417b7': { rules: ['request.path'] },
  // The shape of every non-2xx response.
  'schema.ErrorDto:the-shape-of-every-600845': { rules: ['response.schema'] },
  // Machine-readable error code.
  'schema.ErrorDto.Code:machine-readable-error-code-8c99eb': { rules: ['error.code'] },
  // Human-readable message, never empty. (What a reader makes of it cannot be checked; that it is not empty is the
  // schema's minLength, and what some Messages must name is error.message.)
  'schema.ErrorDto.Message:human-readable-message-never-781d68': { rules: ['response.schema', 'error.message'] },
  // In `PersonalInfo`, and in the lists beside it: exactly `FirstName`, one space, `LastName` of that `Personal…
  'schema.FullName:in-personalinfo-and-in-437a36': { rules: ['record.full-name', 'record.basic-fields'] },
  // For `Staff`, the staff member's name.
  'schema.FullName:for-staff-the-staff-52d175': { rules: ['detail.agrees-with-list'] },
  // National personal identity number, `YYYYMMDD-NNNC`: `YYYYMMDD` is `PersonalInfo.DateOfBirth` without its da…
  'schema.PersonalId:national-personal-identity-number-95dfb3': { rules: ['record.luhn', 'record.birth-date', 'response.schema'] },
  // Unique per client.
  'schema.PersonalId:unique-per-client-c390ae': { rules: ['record.unique-personal-id', 'check.walk-unique'] },
  // International format with spaces, e.g. `+46 70 123 45 67`.
  'schema.Phone:international-format-with-spaces-2db965': { rules: ['response.schema'] },
  // The client's status, one of the two states of the service.
  'schema.ClientStatus:the-client-s-status-321518': { rules: ['response.schema', 'relation.active-partition'] },
  // The basic fields plus personal and contact details, assigned staff, location and status.
  'schema.ClientExtended:the-basic-fields-plus-7270c2': { rules: ['response.schema'] },
  // The basic fields repeat the sections: `FullName` and `PersonalId` are those of `PersonalInfo`, `Email` and …
  'schema.ClientExtended:the-basic-fields-repeat-878ee9': { rules: ['record.basic-fields'] },
  // `StaffName` is null exactly when `IdStaff` is, `LocationName` exactly when `IdLocation` is.
  'schema.ClientExtended:staffname-is-null-exactly-def8e9': { rules: ['record.staff-name', 'record.location-name'] },
  // The assigned staff member, or null when the client has none.
  'schema.ClientExtended.IdStaff:the-assigned-staff-member-397526': { rules: ['record.staff-name', 'detail.agrees-with-list'] },
  // The assigned staff member's full name, or null.
  'schema.ClientExtended.StaffName:the-assigned-staff-member-6df769': { rules: ['record.staff-name'] },
  // The client's location, or null when the client has none.
  'schema.ClientExtended.IdLocation:the-client-s-location-73dd32': { rules: ['record.location-name', 'detail.agrees-with-list'] },
  // The location's name, or null.
  'schema.ClientExtended.LocationName:the-location-s-name-e5cfda': { rules: ['record.location-name'] },
  // The requested page number.
  'schema.PageNumber:the-requested-page-number-0f3b02': { rules: ['list.echo'] },
  // The requested page size.
  'schema.PageSizeNumber:the-requested-page-size-db369b': { rules: ['list.echo'] },
  // One client in all seven sections of the service.
  'schema.ClientDetail:one-client-in-all-0b0768': { rules: ['response.schema'] },
  // The assigned physician, or null when the client has none.
  'schema.Staff:the-assigned-physician-or-735204': { rules: ['detail.agrees-with-list', 'response.schema'] },
  // The client's location (clinic), or null when the client has none.
  'schema.Location:the-client-s-location-041f5a': { rules: ['detail.agrees-with-list', 'response.schema'] },
  // The client's health insurance provider and policy, or null when the client has none.
  'schema.Insurance:the-client-s-health-97da12': { rules: ['response.schema'] },
};
