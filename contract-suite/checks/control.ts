// The mock's control API (control.openapi.yaml), checked when `--control` asks:
// the scenarios a frontend team switches to test its error and empty states
// (down, unauthorised, slow, flaky, and one per named example of openapi.yaml)
// must do what that document says, or a team's tests of those states test
// nothing. Only a deployment of our mock has these paths; a target without
// them skips every check here with that reason, never fails.
//
// What is asked is derived where the documents say it: the scenario table the
// target serves (GET /__control/scenarios: each row's kind, operations and
// parameters), openapi.yaml's named examples (a scenario made of one answers
// "as `Prefer: example=NAME` would": the suite sends both and compares), and
// the table's kinds as control.openapi.yaml describes them. Each answer is
// also judged against openapi.yaml as the request it stands for: an example
// scenario's as the `Prefer: example` request, an `unauthorised` answer as the
// answer to a key that is not accepted.
//
// Every scenario is chosen per request (`X-Mock-Scenario`, in a session of the
// suite's own when a sequence matters), never for the server: a mock shared
// by a team is not switched under its other users.
import { isDeepStrictEqual } from 'node:util';
import type { ErrorDto } from '../../contract/wire-types';
import type { CheckContext, Define } from '../kit/context';
import type { Exchange } from '../../contract/exchange';
import { ExchangeMemory } from '../../contract/judge';
import { headerList, noAllowOrigin, TIMER_SLACK_MS } from './cross-cutting';
import {
  callAs,
  clientOperations,
  codeOf,
  CONTROL_PREFIX,
  controlDocument,
  diagnostics,
  expectSimulated,
  failing,
  forget,
  HTTP_METHODS,
  inScenario,
  isRow,
  messageOf,
  oneProcess,
  plainRequest,
  rowOfKind,
  sameAnswer,
  SCENARIO_HEADER,
  servedTable,
  SESSION_HEADER,
  sessionName,
  successExamples,
  usualAnswer,
  withHeaders,
  asItself,
} from './control-api';

type Check = (context: CheckContext) => Promise<void>;

/** `slow`'s delays asked for: short, so the check costs a second, and wide enough to show their spread. */
const SLOW = { min: 120, max: 480 } as const;
/** Samples of `slow`: the chance that a correct mock draws every one below the middle of the range is about 2^-16. */
const SLOW_SAMPLES = 16;
/** `flaky`'s rate and seed asked for, and the requests of one sequence. */
const FLAKY = { rate: 0.25, seed: 7, requests: 48 } as const;
/**
 * Failures allowed in FLAKY.requests draws at FLAKY.rate: outside, a correct mock would land with a chance below
 * 10^-5 (a binomial, mean 12); a rate read as 1 - rate (mean 36) or as never or always lands outside.
 */
const FLAKY_BOUNDS = { min: 1, max: 26 } as const;
/** Requests asked at rate=0 and rate=1, where none and all must fail. */
const FLAKY_EDGE_REQUESTS = 6;

