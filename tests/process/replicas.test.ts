// Scale-out rests on statelessness: separate processes started with the same
// seed, and the workers of one `--workers 2` server, answer every request with
// the same bytes (body, X-Total-Count, Link), so any load balancer may spread
// traffic over them.
import http from 'node:http';
import { API_KEY, spawnServer, type SpawnedServer } from '../support/servers';

jest.setTimeout(90_000);

const ARGS = ['--seed', '7', '--clients', '3000'];

interface Answer {
  status: number;
  totalCount: string | undefined;
  link: string | undefined;
  body: string;
}

/** A new connection per request (agent: false), so that node:cluster spreads them over its workers. */
function fetchAnswer(baseUrl: string, target: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}${target}`, { agent: false, headers: { 'X-Api-Key': API_KEY } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          totalCount: response.headers['x-total-count'] as string | undefined,
          link: response.headers.link as string | undefined,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    request.on('error', reject);
  });
}

/** A fixed, varied set of 200 requests over every operation, built from what the first replica lists. */
async function requestSet(baseUrl: string): Promise<string[]> {
  const listed = JSON.parse((await fetchAnswer(baseUrl, '/api/v1/Client/Extended?page=4&pageSize=100')).body) as {
    Results: { IdClient: string; IdStaff: string | null; IdLocation: string | null }[];
  };
  const ids = listed.Results.map((client) => client.IdClient);
  const staff = [...new Set(listed.Results.map((client) => client.IdStaff).filter((id): id is string => id !== null))];
  const locations = [...new Set(listed.Results.map((client) => client.IdLocation).filter((id): id is string => id !== null))];
  const terms = ['an', 'son', 'Åsa', 'berg', 'JO', 'é', '070', '19', 'example.net', "O'", 'li ma', 'zz'];
  const targets: string[] = ['/api/v1/Diagnostics/Ping'];
  for (let i = 0; targets.length < 200; i++) {
    const page = 1 + (i % 7) * 3;
    const pageSize = [1, 10, 25, 100][i % 4]!;
    switch (i % 6) {
      case 0:
        targets.push(`/api/v1/Client/Simple?page=${page}&pageSize=${pageSize}`);
        break;
      case 1:
        targets.push(`/api/v1/Client/Extended?page=${(i % 3) + 1}&filter=${encodeURIComponent(terms[i % terms.length]!)}`);
        break;
      case 2:
        targets.push(`/api/v1/Client/Extended?idStaff=${staff[i % staff.length]}&active=${i % 4 < 2}&pageSize=${pageSize}`);
        break;
      case 3:
        targets.push(`/api/v1/Client/Extended?idLocation=${locations[i % locations.length]}&page=${(i % 4) + 1}`);
        break;
      case 4:
        targets.push(`/api/v1/Client/Detail/${ids[i % ids.length]}`);
        break;
      default:
        // Errors are part of the contract too.
        targets.push(
          i % 4 === 1
            ? `/api/v1/Client/Detail/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
            : `/api/v1/Client/Simple?pageSize=${100 + i}`,
        );
    }
  }
  return targets;
}

let replicaA: SpawnedServer;
let replicaB: SpawnedServer;
let workers: SpawnedServer;
let started: SpawnedServer[] = [];
beforeAll(async () => {
  const spawned = await Promise.allSettled([
    spawnServer(ARGS),
    spawnServer(ARGS),
    // Logging on, so that the test can see which worker processes answered; no control state to share (--state).
    spawnServer([...ARGS, '--workers', '2', '--control', 'off'], { LOG_LEVEL: 'info' }),
  ]);
  // Keep every server that did start, so that afterAll stops it even when another failed.
  started = spawned.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = spawned.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
  [replicaA, replicaB, workers] = started as [SpawnedServer, SpawnedServer, SpawnedServer];
});
afterAll(() => Promise.all(started.map((server) => server.stop())));

describe('replicas with the same seed', () => {
  test('200 varied requests → two separate processes answer byte for byte alike (body, X-Total-Count, Link)', async () => {
    const targets = await requestSet(replicaA.baseUrl);

    const fromA = await Promise.all(targets.map((target) => fetchAnswer(replicaA.baseUrl, target)));
    const fromB = await Promise.all(targets.map((target) => fetchAnswer(replicaB.baseUrl, target)));

    expect(targets).toHaveLength(200);
    expect(new Set(fromA.map((answer) => answer.status))).toEqual(new Set([200, 400, 404]));
    for (const [i, target] of targets.entries()) {
      expect({ target, ...fromB[i] }).toEqual({ target, ...fromA[i] });
    }
  });

  test('200 varied requests → a --workers 2 server answers with the same bytes, from both workers', async () => {
    const targets = await requestSet(replicaA.baseUrl);

    const fromA = await Promise.all(targets.map((target) => fetchAnswer(replicaA.baseUrl, target)));
    const fromWorkers: Answer[] = [];
    // One at a time over fresh connections: the cluster's round robin hands them to both workers.
    for (const target of targets) fromWorkers.push(await fetchAnswer(workers.baseUrl, target));
    await workers.stop();

    for (const [i, target] of targets.entries()) {
      expect({ target, ...fromWorkers[i] }).toEqual({ target, ...fromA[i] });
    }
    const answeredBy = new Set(
      workers
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"msg":"request"'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid),
    );
    expect(answeredBy.size).toBe(2);
  });
});
