// The derived checks (contract-suite/derived/) come from the document, not from
// a list: another version of openapi.yaml gets other checks. These tests feed
// the generators edited copies of the bundled document and hold what they
// derive to the document's own schemas and to RFC 3986; the raw transport
// they rely on is tested on bytes. (That the derived checks
// pass a correct backend and fail faulty ones: second-implementation.test.ts
// and mutation.test.ts.)
import { CheckContext, contractChecks, runCheck, type ContractCheck } from '../../contract-suite/registry';
import { DERIVED_KINDS } from '../../contract-suite/derived';
import { FRAMING_FAULTS, STRICT_FRAMING_FAULTS } from '../../contract-suite/derived/framing';
import { preflightRule, notFoundAnswer, schemaAccepts } from '../../contract-suite/derived/document';
import { parameterCases } from '../../contract-suite/derived/parameters';
import { nearMissPaths } from '../../contract-suite/derived/paths';
import { elsewhere } from '../../contract-suite/derived/security';
import { parseRawAnswer } from '../../contract-suite/kit/raw-http';
import { SpecContract } from '../../contract/spec-contract';
import { loadSpec, type OpenApiDocument } from '../../contract/spec';
import { IMPL_API_KEY, startImpl } from '../reach/impl';
import { API_KEY, startTestServer } from '../support/servers';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edits of a parsed YAML document

/** A copy of the bundled document, edited. */
function edited(edit: (spec: Json) => void): SpecContract {
  const spec = structuredClone(loadSpec()) as unknown as Json;
  edit(spec);
  return new SpecContract(spec as OpenApiDocument);
}

const names = (contract: SpecContract) => contractChecks(contract).map((check) => check.name);

/** RFC 3986 §6.2.2.2 and §5.2.4: unreserved characters decoded, dot segments removed. */
function normalised(path: string): string {
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (match, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(character) ? character : match;
  });
  const output: string[] = [];
  for (const segment of decoded.split('/').slice(1)) {
    if (segment === '..') output.pop();
    else if (segment !== '.') output.push(segment);
  }
  return `/${output.join('/')}`;
}