/** The served table holds every kind the control document names and one example scenario per named 2xx example, on the operations that have it. */
const scenarioTableHoldsEveryKind: Check = async (context) => {
  const table = await servedTable(context);
  const exchange = await context.send({ method: 'GET', path: `${CONTROL_PREFIX}/scenarios`, key: 'none' });
  const served = (exchange.json as { scenarios?: unknown[] } | undefined)?.scenarios ?? [];
  context.expect(
    served.every(isRow),
    exchange,
    `every row of the scenario table has a name, a kind and its operations (control.openapi.yaml, ScenarioDefinition); ${served.filter((row) => !isRow(row)).length} do not`,
    'control.table',
  );
  // Every kind the document names has its row ('example' rows are derived from openapi.yaml below).
  const document = await controlDocument(context, 'control.table');
  const kinds = document.components?.schemas?.ScenarioKind?.enum;
  context.expect(Array.isArray(kinds), exchange, 'the control document names the scenario kinds (ScenarioKind)', 'control.table');
  for (const kind of (kinds as string[]).filter((name) => name !== 'example'))
    context.expect(
      table.scenarios.some((row) => row.kind === kind),
      exchange,
      `the scenario table has no ${kind} scenario (control.openapi.yaml, Scenarios)`,
      'control.table',
    );
  // An example named as a built-in scenario is that built-in, and a name no header could carry is no scenario
  // (control.openapi.yaml, Scenarios; ScenarioName's pattern as the target's own document states it).
  const builtIn = new Set(table.scenarios.filter((row) => row.kind !== 'example').map((row) => row.name));
  const pattern = document.components?.schemas?.ScenarioName?.pattern;
  const carried = typeof pattern === 'string' ? new RegExp(pattern, 'u') : /^[A-Za-z][A-Za-z0-9_-]{0,63}$/u;
  const wanted = new Map<string, Set<string>>();
  for (const operation of clientOperations(context))
    for (const name of successExamples(context, operation).keys()) {
      if (builtIn.has(name) || !carried.test(name)) continue;
      if (!wanted.has(name)) wanted.set(name, new Set());
      wanted.get(name)!.add(operation.operationId);
    }
  for (const [name, operations] of wanted) {
    const row = table.scenarios.find((scenario) => scenario.name === name);
    context.expect(
      row?.kind === 'example',
      exchange,
      `openapi.yaml has a 2xx example named ${name}, but the table has no example scenario of that name`,
      'control.table',
    );
    context.expect(
      isDeepStrictEqual(new Set(row?.operations), operations),
      exchange,
      `scenario ${name} names the operations ${row?.operations.join(', ') ?? '(none)'}; openapi.yaml's examples of that name are on ${[...operations].join(', ')}`,
      'control.table',
    );
  }
};

/** Each example scenario answers as `Prefer: example=NAME` does on the operations with that example, as usual on the others; Prefer still steers. */
const exampleScenariosAnswerAsPrefer: Check = async (context) => {
  const table = await servedTable(context);
  const examples = table.scenarios.filter((row) => row.kind === 'example');
  if (examples.length === 0) context.skip('the scenario table has no example scenario (openapi.yaml names no 2xx example)');
  const memory = new ExchangeMemory();
  for (const row of examples)
    for (const operation of clientOperations(context)) {
      const plain = await plainRequest(context, operation);
      const answer = await (successExamples(context, operation).has(row.name)
        ? callAs(context, inScenario(plain, row.name), withHeaders(plain, { Prefer: `example=${row.name}` }), memory)
        : callAs(context, inScenario(plain, row.name), asItself(plain), memory));
      if (!successExamples(context, operation).has(row.name)) continue;
      const preferred = await callAs(
        context,
        inScenario(withHeaders(plain, { Prefer: `example=${row.name}` }), 'normal'),
        withHeaders(plain, { Prefer: `example=${row.name}` }),
        memory,
      );
      context.expect(
        sameAnswer(answer, preferred),
        answer,
        `in scenario ${row.name}, ${operation.operationId} should answer as Prefer: example=${row.name} does (${preferred.status}, the same body and paging headers); got ${answer.status}`,
        'control.example',
      );
      // Prefer on the request still steers it (control.openapi.yaml: it is more specific than a scenario).
      const steered = withHeaders(plain, { Prefer: 'code=500' });
      const failed = await callAs(context, inScenario(steered, row.name), steered, memory);
      context.expect(
        failed.status === 500 && codeOf(failed) === 'INTERNAL_ERROR',
        failed,
        `in scenario ${row.name}, Prefer: code=500 should still steer the answer (500 INTERNAL_ERROR); got ${failed.status} ${String(codeOf(failed))}`,
        'control.prefer',
      );
    }
};

