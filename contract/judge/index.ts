// The judge: the one per-exchange rule engine of the contract. Two drivers call it, the active contract suite
// (contract-suite/) and the passive validating proxy (proxy/); neither re-implements a rule. It lives under
// contract/ because it is the contract at run time, and it imports no transport: a driver hands it a request and
// the answer it got, as plain values. Each rule family has its own file (request.ts, response.ts, body.ts,
// error-rules.ts, cors.ts, lists.ts, links.ts, filters.ts, records.ts, detail.ts, agreement.ts); rules.ts is the
// catalogue of every rule id, the checks' included, and sentences.ts maps them to the sentences of openapi.yaml.
export {
  CHECK_RULES,
  CONTROL_RULES,
  RELATION_RULES,
  isRule,
  JUDGE_RULES,
  RULES,
  type CheckRule,
  type JudgeRule,
  type RelationRule,
  type RuleId,
} from './rules';
export type { JudgedExchange, JudgedRequestInput, JudgeOptions, RequestJudgement, Side, Violation } from './types';
export { fieldLines, headerOf, listOf, withoutOws, type HeaderBag, type HeaderValue } from '../headers';
export { parseQuery, readAsText } from './query';
export { describeParameterSchema } from './words';
export { judgeRequest } from './request';
export { judgeResponse, linkViolations } from './response';
export { ExchangeMemory } from './memory';
export { meetsFilters } from './filters';
export { sentencesFor, specSentences, splitSentences, type SentenceEntry, type SpecSentence } from './sentences';