describe('derived checks: read from the document', () => {
  const contract = new SpecContract();

  test('the error table and the CORS preflight sentence of info.description → rows and a rule', () => {
    const rows = contract.errorTable();

    expect(rows).toContainEqual(expect.objectContaining({ status: 404, code: 'NOT_FOUND' }));
    expect(rows).toContainEqual(expect.objectContaining({ status: 405, code: 'METHOD_NOT_ALLOWED' }));
    expect(notFoundAnswer(contract)).toEqual(expect.objectContaining({ status: 404, codes: ['NOT_FOUND'] }));
    expect(preflightRule(contract)).toEqual(
      expect.objectContaining({
        method: 'OPTIONS',
        requestHeaders: { Origin: '', 'Access-Control-Request-Method': 'GET' },
        statusClass: 2,
        answerHeaders: [
          { name: 'Access-Control-Allow-Origin', includes: undefined },
          { name: 'Access-Control-Allow-Methods', includes: 'GET' },
          { name: 'Access-Control-Allow-Headers', includes: 'X-Api-Key' },
        ],
      }),
    );
  });

  test('every path × every RFC 9110 method, PATCH and PURGE → a 405 check for each method the path item lacks', () => {
    const titles = names(contract);

    for (const operation of contract.operations)
      for (const method of ['HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'PURGE'])
        expect(titles.some((title) => title.startsWith(`${method} ${operation.template.replace(/\{\w+\}/, '')}`))).toBe(true);
  });
});

describe('derived checks: named, counted, tied to rules', () => {
  test('every derived check names the rules it enforces (the sentence table maps sentences to them), each name once', () => {
    const contract = new SpecContract();
    const byKind = Object.entries(DERIVED_KINDS).map(([kind, generate]) => {
      const checks: ContractCheck[] = [];
      generate((operation, name, run, rules) => checks.push({ operation, name, run, rules }), contract);
      return [kind, checks] as const;
    });

    const all = byKind.flatMap(([, checks]) => checks);

    expect(all.filter((check) => (check.rules ?? []).length === 0).map((check) => check.name)).toEqual([]);
    expect(new Set(all.map((check) => check.name)).size).toBe(all.length);
    for (const [kind, checks] of byKind) expect([kind, checks.length > 0]).toEqual([kind, true]);
    console.log(
      `derived from openapi.yaml: ${byKind.map(([kind, checks]) => `${kind} ${checks.length}`).join(', ')} (${all.length} checks)`,
    );
  });
});

describe('derived checks: another document, other checks', () => {
  test('pageSize maximum 50 instead of 100 → 50 accepted, 51 rejected', () => {
    const contract = edited((spec) => (spec.components.parameters.PageSize.schema.maximum = 50));
    const pageSize = contract.operation('getClientsSimple').parameters.find((p) => p.name === 'pageSize')!;

    const maximum = parameterCases(contract, pageSize).find((c) => c.keyword.startsWith('maximum'))!;

    expect(maximum.accepted.map((v) => v.text)).toEqual(['50']);
    expect(maximum.rejected.map((v) => v.text)).toEqual(['51']);
  });

  test('a new path → near misses and a method matrix for it too', () => {
    const contract = edited((spec) => {
      spec.paths['/api/v1/Client/Notes/{idNote}'] = structuredClone(spec.paths['/api/v1/Client/Detail/{idClient}']);
      const get = spec.paths['/api/v1/Client/Notes/{idNote}'].get;
      get.operationId = 'getClientNotes';
      get.parameters[0].name = 'idNote';
    });

    const titles = names(contract);

    expect(titles).toContain(
      'GET /api/v1/Client/notes/813af4e5-d7c6-4b23-99cd-b630757ec93a (segment "Notes" as "notes" (case-insensitive matching)) → 404 NOT_FOUND, never a redirect or getClientNotes\'s answer',
    );
    expect(titles).toContain('PATCH /api/v1/Client/Notes/813af4e5-d7c6-4b23-99cd-b630757ec93a → 405 METHOD_NOT_ALLOWED with Allow: GET');
    expect(titles.some((title) => title.startsWith('GET /api/v1/Client/Notes/{idNote} path parameter idNote, format uuid'))).toBe(true);
  });

  test('no CORS section → no preflight check; an enum parameter → each value accepted, another case rejected', () => {
    const contract = edited((spec) => {
      spec.info.description = spec.info.description.replace(/## CORS[\s\S]*?(?=## Errors)/, '');
      spec.paths['/api/v1/Client/Simple'].get.parameters.push({
        name: 'sort',
        in: 'query',
        schema: { type: 'string', enum: ['name', 'id'] },
      });
    });
    const sort = contract.operation('getClientsSimple').parameters.find((p) => p.name === 'sort')!;

    const titles = names(contract);
    const cases = parameterCases(contract, sort);

    expect(preflightRule(contract)).toBeUndefined();
    expect(titles.filter((title) => /CORS preflight|no preflight/.test(title))).toEqual([]);
    expect(cases.find((c) => c.keyword.startsWith('enum'))).toEqual(
      expect.objectContaining({ accepted: [{ text: 'name' }, { text: 'id' }], rejected: [{ text: 'NAME' }, { text: 'name-not-listed' }] }),
    );
  });

  test('a key read from the query → the header and other query names are "elsewhere", its own query name is not', () => {
    const contract = edited((spec) => (spec.components.securitySchemes.ApiKeyAuth = { type: 'apiKey', in: 'query', name: 'api_key' }));
    const [scheme] = contract.operation('getClientsSimple').credentials;

    const placements = elsewhere(scheme!);

    expect(placements.map((p) => p.keyAt)).toContainEqual({ in: 'header', name: 'Authorization', prefix: 'Bearer ' });
    expect(placements.map((p) => p.keyAt)).toContainEqual({ in: 'cookie', name: 'api_key' });
    expect(placements.some((p) => p.keyAt?.in === 'query' && p.keyAt.name === 'api_key')).toBe(false);
  });
});

describe('derived checks: held to the document and to the RFCs', () => {
  const contract = new SpecContract();

  test.each(
    contract.operations.flatMap((operation) =>
      operation.parameters.map((parameter) => [operation.operationId, parameter.name, parameter] as const),
    ),
  )(
    '%s %s: every accepted value passes its schema, every rejected one breaks it (or is given twice, or does not decode)',
    (_operation, _name, parameter) => {
      const cases = parameterCases(contract, parameter);

      expect(cases.length).toBeGreaterThan(0);
      for (const c of cases) {
        for (const value of c.accepted)
          expect([c.keyword, value.text, schemaAccepts(contract, parameter, value.text)]).toEqual([c.keyword, value.text, true]);
        for (const value of c.rejected.filter((v) => !v.twice && !v.undecodable))
          expect([c.keyword, value.text, schemaAccepts(contract, parameter, value.text)]).toEqual([c.keyword, value.text, false]);
      }
    },
  );

  test('the bundled parameters → the bounds, types, formats and OpenAPI fields their schemas state, none dropped', () => {
    const extended = contract.operation('getClientsExtended');
    const casesOf = (name: string) =>
      Object.fromEntries(
        parameterCases(
          contract,
          extended.parameters.find((p) => p.name === name)!,
        ).map((c) => [
          c.keyword,
          {
            accepted: c.accepted.map((v) => ([...v.text].length > 40 ? `${[...v.text].length}cp` : v.text)),
            rejected: c.rejected.map((v) => ([...v.text].length > 40 ? `${[...v.text].length}cp` : v.text)),
          },
        ]),
      );

    expect(casesOf('page')).toEqual({
      'minimum 1': { accepted: ['1'], rejected: ['0'] },
      'maximum 2147483647, format int32': { accepted: ['2147483647'], rejected: ['2147483648'] },
      'type integer': { accepted: [], rejected: ['1.5', 'one', '1e1', '0x10', '1+'] },
      'presence without a value (allowEmptyValue: false)': { accepted: [], rejected: ['', ''] },
      'percent-encoding (RFC 3986)': { accepted: [], rejected: ['%E0%A4%A'] },
      'given twice': { accepted: [], rejected: ['1'] },
    });
    // A cut percent-encoding is text a free-text filter takes: the document states no reading, so only --strict-http asks.
    expect(casesOf('filter')).toEqual({
      'maxLength 200 (code points)': { accepted: ['200cp', '200cp'], rejected: ['201cp', '201cp', '201cp'] },
      'presence without a value (allowEmptyValue: true)': { accepted: ['', ''], rejected: [] },
      'given twice': { accepted: [], rejected: ['lindqvist'] },
      'allowReserved (reserved characters as they are)': { accepted: [":/?@!$'()*,;=[]"], rejected: [] },
    });
    const uuid = casesOf('idStaff')['format uuid (RFC 9562: any version, either case)']!;
    expect([uuid.accepted.length, uuid.rejected.length]).toEqual([6, 28]);
    expect(casesOf('idStaff')['maxLength 36 (code points)']).toEqual({
      accepted: ['af9b5699-ba15-4e04-8356-9e6f724c2891'],
      rejected: ['af9b5699-ba15-4e04-8356-9e6f724c28910'],
    });
    expect(
      parameterCases(
        contract,
        extended.parameters.find((p) => p.name === 'filter')!,
        { strictHttp: true },
      ).map((c) => c.keyword),
    ).toContain('percent-encoding (RFC 3986, --strict-http: the document states no reading)');
    expect(
      parameterCases(
        contract,
        extended.parameters.find((p) => p.name === 'Prefer')!,
      ),
    ).toEqual([expect.objectContaining({ keyword: 'maxLength 256 (code points)', mayBeIgnored: true })]);
  });

  test('a uuid is 8-4-4-4-12 hex digits of any version and either case (RFC 9562); braces, urn:uuid: and no dashes are not', () => {
    const loose = edited((spec) => (spec.components.schemas.LooseUuid = { type: 'string', format: 'uuid' }));
    const validate = loose.validator('#/components/schemas/LooseUuid');

    expect(['017F22e2-79B0-7cc3-98C4-DC0C0C07398F', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'].map((id) => validate(id))).toEqual([
      true,
      true,
    ]);
    expect(
      ['urn:uuid:c232ab00-9414-11ec-b3c8-9f6bdeced846', '{c232ab00-9414-11ec-b3c8-9f6bdeced846}', 'c232ab00941411ecb3c89f6bdeced846'].map(
        (id) => validate(id),
      ),
    ).toEqual([false, false, false]);
  });

  test('near misses: unknown ones are no template; equivalent ones normalise to the operation path (RFC 3986); invalid ones break a parameter', () => {
    const misses = nearMissPaths(contract);

    expect(misses.length).toBeGreaterThan(50);
    for (const miss of misses) {
      if (miss.kind === 'unknown') expect([miss.path, contract.findOperation(miss.path)]).toEqual([miss.path, undefined]);
      if (miss.kind === 'equivalent') expect([miss.path, normalised(miss.path)]).toEqual([miss.path, miss.canonical]);
      if (miss.kind === 'invalid-parameter') {
        const found = contract.findOperation(miss.path)!;
        const parameter = found.operation.parameters.find((p) => p.name === miss.parameter)!;
        expect([miss.path, schemaAccepts(contract, parameter, decodeURIComponent(found.params[miss.parameter!]!))]).toEqual([
          miss.path,
          false,
        ]);
      }
    }
    const kinds = new Set(misses.map((miss) => miss.kind));
    expect([...kinds].sort()).toEqual(['equivalent', 'invalid-parameter', 'unknown']);
  });
});

describe('the raw transport', () => {
  test('a chunked answer is joined; content after a HEAD answer is counted; 1xx is skipped; nothing is status 0', () => {
    const chunked = Buffer.from(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n"Po\r\n3\r\nng"\r\n0\r\n\r\n',
    );
    const head = Buffer.from('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET\r\nContent-Length: 5\r\n\r\n{"a":');

    expect(parseRawAnswer('GET', chunked)).toEqual(expect.objectContaining({ status: 200, body: Buffer.from('"Pong"') }));
    expect(parseRawAnswer('HEAD', head)).toEqual(expect.objectContaining({ status: 405, unexpectedContent: 5 }));
    expect(parseRawAnswer('HEAD', head).headers.get('allow')).toBe('GET');
    expect(parseRawAnswer('CONNECT', Buffer.alloc(0)).status).toBe(0);
    // Bytes that are no answer (a status line without a number): status 0, and the bytes kept to tell it from a close.
    const garbled = parseRawAnswer('GET', Buffer.from('HTTP/1.1 undefined Error\r\nDate: x\r\n\r\n{}'));
    expect([garbled.status, garbled.body.length > 0]).toEqual([0, true]);
  });
});

describe('derived checks against a deployment that accepts only listed origins', () => {
  test('run without --origin → the CORS method checks skip naming --origin, none fails; with a listed --origin they pass', async () => {
    const server = await startTestServer({ corsOrigins: ['https://app.example'] });
    const methods: ContractCheck[] = [];
    DERIVED_KINDS.methods((operation, name, run, rules) => methods.push({ operation, name, run, rules }), new SpecContract());
    const cors = methods.filter((check) => /preflight/.test(check.name) && check.operation === 'getClientsSimple');

    try {
      const withoutOrigin = new CheckContext({ baseUrl: server.baseUrl, apiKey: API_KEY });
      const listed = new CheckContext({ baseUrl: server.baseUrl, apiKey: API_KEY }, 'https://app.example');
      const outcomes = await Promise.all(
        cors.map(async (check) => [(await runCheck(check, withoutOrigin)).outcome, (await runCheck(check, listed)).outcome]),
      );

      expect(cors.length).toBe(6);
      expect(outcomes.map(([without]) => without)).not.toContain('fail');
      expect(outcomes.filter(([without]) => without === 'skip').length).toBeGreaterThanOrEqual(3);
      expect(withoutOrigin.skipped.every((skipped) => skipped.reason.includes('--origin'))).toBe(true);
      expect(outcomes.map(([, withListed]) => withListed)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe('derived checks against the third implementation (tests/reach/impl.ts: validation before authentication, its own messages)', () => {
  test('every derived check passes: a key in the query may be a 400 naming that parameter as well as a 401', async () => {
    const impl = await startImpl({ shape: 'typical' });
    const checks: ContractCheck[] = [];
    for (const generate of Object.values(DERIVED_KINDS))
      generate((operation, name, run, rules) => checks.push({ operation, name, run, rules }), new SpecContract());

    try {
      const context = new CheckContext({ baseUrl: impl.url.replace(/\/$/, ''), apiKey: IMPL_API_KEY }, 'https://example.org');
      const failed: string[] = [];
      for (const check of checks) {
        const result = await runCheck(check, context);
        if (result.outcome !== 'pass') failed.push(`${result.outcome} ${check.name}\n${result.error?.message ?? result.reason}`);
      }

      expect(failed).toEqual([]);
    } finally {
      await impl.close();
    }
  }, 120_000);
});

/** A socket server that answers every request with `answer(request)` and closes: no Node parser in the way. */
async function rawServer(answer: (request: string) => string): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const net = await import('node:net');
  const server = net.createServer((socket) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) socket.end(answer(received));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('framing checks against the HTTP layer alone (derived/framing.ts)', () => {
  const json = (status: string, body: string) =>
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  const framing = () => {
    const checks: ContractCheck[] = [];
    DERIVED_KINDS.framing((operation, name, run, rules) => checks.push({ operation, name, run, rules }), new SpecContract());
    // The four MUST-400 rules (the huge head's check also asks the plain GET, which these bare servers answer wrongly).
    return checks.filter((check) => check.operation === 'ping' && /MUST 400/.test(check.name));
  };
  const outcomes = async (baseUrl: string) => {
    const context = new CheckContext({ baseUrl, apiKey: API_KEY });
    return Promise.all(framing().map(async (check) => `${(await runCheck(check, context)).outcome} ${check.name.replace(/ →.*/, '')}`));
  };

  test('a server that takes every request as it comes fails the four MUST-400 checks', async () => {
    const server = await rawServer(() => json('200 OK', '"Pong"'));
    try {
      const results = await outcomes(server.baseUrl);
      expect(results.length).toBe(4);
      expect(results.filter((result) => !result.startsWith('fail'))).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);

  test('CONNECT and TRACE: a front server’s own 405 page passes (nginx sends one without Allow); its 200 fails', async () => {
    const methods: ContractCheck[] = [];
    DERIVED_KINDS.methods((operation, name, run, rules) => methods.push({ operation, name, run, rules }), new SpecContract());
    const refusedByFront = methods.filter((check) => check.operation === 'ping' && /^(CONNECT|TRACE) /.test(check.name));
    const page = await rawServer(
      () => 'HTTP/1.1 405 Not Allowed\r\nContent-Type: text/html\r\nContent-Length: 12\r\nConnection: close\r\n\r\n<h1>405</h1>',
    );
    const taken = await rawServer(() => 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
    try {
      const run = async (baseUrl: string) => {
        const context = new CheckContext({ baseUrl, apiKey: API_KEY });
        return Promise.all(refusedByFront.map(async (check) => (await runCheck(check, context)).outcome));
      };
      expect(await run(page.baseUrl)).toEqual(['pass', 'pass']);
      expect(await run(taken.baseUrl)).toEqual(['fail', 'fail']);
    } finally {
      await page.close();
      await taken.close();
    }
  }, 60_000);

  test('a request-target that is not percent-encoded UTF-8: a front server’s own 400 page passes; a 200 fails', async () => {
    const parameters: ContractCheck[] = [];
    DERIVED_KINDS.parameters((operation, name, run, rules) => parameters.push({ operation, name, run, rules }), new SpecContract());
    const undecodable = parameters.filter((check) => check.operation === 'getClientDetail' && /cut UTF-8/.test(check.name));
    const page = await rawServer(
      () => 'HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\nContent-Length: 12\r\nConnection: close\r\n\r\n<h1>400</h1>',
    );
    const taken = await rawServer(() => json('200 OK', '{}'));
    try {
      const run = async (baseUrl: string) => {
        const context = new CheckContext({ baseUrl, apiKey: API_KEY });
        return Promise.all(undecodable.map(async (check) => (await runCheck(check, context)).outcome));
      };
      expect(await run(page.baseUrl)).toEqual(['pass']);
      expect(await run(taken.baseUrl)).toEqual(['fail']);
    } finally {
      await page.close();
      await taken.close();
    }
  }, 60_000);

  test('a bare 400 (a gateway or a parser before the app) passes; a JSON 400 that is no ErrorDto fails', async () => {
    const bare = await rawServer(() => 'HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    const broken = await rawServer(() => json('400 Bad Request', '{"error":"bad request"}'));
    try {
      expect((await outcomes(bare.baseUrl)).filter((result) => !result.startsWith('pass'))).toEqual([]);
      expect((await outcomes(broken.baseUrl)).filter((result) => !result.startsWith('fail'))).toEqual([]);
    } finally {
      await bare.close();
      await broken.close();
    }
  }, 60_000);
});

describe('--strict-http: the RFC 9112 MUST-400s Node takes (derived/framing.ts STRICT_FRAMING_FAULTS)', () => {
  const contract = new SpecContract();
  const strictRules = STRICT_FRAMING_FAULTS.map((fault) => fault.rule);
  const isStrict = (check: ContractCheck) => strictRules.some((rule) => check.name.includes(rule)) || check.name.includes('--strict-http');
  /** The framing checks of one operation (or all), with --strict-http. */
  const strictFraming = (operation?: string) => {
    const checks: ContractCheck[] = [];
    DERIVED_KINDS.framing((op, name, run, rules) => checks.push({ operation: op, name, run, rules }), contract, { strictHttp: true });
    return checks.filter((check) => operation === undefined || check.operation === operation);
  };

  test('off (the default) → not defined at all; on → the three faults for every operation, the default ones unchanged', () => {
    const off = contractChecks(contract);
    const on = contractChecks(contract, undefined, { strictHttp: true });

    expect(off.filter(isStrict)).toEqual([]);
    // The framing faults, and the cut percent-encoding of the one free-text parameter (filter).
    expect(on.filter(isStrict).length).toBe(contract.operations.length * STRICT_FRAMING_FAULTS.length + 1);
    expect(on.filter((check) => !isStrict(check)).map((check) => check.name)).toEqual(off.map((check) => check.name));
    expect(FRAMING_FAULTS.map((fault) => fault.rule).filter((rule) => strictRules.includes(rule))).toEqual([]);
  });

  test('a server that takes two Host lines (200) fails that check; its reproduction writes both Host lines', async () => {
    const taken = await rawServer(
      () => 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 6\r\nConnection: close\r\n\r\n"Pong"',
    );
    const [twoHosts] = strictFraming('ping').filter((check) => /two Host lines/.test(check.name));
    try {
      const result = await runCheck(twoHosts!, new CheckContext({ baseUrl: taken.baseUrl, apiKey: API_KEY }));

      expect(result.outcome).toBe('fail');
      const host = new URL(taken.baseUrl).host;
      expect((result.error as { curl?: string }).curl).toContain(`\\r\\nHost: ${host}\\r\\nHost: ${host}\\r\\n`);
    } finally {
      await taken.close();
    }
  }, 60_000);

  test('a server that takes every request (200) fails all three; one that answers a bare 400 passes all three', async () => {
    const taken = await rawServer(
      () => 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 6\r\nConnection: close\r\n\r\n"Pong"',
    );
    const bare = await rawServer(() => 'HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    const checks = strictFraming('ping').filter(isStrict);
    try {
      const run = async (baseUrl: string) => {
        const context = new CheckContext({ baseUrl, apiKey: API_KEY });
        return Promise.all(checks.map(async (check) => (await runCheck(check, context)).outcome));
      };

      expect(await run(taken.baseUrl)).toEqual(['fail', 'fail', 'fail']);
      expect(await run(bare.baseUrl)).toEqual(['pass', 'pass', 'pass']);
    } finally {
      await taken.close();
      await bare.close();
    }
  }, 60_000);

  test('our mock (its HTTP server refuses all three with the ErrorDto) passes every framing check of every operation', async () => {
    const server = await startTestServer();
    const checks = strictFraming();
    try {
      const context = new CheckContext({ baseUrl: server.baseUrl, apiKey: API_KEY });
      const failed: string[] = [];
      for (const check of checks) {
        const result = await runCheck(check, context);
        if (result.outcome !== 'pass') failed.push(`${result.outcome} ${check.name}\n${result.error?.message ?? result.reason}`);
      }

      expect(checks.filter(isStrict).length).toBe(contract.operations.length * STRICT_FRAMING_FAULTS.length);
      expect(failed).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