/** `down`: every Client operation 500 INTERNAL_ERROR (saying so), the same request outside it as before, Prefer still steering, the diagnostics unchanged. */
const downFailsEveryClientOperation: Check = async (context) => {
  const row = await rowOfKind(context, 'down');
  const memory = new ExchangeMemory();
  for (const operation of clientOperations(context)) {
    const plain = await plainRequest(context, operation);
    const usual = await usualAnswer(context, plain, memory);
    const down = await callAs(context, inScenario(plain, row.name), failing(plain), memory);
    context.expect(
      down.status === 500 && codeOf(down) === 'INTERNAL_ERROR',
      down,
      `in scenario ${row.name}, ${operation.operationId} should answer 500 INTERNAL_ERROR; got ${down.status} ${String(codeOf(down))}`,
      'control.down',
    );
    expectSimulated(context, down, `scenario ${row.name}`);
    // One scenario's answer is never another's: the same request, outside it, is answered as before.
    const after = await usualAnswer(context, plain, memory);
    context.expect(
      after.status === usual.status,
      after,
      `after scenario ${row.name}, the same request outside it answered ${after.status}; before, ${usual.status}`,
      'control.down',
    );
    const example = [...successExamples(context, operation).keys()][0];
    if (example !== undefined) {
      const steered = withHeaders(plain, { Prefer: `example=${example}` });
      const answer = await callAs(context, inScenario(steered, row.name), steered, memory);
      context.expect(
        answer.status >= 200 && answer.status < 300,
        answer,
        `in scenario ${row.name}, Prefer: example=${example} should still steer the answer (its example); got ${answer.status}`,
        'control.prefer',
      );
    }
    const asUsual = withHeaders(plain, { Prefer: 'code=200' });
    const answer = await callAs(context, inScenario(asUsual, row.name), asUsual, memory);
    context.expect(
      answer.status === usual.status,
      answer,
      `in scenario ${row.name}, Prefer: code=200 should steer the answer back to the usual one (${usual.status}); got ${answer.status}`,
      'control.prefer',
    );
  }
  for (const operation of diagnostics(context)) {
    const plain = await plainRequest(context, operation);
    const usual = await callAs(context, inScenario(plain, 'normal'), plain, memory);
    const answer = await callAs(context, inScenario(plain, row.name), plain, memory);
    context.expect(
      answer.status === usual.status,
      answer,
      `the diagnostics are never changed by a scenario: ${operation.operationId} answered ${answer.status} in ${row.name}, ${usual.status} outside it`,
      'control.diagnostics',
    );
  }
};

/** `unauthorised`: the accepted key refused as an unknown one (saying so), no key as a missing one, before Prefer; the diagnostics unchanged. */
const unauthorisedRejectsTheKey: Check = async (context) => {
  const row = await rowOfKind(context, 'unauthorised');
  const memory = new ExchangeMemory();
  for (const operation of clientOperations(context)) {
    const plain = await plainRequest(context, operation);
    const unknown = await callAs(context, inScenario({ ...plain, key: 'wrong' }, 'normal'), { ...plain, key: 'wrong' }, memory);
    const missing = await callAs(context, inScenario({ ...plain, key: 'none' }, 'normal'), { ...plain, key: 'none' }, memory);
    // The accepted key is rejected as a key that is not accepted would be: judged as that request.
    const rejected = await callAs(context, inScenario(plain, row.name), { ...plain, key: 'wrong' }, memory);
    context.expect(
      rejected.status === 401 && codeOf(rejected) === 'UNAUTHORIZED',
      rejected,
      `in scenario ${row.name}, ${operation.operationId} with the accepted key should answer 401 UNAUTHORIZED; got ${rejected.status} ${String(codeOf(rejected))}`,
      'control.unauthorised',
    );
    expectSimulated(context, rejected, `scenario ${row.name}`);
    context.expect(
      messageOf(missing) === messageOf(unknown) || messageOf(rejected) !== messageOf(missing),
      rejected,
      `in scenario ${row.name}, a request that sent a key was told the key is missing (${JSON.stringify(messageOf(rejected))}, the Message of a request without one)`,
      'control.unauthorised',
    );
    const noKey = await callAs(context, inScenario({ ...plain, key: 'none' }, row.name), { ...plain, key: 'none' }, memory);
    context.expect(
      noKey.status === 401 && messageOf(noKey) === messageOf(missing),
      noKey,
      `in scenario ${row.name}, a request without a key should get the missing key's 401 (${JSON.stringify(messageOf(missing))}); got ${noKey.status} ${JSON.stringify(messageOf(noKey))}`,
      'control.unauthorised',
    );
    const example = [...successExamples(context, operation).keys()][0] ?? 'none';
    for (const prefer of [`example=${example}`, 'code=200']) {
      const steered = withHeaders(plain, { Prefer: prefer });
      const answer = await callAs(context, inScenario(steered, row.name), { ...steered, key: 'wrong' }, memory);
      context.expect(
        answer.status === 401,
        answer,
        `in scenario ${row.name} the key is rejected before Prefer steers (control.openapi.yaml); Prefer: ${prefer} got ${answer.status}`,
        'control.unauthorised',
      );
    }
  }
  for (const operation of diagnostics(context)) {
    const plain = await plainRequest(context, operation);
    const answer = await callAs(context, inScenario(plain, row.name), plain, memory);
    context.expect(
      answer.status !== 401,
      answer,
      `the diagnostics are never changed by a scenario: ${operation.operationId} answered 401 in ${row.name}`,
      'control.diagnostics',
    );
  }
};

