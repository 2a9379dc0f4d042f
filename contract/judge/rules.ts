// The judge's catalogue: every rule id the contract applies, the judge's per-exchange rules and the contract
// suite's own checks alike, with what each holds. One catalogue,
// so the sentence table (sentence-map.ts) can map every sentence of openapi.yaml to ids that exist, and a report
// can group causes by rule whoever found them (the suite, the proxy).
/** Every rule id the judge applies, with what it holds. The sentence table maps sentences to these (and to the checks' own rules). */
export const JUDGE_RULES = {
  'request.path': 'the path is one of the document (exact, case-sensitive, no trailing slash)',
  'request.method': 'the method is one the path documents',
  'request.unknown-parameter': 'every query parameter is documented for the operation',
  'request.repeated': 'no parameter is given twice',
  'request.value':
    'every parameter value keeps its schema (type, format, enum, bounds, length in code points, pattern), or is empty only where allowEmptyValue says so',
  'request.key-missing': 'the credential travels where the security scheme declares it',
  'request.key-unknown': 'the credential is one the deployment accepts',
  'response.status': 'the status is the one openapi.yaml gives for this request',
  'response.header': 'every header the response declares is present when required and keeps its schema',
  'response.media-type': 'the Content-Type is a documented media type, or there is no body where none is documented',
  'response.json':
    'an application/json body is RFC 8259 JSON: UTF-8, no byte order mark, strict grammar, unique member names, charset utf-8 if given',
  'response.schema': 'the body keeps the full schema of the documented response',
  'response.transport': 'every request the deployment takes gets an HTTP answer (no reset, no timeout, no bytes that are no answer)',
  'response.date': 'a 2xx, 3xx or 4xx answer carries a Date header (RFC 9110 §6.6.1)',
  'error.code': "the ErrorDto Code is the error table's for that status and request",
  'error.message': 'a 400 names the parameter, a 404 CLIENT_NOT_FOUND names the id',
  'error.no-stack': 'a 5xx Message holds no stack trace',
  'header.request-id': 'X-Request-Id is echoed when it keeps the stated rule, replaced otherwise',
  'cors.allow-origin': 'Access-Control-Allow-Origin is * or the request Origin',
  'cors.expose': 'Access-Control-Expose-Headers names X-Total-Count, Link and X-Request-Id',
  'cors.preflight': 'a preflight is 2xx with Access-Control-Allow-Methods naming GET and Access-Control-Allow-Headers naming X-Api-Key',
  'list.echo': 'Page and PageSize echo the request (or the defaults)',
  'list.total': 'Results holds the share of X-Total-Count that falls on the page',
  'list.link': 'Link carries first and last, prev and next where they apply, each naming its page of the same query',
  'list.order': 'Results are in the documented order (FullName, English collation at primary strength, then IdClient)',
  'list.unique': 'no client is listed twice on a page',
  'list.rows-agree': 'the same client has the same basic fields in every list row seen',
  'filter.active': 'active=true keeps Active clients only, false Inactive only',
  'filter.staff': "idStaff keeps that staff member's clients only (uuids compared case-insensitively)",
  'filter.location': "idLocation keeps that location's clients only (uuids compared case-insensitively)",
  'filter.text': 'every client of a filtered page matches the filter term as documented',
  'record.luhn': 'PersonalId ends in the Luhn digit of YYMMDDNNN',
  'record.birth-date': 'PersonalId begins with DateOfBirth without its dashes',
  'record.full-name': 'PersonalInfo.FullName is FirstName, one space, LastName',
  'record.basic-fields': "a row's FullName, PersonalId, Email and Phone repeat its sections",
  'record.staff-name': 'StaffName is null exactly when IdStaff is',
  'record.location-name': 'LocationName is null exactly when IdLocation is',
  'record.unique-personal-id': 'no two clients share a PersonalId',
  'record.unique-id': 'no two clients share an IdClient (uuids compared case-insensitively)',
  'detail.id': 'a Detail answers the client its path names',
  'detail.agrees-with-list': 'a Detail agrees with the list rows of that client (and is not 404 for a listed client)',
} as const;

export type JudgeRule = keyof typeof JUDGE_RULES;

/**
 * The contract suite's own rules: what a check asserts over several exchanges or over the deployment's own data,
 * beyond the per-exchange rules above, which every exchange of every check is held to as well.
 */
