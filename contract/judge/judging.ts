// One answer being judged: the request's judgement, the answer, where violations are collected (each with its
// sentences ranked by nearness) and the small readings every response rule shares (a header, a paging value,
// whether a part of the body broke its schema).
import { headerOf } from '../headers';
import type { JudgeRule } from './rules';
import { sentencesFor } from './sentences';
import type { JudgedExchange, RequestJudgement, Violation } from './types';
import type { SpecContract, SpecOperation } from '../spec-contract';

export class Judging {
  readonly violations: Violation[] = [];
  readonly operation: SpecOperation | undefined;
  readonly name: string;

  constructor(
    readonly contract: SpecContract,
    readonly judged: RequestJudgement,
    readonly exchange: JudgedExchange,
    readonly applied: Set<string> | undefined,
  ) {
    this.operation = judged.operationId === undefined ? undefined : contract.operation(judged.operationId);
    this.name = judged.operationId ?? 'routing';
  }

  apply(rule: JudgeRule): void {
    this.applied?.add(rule);
  }

  /**
   * Adds a violation. Its cause is the rule and the place (a header, a schema and its field, a parameter), not the
   * operation or the status: one fault a backend makes everywhere (a header it never sends) is one cause, whatever
   * number of operations and statuses showed it. Its sentences are those of `rules` (default: the rule's own) that
   * stand at this operation or near the place; all of them only when none does.
   */
  add(
    rule: JudgeRule,
    where: string,
    expected: string,
    actual: string,
    near: readonly string[] = [],
    rules: readonly string[] = [rule],
  ): void {
    this.applied?.add(rule);
    const places = [...near, ...where.split(/[/ ,=|>]/).filter((part) => /^[A-Za-z-]{3,}$/.test(part))];
    const rank = (id: string) => {
      const location = id.slice(0, id.indexOf(':'));
      if (places.some((place) => location.includes(place))) return 0;
      return location === this.name || location.startsWith(`${this.name}.`) ? 1 : 2;
    };
    const candidates = [...new Set(rules.flatMap((id) => sentencesFor(id)))].sort((a, b) => rank(a) - rank(b));
    const nearest = candidates.length > 0 ? rank(candidates[0]!) : 2;
    this.violations.push({
      rule,
      sentences: nearest < 2 ? candidates.filter((id) => rank(id) === nearest) : candidates,
      side: 'response',
      operation: this.name,
      expected,
      actual,
      cause: `${rule}${where ? ` ${where}` : ''}`,
    });
  }

  /** The answer's headers as read so far: the rules read the same few several times (Date, Link, X-Total-Count). */
  private readonly read = new Map<string, string | undefined>();

  header(name: string): string | undefined {
    if (this.read.has(name)) return this.read.get(name);
    const value = headerOf(this.exchange.headers, name);
    this.read.set(name, value);
    return value;
  }

  requestHeader(name: string): string | undefined {
    return headerOf(this.judged.request.headers, name);
  }
}

/**
/** True when no schema error lies at or under this instance path. */
export function validAt(invalid: readonly string[], path: string): boolean {
  return !invalid.some((where) => where === path || where.startsWith(`${path}/`));
}

export function parameterDefault(j: Judging, name: string): number | undefined {
  const parameter = j.operation?.parameters.find((p) => p.in === 'query' && p.name === name);
  return typeof parameter?.schema.default === 'number' ? parameter.schema.default : undefined;
}

/** A paging parameter as the request sent it, else its documented default. */
export function pagingValue(j: Judging, name: string): number | undefined {
  if (!j.operation?.parameters.some((p) => p.in === 'query' && p.name === name)) return undefined;
  const sent = j.judged.query.get(name);
  return sent !== undefined ? Number(sent) : parameterDefault(j, name);
}