/** `slow`: every Client answer at least min ms late, the delays spread up to max (sent together: the check costs about one delay). */
const slowDelaysEveryAnswer: Check = async (context) => {
  const row = await rowOfKind(context, 'slow');
  const scenario = `${row.name};min=${SLOW.min};max=${SLOW.max}`;
  const memory = new ExchangeMemory();
  const operations = clientOperations(context);
  const requests = await Promise.all(
    Array.from({ length: SLOW_SAMPLES }, (_, i) => plainRequest(context, operations[i % operations.length]!)),
  );
  // Together: the check costs about one delay, and a slower machine only lengthens what is measured.
  const answers = await Promise.all(requests.map((request) => callAs(context, inScenario(request, scenario), request, memory)));
  for (const answer of answers)
    context.expect(
      answer.ms >= SLOW.min - TIMER_SLACK_MS,
      answer,
      `in scenario ${scenario} every Client answer comes at least ${SLOW.min} ms late; this one took ${answer.ms.toFixed(0)} ms`,
      'control.slow',
    );
  const middle = (SLOW.min + SLOW.max) / 2;
  context.expect(
    answers.some((answer) => answer.ms > middle),
    answers[0]!,
    `in scenario ${scenario} the delays are drawn from ${SLOW.min} to ${SLOW.max} ms; all ${SLOW_SAMPLES} took at most ${middle} ms (${answers.map((a) => a.ms.toFixed(0)).join(', ')})`,
    'control.slow',
  );
};