export const CHECK_RULES = {
  'check.ping': 'Ping answers 200 with the JSON string "Pong"',
  'check.exception': 'Exception always answers 500 TEST_EXCEPTION with the documented Message',
  'check.public': 'the diagnostics answer without X-Api-Key, whatever key is sent',
  'check.prefer': 'Prefer: code=NNN gives that status and Code, or the plain answer from a deployment that ignores Prefer',
  'check.prefer-mock': 'a mock that honours Prefer answers each named example, code and delay as openapi.yaml states',
  'check.auth-messages': 'a missing key and an unknown key are told apart in the 401 Message',
  'check.auth-example-messages': "the 401 Messages are the document's examples for a missing and an unknown key",
  'check.auth-near-miss': 'a key that differs from an accepted one in case, by a character more or less, is refused',
  'check.key-header-case': 'the X-Api-Key header is found whatever the case of its name',
  'check.key-elsewhere': 'the key sent anywhere but the X-Api-Key header (query, cookie, Authorization) does not let a request in',
  'check.past-end': 'a page past the end is 200 with no Results, echoing Page and PageSize',
  'check.total': 'X-Total-Count is the same on every page of one query and counts every client the pages hold',
  'check.link-follow': "following a page's Link targets gives the pages they name",
  'check.link-length': 'the Link header of the longest documented query stays within the documented length',
  'check.order': 'the whole list is in the documented order across pages',
  'check.walk-unique': 'no client appears twice across the pages of one list',
  'check.simple-extended': 'Simple and Extended list the same clients in the same order with the same basic fields',
  'check.filter-and': 'filters given together give the intersection of what each gives alone',
  'check.filter-ids': 'idStaff and idLocation give exactly the clients of that staff member or location',
  'check.unknown-id': 'an unknown uuid in a filter gives 200 with no results',
  'check.filter-text': 'filter finds every client whose FullName, PersonalId, Email or Phone contains the term',
  'check.filter-complete': 'filter finds every client of the whole list that matches the term, not only some',
  'check.filter-folding': 'filter finds every client a folded, upper-cased term matches (case and accent folding)',
  'check.filter-fields': 'filter searches FullName, PersonalId, Email and Phone, and no other field',
  'check.filter-phone-digits': 'a term of digits matches Phone ignoring spaces, dashes and brackets',
  'check.filter-white-space': 'a character without the White_Space property (U+FEFF) inside a term is no space',
  'check.filter-plain-text': '`+` and `%20` both mean a space, and reserved characters are plain text',
  'check.filter-none': 'a term no client matches gives 200 with no results and X-Total-Count 0',
  'check.allow-reserved': 'reserved characters sent unencoded in filter are plain text, as allowReserved says',
  'check.detail-not-found': 'an unknown id is 404 CLIENT_NOT_FOUND naming the id',
  'check.cors': 'an accepted Origin is allowed on every operation, with the paging headers exposed',
  'check.preflight': 'a preflight for every operation allows GET and X-Api-Key',
  'check.head-no-content': 'the answer to HEAD carries no content',
  'check.no-method-override': 'X-HTTP-Method-Override and _method do not turn a request into another method',
  'check.preconditions': 'a GET with preconditions no representation meets (RFC 9110 §13.1) gets the plain answer, never a 304',
  'check.conditional':
    "a GET with If-None-Match, If-Match, If-Modified-Since, If-Unmodified-Since or If-Range (the target's own validators, * and its Date) gets an answer the document gives, and, where the document says so, the plain answer",
  'check.header-forms':
    'a header parameter or credential sent empty, as white space only, with white space around its value or on two lines is read as RFC 9110 reads it',
  'check.history': "the same request gets the same answer whatever was asked before it (the suite's requests replayed in another order)",
  'check.path-normalisation': 'a path that only normalises to an operation (dot segments, encoded slashes) is not that operation',
  'check.framing': 'a request that breaks RFC 9112 framing gets 400 (or the answer of a front that refuses it)',
  'check.statuses-reached': 'every status the document gives an operation was reached by some request of the run',
} as const;

/** The --control checks' rules: the mock's control API held to control.openapi.yaml, not to openapi.yaml. */
export const CONTROL_RULES = {
  'control.table': 'the served scenario table holds every built-in kind and every named example of a Client operation',
  'control.example': 'an example scenario answers exactly as Prefer: example=NAME does',
  'control.prefer': "a request's Prefer still steers inside a scenario",
  'control.down': 'down answers every Client operation 500 and the same request outside it as before',
  'control.diagnostics': 'a scenario leaves the diagnostics alone',
  'control.simulated': 'a failure a scenario or ERROR_RATE makes says so at the end of its Message',
  'control.unauthorised': 'unauthorised refuses the accepted key as an unknown one, before Prefer',
  'control.slow': "slow's delays are at least its minimum and spread over its range",
  'control.flaky': 'flaky fails at its rate, the same requests again in a fresh session, other ones with another seed',
  'control.cors': 'a preflight for every method of every control path is allowed',
  'control.headers': 'a bad X-Mock-Session or X-Mock-Scenario is 400 naming the header',
} as const;

/**
 * The metamorphic relations' rules (contract-suite/relations/): what two or more answers of the deployment must
 * have in common, as a sentence of openapi.yaml implies, whatever data it holds (none included).
 */
export const RELATION_RULES = {
  'relation.fold-row': 'a term with a letter of the folding table finds exactly the clients the term with its replacement finds',
  'relation.case': 'a term in another case form finds exactly the clients the term as written finds',
  'relation.accents': 'a term with combining marks finds exactly the clients the term without them finds',
  'relation.white-space': 'any White_Space character, or a run of them, inside a term finds exactly what one space finds',
  'relation.trim': 'White_Space around a term finds exactly what the term alone finds',
  'relation.blank': 'an empty or blank filter finds exactly the clients of no filter',
  'relation.plus-space': '`+` and `%20` in a filter find exactly the same clients',
  'relation.digits':
    'a digit term with brackets, spaces and dashes finds exactly the phones its bare digits find (by the phone-digit rule)',
  'relation.uuid-case': 'a uuid in upper or mixed case selects exactly the clients it selects in lower case',
  'relation.tiling': 'pages of one size tile into exactly the list pages of another size give',
  'relation.intersection': 'filters given together find exactly the clients each finds alone, all of them',
  'relation.active-partition': 'active=true and active=false together give every client of the same query exactly once',
} as const;

export type RelationRule = keyof typeof RELATION_RULES;

export type CheckRule = keyof typeof CHECK_RULES | keyof typeof CONTROL_RULES | RelationRule;

/** Any rule id of the catalogue. */
export type RuleId = JudgeRule | CheckRule;

/** Every rule id of the contract, the judge's and the checks', with what it holds. */
export const RULES: Readonly<Record<RuleId, string>> = { ...JUDGE_RULES, ...CHECK_RULES, ...CONTROL_RULES, ...RELATION_RULES };

/** Whether an id is one of the catalogue (a check naming an id outside it is a bug of the suite). */
export function isRule(id: string): id is RuleId {
  return Object.hasOwn(RULES, id);
}
