// The scenario table (server/control/scenarios.ts): derived from the served
// spec's named examples plus the built-in states, and the one syntax that names
// a scenario in a header, a cookie, --scenario and a control body.
import { bundledSpec, type OpenApiDocument } from '../../contract/spec';
import { inBody, ScenarioError, ScenarioTable } from '../../server/control/scenarios';

const table = () => new ScenarioTable(bundledSpec().document, 1);

describe('the scenario table', () => {
  test('the bundled openapi.yaml → normal, every named 2xx example of a Client operation, then down, slow, flaky, unauthorised', () => {
    const rows = table().definitions;

    expect(rows.map((row) => row.name)).toEqual([
      'normal',
      'typical',
      'empty',
      'single',
      'longest',
      'nullSections',
      'down',
      'slow',
      'flaky',
      'unauthorised',
    ]);
    expect(rows.find((row) => row.name === 'empty')!.operations).toEqual(['getClientsSimple', 'getClientsExtended']);
    expect(rows.find((row) => row.name === 'nullSections')!.operations).toEqual(['getClientDetail']);
    expect(rows.find((row) => row.name === 'down')!.operations).toEqual(['getClientsSimple', 'getClientsExtended', 'getClientDetail']);
  });

  test('a named example added to the served spec → a new scenario, with no code', () => {
    const document = structuredClone(bundledSpec().document) as OpenApiDocument;
    const ok = (
      document.paths['/api/v1/Client/Simple']!.get as {
        responses: Record<string, { content: Record<string, { examples: Record<string, unknown> }> }>;
      }
    ).responses['200']!.content['application/json']!.examples;
    ok.twoPages = { summary: 'added by a test', value: { Page: 1, PageSize: 25, Results: [] } };

    const rows = new ScenarioTable(document, 1).definitions;

    expect(rows.find((row) => row.name === 'twoPages')).toMatchObject({ kind: 'example', operations: ['getClientsSimple'] });
  });

  test('an error example (missingKey, 401) → no scenario: only success examples are states of the data', () => {
    expect(table().has('missingKey')).toBe(false);
    expect(table().has('clientNotFound')).toBe(false);
  });
});

describe('choosing a scenario', () => {
  test.each([
    [{ scenario: 'slow' }, { min: 500, max: 1500, header: 'slow;min=500;max=1500' }],
    [
      { scenario: 'slow', min: 2000 },
      { min: 2000, max: 2000, header: 'slow;min=2000;max=2000' },
    ],
    [
      { scenario: 'slow', max: 100 },
      { min: 100, max: 100, header: 'slow;min=100;max=100' },
    ],
    [{ scenario: 'flaky' }, { rate: 0.5, seed: 1, header: 'flaky;rate=0.5;seed=1' }],
    [
      { scenario: 'flaky', rate: 1, seed: 9 },
      { rate: 1, seed: 9, header: 'flaky;rate=1.0;seed=9' },
    ],
    [{ scenario: 'empty' }, { header: 'empty' }],
  ])('%j → %j', (request, wire) => {
    expect(table().choose(request, inBody).wire).toMatchObject({ scenario: request.scenario, ...wire });
  });

  test.each([
    [
      { scenario: 'dwon' },
      "body field 'scenario' is 'dwon', which is no scenario; known: normal, typical, empty, single, longest, nullSections, down, slow, flaky, unauthorised",
    ],
    [{ scenario: 'down', rate: 0.5 }, "body field 'rate' is not a parameter of 'down' (it takes none)"],
    [{ scenario: 'slow', rate: 0.5 }, "body field 'rate' is not a parameter of 'slow' (it takes min, max)"],
    [{ scenario: 'slow', min: 800, max: 200 }, "body field 'max' is 200, below min 800"],
    [{ scenario: 'flaky', rate: 0.3333 }, "body field 'rate' must be a number from 0 to 1 in steps of 0.001, such as 0.25"],
    [{ scenario: 'slow', min: 70000 }, "body field 'min' must be a whole number from 0 to 60000"],
  ])('%j → one line naming the field: %s', (request, message) => {
    expect(() => table().choose(request, inBody)).toThrow(new ScenarioError(message));
  });

  test('what a scenario asks of the pipeline: an example, a failure, a key rejection, or seeded faults', () => {
    const t = table();

    expect(t.choose({ scenario: 'single' }, inBody)).toMatchObject({ kind: 'example', example: 'single' });
    expect(t.choose({ scenario: 'down' }, inBody)).toMatchObject({ fail: true });
    expect(t.choose({ scenario: 'unauthorised' }, inBody)).toMatchObject({ rejectKeys: true });
    expect(t.choose({ scenario: 'flaky', rate: 0.25, seed: 3 }, inBody).faults).toEqual({
      latencyMs: { min: 0, max: 0 },
      errorRate: 0.25,
      seed: 3,
    });
    expect(t.choose({ scenario: 'slow', min: 10, max: 20 }, inBody).faults).toEqual({
      latencyMs: { min: 10, max: 20 },
      errorRate: 0,
      seed: 1,
    });
  });
});

describe('the X-Mock-Scenario syntax (an RFC 9651 Item)', () => {
  test.each(['down', 'slow;min=200;max=800', 'flaky;rate=0.33;seed=7', 'flaky; rate=0.5', 'nullSections'])(
    '%s → parses, and its header value parses back to the same choice',
    (text) => {
      const choice = table().parse(text, "header 'X-Mock-Scenario'");

      expect(table().parse(choice.wire.header, "header 'X-Mock-Scenario'").wire).toEqual(choice.wire);
    },
  );

  test.each([
    ['', "header 'X-Mock-Scenario' must be a scenario name"],
    ['slow;min', "header 'X-Mock-Scenario' has a parameter that is not name=number: 'min'"],
    ['slow;min=abc', "header 'X-Mock-Scenario' has a parameter that is not name=number: 'min=abc'"],
    ['slow;speed=3', "header 'X-Mock-Scenario' parameter 'speed' is not one a scenario takes (min, max, rate, seed)"],
    ['slow;min=1;min=2', "header 'X-Mock-Scenario' parameter 'min' is given twice"],
    ['down;rate=0.5', "header 'X-Mock-Scenario' parameter 'rate' is not a parameter of 'down' (it takes none)"],
    ['nosuch', "header 'X-Mock-Scenario' is 'nosuch', which is no scenario"],
  ])('%j → one line: %s', (text, start) => {
    expect(() => table().parse(text, "header 'X-Mock-Scenario'")).toThrow(ScenarioError);
    expect(() => table().parse(text, "header 'X-Mock-Scenario'")).toThrow(start);
  });
});
