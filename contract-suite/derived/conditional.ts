// Conditional requests (RFC 9110 §13) on every operation: each precondition header with the validators the
// target itself sends (its ETag, its Last-Modified; without them `*`, and its answer's Date), and a Range with
// If-Range. A framework's freshness check answers some of them 304 with no body, a range-aware one 206, an
// If-Match-aware one 412: none of them is an answer the document gives ("every non-2xx response is an ErrorDto",
// and no operation documents 206), so the judge refuses them. Where the document states that preconditions change
// nothing (info.description, "Conditional requests"), the answer is also held to the plain request's: status,
// body (JSON as values) and the fields the document names or HTTP gives a meaning, but X-Request-Id (kit/answers.ts).
import type { Define } from '../kit/context';
import type { SpecContract } from '../../contract/spec-contract';
import { answerDifferences, comparedFields } from '../kit/answers';
import { preconditionForms } from '../kit/preconditions';
import type { Exchange } from '../../contract/exchange';
import { checkOperation, conditionalRule } from './document';
import { expectConforming, listedRequest } from './expect';

/** An Origin no earlier request carried, of this run or another: the request is new to any cache keyed on its Origin. */
const freshOrigin = (run: string, operation: number, form: number) =>
  `https://conditional-${run}-${operation}-${form}.contract-suite.example`;

export function conditionalChecks(check: Define, contract: SpecContract): void {
  const rule = conditionalRule(contract);
  const expected = rule
    ? `the answer the same request gets without them ("${rule.sentence.slice(0, 60)}…")`
    : 'an answer the document gives (never a bodiless 304, a 206 or a 412: every non-2xx response is an ErrorDto)';
  for (const [n, operation] of contract.operations.entries()) {
    check(
      checkOperation(operation),
      `GET ${operation.template} with If-None-Match, If-Match, If-Modified-Since, If-Unmodified-Since and Range with If-Range (its own validators, or * and its Date), each before and after the plain request → ${expected}`,
      async (context) => {
        // On the raw socket, as curl or an HTTP library sends them: fetch adds Cache-Control: no-cache to a request
        // with a precondition (the Fetch standard), which turns off the very freshness checks asked about here.
        const request = { ...(await listedRequest(context, operation)), raw: true };
        const plain = await context.call(request);
        const same = (first: Exchange, then: Exchange, why: string) => {
          const differences = rule ? answerDifferences(first, then, comparedFields(context.contract)) : [];
          context.expect(
            differences.length === 0,
            then,
            `${why} (${rule?.sentence ?? ''}): ${differences.join('; ')}`,
            'check.conditional',
          );
        };

        for (const [k, form] of preconditionForms(plain).entries()) {
          // First on a request no earlier one matched (a new Origin), so no cache answers it, then without the
          // precondition, then after the plain request: all three sent before any is judged, so the run's journal
          // holds each (the history room asks them again).
          const origin = { ...request.headers, Origin: freshOrigin(context.runId, n, k) };
          const first = await context.send({ ...request, headers: { ...origin, ...form.headers } });
          const then = await context.send({ ...request, headers: origin });
          const after = await context.send({ ...request, headers: { ...request.headers, ...form.headers } });

          for (const exchange of [first, then, after]) expectConforming(context, exchange);
          same(then, first, `${form.why}, sent first, got another answer than the request without it`);
          same(plain, after, `${form.why}, sent after the plain request, changed its answer`);
        }
      },
      ['check.conditional', 'check.preconditions'],
    );
  }
}
