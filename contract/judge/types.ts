// The values the judge takes and gives: a request as a driver hands it over, what the judge makes of it, the
// answer it got, and a broken rule (a Violation). Types only, so every rule file can name them without depending
// on another rule file.
import type { HeaderBag } from '../headers';

export type Side = 'request' | 'response';

export interface Violation {
  /** Stable rule id, e.g. `response.schema`, `list.link`, `request.unknown-parameter` (JUDGE_RULES lists them). */
  rule: string;
  /** Ids of the spec sentences this rule enforces (the sentence table, sentence-map.ts). */
  sentences: string[];
  side: Side;
  /** The operationId, or `routing` for a path that is no operation. */
  operation: string;
  /** One line. */
  expected: string;
  /** One line. */
  actual: string;
  /** Grouping key: the same rule and place (a header, a schema's field, a parameter) → the same cause, on any operation or status. */
  cause: string;
}

export interface JudgeOptions {
  /** Collects the ids of the rules that were applied (the coverage of the sentence table). */
  applied?: Set<string>;
  /**
   * Hold answers to RFC rules stricter than the document (the suite's --strict-http): a query value whose
   * percent-encoding is cut (`%E0%A4%A`, no URI by RFC 3986 §2.1) must then be refused with 400, where by default
   * a deployment may also read it as text.
   */
  strictHttp?: boolean;
}

export interface JudgedRequestInput {
  method: string;
  /** Path and query exactly as sent (percent-encoded), below the deployment's base path: `/api/v1/Client/Simple?pageSize=5`. */
  path: string;
  headers: HeaderBag;
  /** The absolute URL the request went to, for relative Link references (default `http://localhost` + path). */
  url?: string;
  /** Whether the deployment accepts the credential sent: the suite knows (its key or a wrong one); a proxy does not (undefined). */
  keyAccepted?: boolean;
}

export interface RequestJudgement {
  /** undefined: the path is no operation's. */
  operationId?: string;
  /** Side `request`: what the request breaks ([] = a valid request). */
  violations: Violation[];
  /** What openapi.yaml allows as the answer to this very request. */
  allowedStatuses: readonly number[];
  /** The request judged. */
  request: JudgedRequestInput;
  /** What kind of request: an operation's GET, a CORS preflight, another method on a known path, or a path that is no operation. */
  kind: 'operation' | 'preflight' | 'method' | 'unknown-path';
  /** The documented query parameters as decoded (the first value of each). */
  query: ReadonlyMap<string, string>;
  /** The path parameters, percent-decoded. */
  pathParams: Readonly<Record<string, string>>;
  /** The request asks a mock for a named example or a status (`Prefer`): the data and paging rules do not bind the answer. */
  mockControlled: boolean;
  /** Why these statuses, in words, for messages. */
  why: string;
  /** The parameters the request's violations name (a 400's Message must name one of them). */
  offending: readonly string[];
}

/** The answer as the judge reads it: the suite's http Exchange fits, and so does a proxy's (bytes after any content coding is removed). */
export interface JudgedExchange {
  status: number;
  headers: HeaderBag;
  /** The body's bytes, after Content-Encoding is undone. */
  bytes: Uint8Array;
}
