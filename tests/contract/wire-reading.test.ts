// The wire as the standards read it, in the judge the suite and the proxy share: header values without the white
// space around them and lists over several lines (RFC 9110 §5), Link targets as RFC 3986 resolves them (a
// network-path reference is a relative reference), a cut percent-encoding the document gives no reading of
// (refused only under --strict-http), and two bodies compared as JSON values.
import net from 'node:net';
import { headerOf, judgeRequest, linkViolations, listOf, readAsText } from '../../contract/judge';
import { specContract } from '../../contract/spec-contract';
import { sameBody } from '../../contract-suite/kit/answers';

const contract = specContract();

describe('headerOf: a field value as RFC 9110 §5.5 reads it', () => {
  test.each([
    ['white space around a value', { 'x-total-count': ' 5\t ' }, 'X-Total-Count', '5'],
    ['white space around each of two lines', { vary: [' origin ', '\taccept-encoding'] }, 'Vary', 'origin, accept-encoding'],
    ['a list field with an empty element', { allow: 'GET , ,' }, 'Allow', 'GET'],
    [
      'a list field over two lines',
      { 'access-control-expose-headers': ['X-Total-Count ', ' Link, X-Request-Id'] },
      'access-control-expose-headers',
      'X-Total-Count, Link, X-Request-Id',
    ],
    ['a singleton keeps its commas', { date: ' Thu, 01 Jan 1970 00:00:00 GMT ' }, 'Date', 'Thu, 01 Jan 1970 00:00:00 GMT'],
    ['a no-break space is part of the value', { 'x-request-id': '\u00a0id\u00a0' }, 'X-Request-Id', '\u00a0id\u00a0'],
    ['an empty field is present', { 'x-request-id': '  ' }, 'X-Request-Id', ''],
    ['no such field', {}, 'Link', undefined],
  ])('%s', (_what, bag, name, value) => {
    expect(headerOf(bag, name)).toBe(value);
    expect(
      headerOf(new Headers(Object.entries(bag).flatMap(([n, v]) => [v].flat().map((line) => [n, line] as [string, string]))), name),
    ).toBe(value);
  });

  test('listOf: commas inside a quoted string stay inside the element; case kept only when asked', () => {
    expect(listOf('no-cache="a, b", No-Store')).toEqual(['no-cache="a, b"', 'no-store']);
    expect(listOf(' GET ,HEAD', { caseSensitive: true })).toEqual(['GET', 'HEAD']);
  });
});

describe("headerOf over Node's fetch: the lines it joins read as the same value a raw socket gives", () => {
  // undici keeps each field line's trailing white space when it joins lines (`…rel=first␠, <b>…`): the value read by
  // fetch and by a raw socket (the suite's two clients) must be one, or a replayed answer differs from its first.
  const LINES = ['<a?x=1,2>; rel=first \t', '\t<b>; title="p ,q" ; rel=prev\t ', ' <c>;rel=next,'];
  test.each([
    ['Link', LINES, '<a?x=1,2>; rel=first, <b>; title="p ,q" ; rel=prev, <c>;rel=next,'],
    ['X-Note', ['v \t'], 'v'],
  ])('%s', async (name, lines, value) => {
    const server = net.createServer((socket) =>
      socket.once('data', () =>
        socket.end(
          `HTTP/1.1 200 OK\r\n${lines.map((line) => `${name}: ${line}\r\n`).join('')}Content-Length: 0\r\nConnection: close\r\n\r\n`,
        ),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`, { signal: AbortSignal.timeout(5_000) });
      expect(headerOf(answer.headers, name)).toBe(value);
      expect(headerOf({ [name.toLowerCase()]: lines }, name)).toBe(value);
    } finally {
      server.close();
    }
  });
});

describe('the Link rule: a target is judged by what it resolves to (RFC 3986 §4.2, §5.2)', () => {
  const request = {
    method: 'GET',
    path: '/api/v1/Client/Simple?page=2&pageSize=10',
    headers: {},
    url: 'http://[::1]:4000/api/v1/Client/Simple?page=2&pageSize=10',
  };
  const links = (target: (page: number) => string) =>
    [1, 1, 3, 5].map((page, i) => `<${target(page)}>; rel="${['first', 'prev', 'next', 'last'][i]}"`).join(', ');

  test.each([
    ['a path-absolute reference', (page: number) => `/api/v1/Client/Simple?page=${page}&pageSize=10`],
    ['a query-only reference', (page: number) => `?pageSize=10&page=${page}`],
    ['a network-path reference to the same authority', (page: number) => `//[::1]:4000/api/v1/Client/Simple?page=${page}&pageSize=10`],
  ])('%s → no violation', (_what, target) => {
    expect(linkViolations(contract, request, links(target), 50)).toEqual([]);
  });

  test.each([
    [
      'a network-path reference to another authority',
      (page: number) => `//elsewhere.example/api/v1/Client/Simple?page=${page}&pageSize=10`,
      /names another authority/,
    ],
    ['an absolute URI', (page: number) => `http://[::1]:4000/api/v1/Client/Simple?page=${page}&pageSize=10`, /has a scheme/],
  ])('%s → a list.link violation', (_what, target, why) => {
    const violations = linkViolations(contract, request, links(target), 50);

    expect(violations.length).toBeGreaterThan(0);
    expect(violations[0]!.actual).toMatch(why);
  });
});

describe('a cut percent-encoding (%E0%A4%A): RFC 3986 refuses it, the document states no reading of it', () => {
  const cut = { method: 'GET', path: '/api/v1/Client/Extended?filter=%E0%A4%A', headers: { 'X-Api-Key': 'k' }, keyAccepted: true };

  test('read as text: each triplet a byte, bad UTF-8 as U+FFFD, a lone % as itself', () => {
    expect(readAsText('%E0%A4%A')).toBe('\uFFFD%A');
    expect(readAsText('a+b%20c')).toBe('a b c');
  });

  test('by default a free text may be read as text (200, its data rules unbound) or refused (400)', () => {
    const judged = judgeRequest(contract, cut);

    expect(judged.allowedStatuses).toEqual([200, 400]);
    expect(judged.mockControlled).toBe(true);
  });

  test('--strict-http: only 400', () => {
    expect(judgeRequest(contract, cut, { strictHttp: true }).allowedStatuses).toEqual([400]);
  });
});

describe('sameBody: two answers compared as a client reads them', () => {
  const answer = (text: string, type = 'application/json; charset=utf-8') => ({
    headers: new Headers({ 'content-type': type }),
    bytes: new TextEncoder().encode(text),
    json: (() => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    })(),
  });

  test('JSON members in another order, numbers written otherwise → the same body', () => {
    expect(sameBody(answer('{"Page":1,"PageSize":25,"Results":[]}'), answer('{ "Results": [], "PageSize": 25.0, "Page": 1 }'))).toBe(true);
  });

  test('JSON arrays in another order → another body; text compares byte for byte', () => {
    expect(sameBody(answer('[1,2]'), answer('[2,1]'))).toBe(false);
    expect(sameBody(answer('a b', 'text/plain'), answer('a  b', 'text/plain'))).toBe(false);
  });
});