/** `flaky`: failures at its rate, the same in a fresh session, others with another seed, none at rate 0, all at rate 1 but where Prefer steers. */
const flakyFailsAtItsRate: Check = async (context) => {
  const row = await rowOfKind(context, 'flaky');
  const memory = new ExchangeMemory();
  const operations = clientOperations(context);
  const requests = await Promise.all(
    Array.from({ length: FLAKY.requests }, (_, i) => plainRequest(context, operations[i % operations.length]!)),
  );
  let last: Exchange | undefined;
  const failedIn = async (scenario: string, session: string, count = requests.length): Promise<boolean[]> => {
    const failed: boolean[] = [];
    try {
      // One after the other: the sequence is the order the requests arrive in.
      for (const request of requests.slice(0, count)) {
        const answer = await callAs(
          context,
          inScenario(request, scenario, session),
          (exchange) => (exchange.status === 500 ? failing(request) : request),
          memory,
        );
        last = answer;
        const failure = answer.status === 500;
        if (failure)
          context.expect(
            codeOf(answer) === 'INTERNAL_ERROR',
            answer,
            `in scenario ${scenario} a failure is 500 INTERNAL_ERROR; got Code ${String(codeOf(answer))}`,
            'control.flaky',
          );
        if (failure) expectSimulated(context, answer, `scenario ${row.name}`);
        failed.push(failure);
      }
      await oneProcess(context, session, scenario);
    } finally {
      await forget(context, session);
    }
    return failed;
  };
  const scenario = `${row.name};rate=${FLAKY.rate};seed=${FLAKY.seed}`;
  const first = await failedIn(scenario, sessionName('flaky-a'));
  const failures = first.filter(Boolean).length;
  context.expect(
    failures >= FLAKY_BOUNDS.min && failures <= FLAKY_BOUNDS.max,
    last!,
    `in scenario ${scenario}, ${failures} of ${first.length} Client requests failed: a rate of ${FLAKY.rate} fails ${FLAKY_BOUNDS.min} to ${FLAKY_BOUNDS.max} of them but for a chance below 10^-5`,
    'control.flaky',
  );
  const again = await failedIn(scenario, sessionName('flaky-b'));
  context.expect(
    isDeepStrictEqual(first, again),
    last!,
    `in scenario ${scenario} the same requests in the same order should fail the same way (control.openapi.yaml: "so a failing run can be replayed"); ` +
      `first ${first.map((f) => (f ? 'x' : '.')).join('')}, then ${again.map((f) => (f ? 'x' : '.')).join('')}`,
    'control.flaky',
  );
  // "seeded by `seed`": another seed draws another sequence (the same pattern would be a chance of about 10^-10).
  const otherSeed = await failedIn(`${row.name};rate=${FLAKY.rate};seed=${FLAKY.seed + 1}`, sessionName('flaky-c'));
  context.expect(
    !isDeepStrictEqual(first, otherSeed),
    last!,
    `in scenario ${row.name} the failures are drawn from a sequence seeded by seed; seeds ${FLAKY.seed} and ${FLAKY.seed + 1} failed the same requests (${first.map((f) => (f ? 'x' : '.')).join('')})`,
    'control.flaky',
  );
  // Prefer on the request still steers it: where every request fails, code=200 is answered as usual.
  const steered = withHeaders(requests[0]!, { Prefer: 'code=200' });
  const spared = await callAs(context, inScenario(steered, `${row.name};rate=1;seed=${FLAKY.seed}`), steered, memory);
  context.expect(
    spared.status !== 500,
    spared,
    `in scenario ${row.name};rate=1, Prefer: code=200 should still steer the answer to the usual one; got ${spared.status} ${String(codeOf(spared))}`,
    'control.prefer',
  );
  for (const rate of [0, 1]) {
    const edge = await failedIn(`${row.name};rate=${rate};seed=${FLAKY.seed}`, sessionName(`flaky-${rate}`), FLAKY_EDGE_REQUESTS);
    context.expect(
      edge.every((failed) => failed === (rate === 1)),
      last!,
      `in scenario ${row.name};rate=${rate} ${rate === 1 ? 'every' : 'no'} Client request fails; the answers were ${edge.map((f) => (f ? 'x' : '.')).join('')}`,
      'control.flaky',
    );
  }
};

/** A CORS preflight for each method of each path of the served control document is allowed. */
const controlPathsAllowPreflights: Check = async (context) => {
  await servedTable(context);
  const { paths } = await controlDocument(context, 'control.cors');
  for (const [template, item] of Object.entries(paths!)) {
    // A path parameter gets a session name of this run's own: the preflight changes nothing.
    const path = template.replace(/\{\w+\}/g, sessionName('cors'));
    for (const method of Object.keys(item).filter((key) => HTTP_METHODS.has(key))) {
      const preflight = await context.send({
        method: 'OPTIONS',
        path,
        key: 'none',
        headers: { Origin: context.origin, 'Access-Control-Request-Method': method.toUpperCase() },
      });
      if (preflight.headers.get('Access-Control-Allow-Origin') === null) noAllowOrigin(context, preflight);
      const allowed = headerList(preflight, 'Access-Control-Allow-Methods');
      context.expect(
        preflight.status >= 200 && preflight.status < 300 && (allowed.includes('*') || allowed.includes(method.toLowerCase())),
        preflight,
        `a preflight for ${method.toUpperCase()} ${template} should be allowed (a page may call the control paths); got ${preflight.status}, Access-Control-Allow-Methods ${JSON.stringify(preflight.headers.get('Access-Control-Allow-Methods'))}`,
        'control.cors',
      );
    }
  }
};

