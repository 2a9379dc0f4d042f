// judgeResponse holds the answer to that request: its status, the full schema
// of its body, every header the response declares (on error statuses too),
// the error table of info.description (Code ↔ status), RFC 8259 for a JSON
// body, the list rules (echo, X-Total-Count, Link, order, every item matching
// every filter), the in-record rules (contract/record-rules.ts), and, given an
// ExchangeMemory, a Detail agreeing with the list rows already seen for that
// client. A status the request does not allow is reported alone (what the
// body then breaks follows from it), and a rule that reads a part of the
// answer which is itself broken (a missing header, a record that fails its
// schema) is not applied to it, so one fault is reported once. Every
// Violation carries a stable rule id, the ids of the spec sentences it
// enforces, whose side it is on and a cause key that groups the failures one
// fault causes.
import { content } from './body';
import { corsRules, judgePreflight } from './cors';
import { detailRules, listedButMissing } from './detail';
import { errorRules } from './error-rules';
import { Judging, pagingValue } from './judging';
import type { JudgedExchange } from './types';
import { linkRules } from './links';
import { listRules } from './lists';
import type { ExchangeMemory } from './memory';
import { judgeRequest } from './request';
import type { JudgedRequestInput, RequestJudgement } from './types';
import type { JudgeOptions, Violation } from './types';
import { ajvReason, describeParameterSchema, show } from './words';
import { pointerSegment } from '../spec';
import type { SpecContract, SpecResponse } from '../spec-contract';
import type { ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;

const ECHOED_REQUEST_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;

/**
 * The answer's violations (side `response`), given the request's judgement:
 * a correct 400 to a bad request is none; a 200 to it is one. With a memory,
 * the answer is also held to (and then remembered beside) what was seen of the
 * same clients before.
 */
export function judgeResponse(
  contract: SpecContract,
  judged: RequestJudgement,
  exchange: JudgedExchange,
  memory?: ExchangeMemory,
  options: JudgeOptions = {},
): Violation[] {
  const j = new Judging(contract, judged, exchange, options.applied);
  const { status } = exchange;

  j.apply('response.status');
  if (!judged.allowedStatuses.includes(status)) {
    const documented = j.operation ? j.operation.statuses.join(', ') : '404';
    const code = (() => {
      try {
        return (JSON.parse(new TextDecoder().decode(exchange.bytes)) as { Code?: unknown }).Code;
      } catch {
        return undefined;
      }
    })();
    j.add(
      'response.status',
      `${judged.allowedStatuses.join('|')} → ${status}`,
      `${judged.allowedStatuses.join(' or ')} for ${judged.why}${j.operation && !j.operation.statuses.includes(String(status)) ? ` (documented: ${documented})` : ''}`,
      `${status}${typeof code === 'string' ? ` ${code}` : ''}`,
      judged.offending,
      statusReasons(judged),
    );
  }

  // A status the request does not allow is the fault; what its body and headers then break follows from it (one fault, one cause).
  if (j.violations.length > 0) return j.violations;

  // RFC 9110 §6.6.1: an origin server with a clock sends Date in every 2xx, 3xx and 4xx answer.
  if (status >= 200 && status < 500) {
    j.apply('response.date');
    const date = j.header('date');
    if (date === undefined || Number.isNaN(Date.parse(date)))
      j.add(
        'response.date',
        'Date',
        'a Date header (RFC 9110 §6.6.1: an origin server sends it in every 2xx, 3xx and 4xx answer)',
        date === undefined ? 'absent' : show(date),
      );
  }

  if (judged.kind === 'preflight') {
    judgePreflight(j);
    return j.violations;
  }

  requestIdRule(j);
  const response = contract.response(j.operation, status);
  const badHeaders = response ? declaredHeaders(j, response) : new Set<string>();
  corsRules(j);
  if (!response) return j.violations;
  // RFC 9110 §9.3.2: the answer to HEAD carries the headers a GET answer would and never content: no body to hold.
  if (judged.request.method.toUpperCase() === 'HEAD') return j.violations;
  const body = content(j, response);
  if (!body.parsed) return j.violations;
  if (status >= 400) errorRules(j, response, body.value);
  if (status === 200 && !judged.mockControlled && j.operation) {
    const isList = 'X-Total-Count' in ((response.node.headers ?? {}) as Json);
    if (isList) listRules(j, body.value, body.invalid, badHeaders, memory);
    else detailRules(j, body.value, body.invalid, memory);
  }
  if (status === 404 && memory && !judged.mockControlled) listedButMissing(j, memory);
  return j.violations;
}

function requestIdRule(j: Judging): void {
  const sent = j.requestHeader('x-request-id');
  const answered = j.header('x-request-id');
  if (answered === undefined) return; // a missing X-Request-Id is the declared header's violation
  j.apply('header.request-id');
  if (sent !== undefined && ECHOED_REQUEST_ID.test(sent)) {
    if (answered !== sent) j.add('header.request-id', 'echo', `the request's X-Request-Id ${show(sent)} echoed unchanged`, show(answered));
  } else if (sent !== undefined && answered === sent) {
    j.add('header.request-id', 'generated', `a generated id instead of ${show(sent)}, which breaks the rule`, `${show(answered)} echoed`);
  } else if (answered === '') j.add('header.request-id', 'generated', 'a generated id', 'an empty X-Request-Id');
}

/** A header a response declares, read once per response of the document (a WeakMap on the response). */
interface DeclaredHeader {
  name: string;
  required: boolean;
  schema: Json | undefined;
  validate: ValidateFunction | undefined;
  numeric: boolean;
}

const declaredOf = new WeakMap<SpecResponse, DeclaredHeader[]>();

/** The headers `response` declares, with their schemas' validators: what depends only on the document, computed once. */
function declaredHeadersOf(contract: SpecContract, response: SpecResponse): DeclaredHeader[] {
  let declared = declaredOf.get(response);
  if (declared === undefined) {
    declared = Object.keys((response.node.headers ?? {}) as Json).map((name) => {
      const header = contract.resolve(`${response.pointer}/headers/${pointerSegment(name)}`);
      const schema = header.node.schema as Json | undefined;
      return {
        name,
        required: header.node.required === true,
        schema,
        validate: schema ? contract.validator(`${header.pointer}/schema`) : undefined,
        numeric: schema?.type === 'integer' || schema?.type === 'number',
      };
    });
    declaredOf.set(response, declared);
  }
  return declared;
}

/** Every header the response declares: present when required, keeping its schema. Returns the names found broken. */
function declaredHeaders(j: Judging, response: SpecResponse): Set<string> {
  const broken = new Set<string>();
  for (const { name, required, schema, validate, numeric } of declaredHeadersOf(j.contract, response)) {
    j.apply('response.header');
    const raw = j.header(name);
    if (raw === undefined) {
      if (required) {
        broken.add(name);
        j.add('response.header', name, `a ${name} header (required)`, 'absent');
      }
      continue;
    }
    if (!schema || !validate) continue;
    const value = numeric ? (/^-?\d+$/.test(raw.trim()) ? Number(raw) : raw) : raw;
    if (!validate(value)) {
      broken.add(name);
      j.add('response.header', name, `${name}: ${describeParameterSchema(schema)}`, `${show(raw)} (${ajvReason(validate.errors?.[0])})`);
    }
  }
  return broken;
}

/** The rules whose sentences say why the request allows the statuses it does: what it broke, or what kind of request it is. */
function statusReasons(judged: RequestJudgement): string[] {
  const broken = [...new Set(judged.violations.map((violation) => violation.rule))];
  if (broken.length > 0) return broken;
  if (judged.kind === 'method') return ['request.method'];
  if (judged.kind === 'unknown-path') return ['request.path'];
  if (judged.kind === 'preflight') return ['cors.preflight'];
  return ['response.status', 'response.schema'];
}

/**
 * The Link rules alone, for a Link header given to a request with a total
 * (used on the document's own Link example): [] when it names the right pages.
 */
export function linkViolations(contract: SpecContract, request: JudgedRequestInput, header: string, total: number): Violation[] {
  const judged = judgeRequest(contract, request);
  const j = new Judging(contract, judged, { status: 200, headers: {}, bytes: new Uint8Array() }, undefined);
  const page = pagingValue(j, 'page');
  const size = pagingValue(j, 'pageSize');
  if (page !== undefined && size !== undefined) linkRules(j, header, total, page, size);
  return j.violations;
}