/** A bad session or scenario header is 400 naming it; a preflight asking for both headers allows them. */
const badControlHeadersAreRefused: Check = async (context) => {
  await servedTable(context);
  const plain = await plainRequest(context, clientOperations(context)[0]!);
  const bad: [string, Record<string, string>][] = [
    [SESSION_HEADER, { [SESSION_HEADER]: 'x'.repeat(129) }],
    [SESSION_HEADER, { [SESSION_HEADER]: 'a session' }],
    [SCENARIO_HEADER, { [SCENARIO_HEADER]: 'no-such-scenario' }],
    [SCENARIO_HEADER, { [SCENARIO_HEADER]: 'slow;min=soon' }],
  ];
  for (const [header, headers] of bad) {
    const answer = await context.send(withHeaders(plain, headers));
    const body = answer.json as Partial<ErrorDto> | undefined;
    context.expect(
      answer.status === 400 && body?.Code === 'VALIDATION_ERROR' && String(body.Message).includes(header),
      answer,
      `a bad ${header} (${JSON.stringify(Object.values(headers)[0]!.slice(0, 40))}) should be 400 VALIDATION_ERROR naming ${header}; got ${answer.status} ${String(body?.Code)} ${JSON.stringify(body?.Message)}`,
      'control.headers',
    );
  }
  const preflight = await context.send({
    method: 'OPTIONS',
    path: plain.path,
    key: 'none',
    headers: {
      Origin: context.origin,
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': `${SESSION_HEADER.toLowerCase()}, ${SCENARIO_HEADER.toLowerCase()}`,
    },
  });
  if (preflight.headers.get('Access-Control-Allow-Origin') === null) noAllowOrigin(context, preflight);
  const allowed = headerList(preflight, 'Access-Control-Allow-Headers');
  context.expect(
    [SESSION_HEADER, SCENARIO_HEADER].every((name) => allowed.includes('*') || allowed.includes(name.toLowerCase())),
    preflight,
    `a page's requests may carry ${SESSION_HEADER} and ${SCENARIO_HEADER} (control.openapi.yaml: "Both headers are allowed by CORS"); Access-Control-Allow-Headers is ${JSON.stringify(preflight.headers.get('Access-Control-Allow-Headers'))}`,
    'control.headers',
  );
};

export function controlChecks(check: Define): void {
  check(
    'control',
    `GET ${CONTROL_PREFIX}/scenarios (control.openapi.yaml) → normal, down, slow, flaky and unauthorised, and one scenario for every named example of a Client operation's 2xx answer, naming the operations that have it`,
    scenarioTableHoldsEveryKind,
    ['control.table'],
  );
  check(
    'control',
    `${SCENARIO_HEADER}: each example scenario → every Client operation with that example answers as Prefer: example=NAME does, the others as usual; Prefer still steers`,
    exampleScenariosAnswerAsPrefer,
    ['control.example', 'control.prefer'],
  );
  check(
    'control',
    `${SCENARIO_HEADER}: down → every Client operation 500 INTERNAL_ERROR, the diagnostics unchanged, Prefer still steers, and the same request outside the scenario as usual`,
    downFailsEveryClientOperation,
    ['control.down', 'control.prefer', 'control.diagnostics', 'control.simulated'],
  );
  check(
    'control',
    `${SCENARIO_HEADER}: unauthorised → every Client operation 401 UNAUTHORIZED for the accepted key (an unknown key's answer), without a key the missing key's; Prefer does not lift it; the diagnostics unchanged`,
    unauthorisedRejectsTheKey,
    ['control.unauthorised', 'control.diagnostics', 'control.simulated'],
  );
  check(
    'control',
    `${SCENARIO_HEADER}: slow;min=${SLOW.min};max=${SLOW.max} → every Client answer at least min ms late, the delays spread up to max`,
    slowDelaysEveryAnswer,
    ['control.slow'],
  );
  check(
    'control',
    `${SCENARIO_HEADER}: flaky;rate=${FLAKY.rate};seed=${FLAKY.seed} → Client requests fail with 500 INTERNAL_ERROR at that rate, the same ones again in a fresh session, others with another seed; rate=0 none, rate=1 all (but where Prefer steers)`,
    flakyFailsAtItsRate,
    ['control.flaky', 'control.prefer', 'control.simulated'],
  );
  check(
    'control',
    `OPTIONS every path of the served control document as a CORS preflight for each of its methods → allowed (control.openapi.yaml: "A preflight for a control path allows" them)`,
    controlPathsAllowPreflights,
    ['control.cors'],
  );
  check(
    'control',
    `a bad ${SESSION_HEADER} or ${SCENARIO_HEADER} → 400 VALIDATION_ERROR naming the header; a CORS preflight asking for both allows them`,
    badControlHeadersAreRefused,
    ['control.headers'],
  );
}
