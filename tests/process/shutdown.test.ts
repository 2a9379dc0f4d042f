// Graceful shutdown under load: the built CLI gets SIGTERM while keep-alive
// load runs and slow requests (Prefer: delay=1000) are in flight. Accepted
// requests are those whose id reaches the server's log or that got an answer.
import { describeDrill, RequestMix, shutdownDrill, type DrillFigures } from '../../bench/soak';
import { spawnServer, type SpawnedServer } from '../support/servers';

let server: SpawnedServer | undefined;
afterAll(async () => {
  // Normally gone already; a failed drill must not leave the process behind.
  await server?.stop('SIGKILL');
});

describe('SIGTERM under keep-alive load', () => {
  let figures: DrillFigures;
  beforeAll(async () => {
    server = await spawnServer([], { LOG_LEVEL: 'info' });
    const spawned = server;
    const mix = await RequestMix.forServer(spawned.baseUrl);

    figures = await shutdownDrill(
      { baseUrl: spawned.baseUrl, terminate: () => spawned.child.kill('SIGTERM'), exited: spawned.exited, logText: spawned.stdout },
      mix,
      // Load by count, not by time: 60 answers before the slow requests go out (a loaded CI machine managed 9 and 28 in
      // a fixed 800 ms); slow requests then get 800 ms to be accepted, and are still in flight at the signal.
      { loops: 8, slow: 9, slowDelayMs: 2_000, signalAfterMs: 800, answeredFirst: 60 },
    );
    console.log(describeDrill(figures));
  }, 45_000);

  test('SIGTERM → every accepted request completes with its normal status, slow ones included', () => {
    expect(figures.accepted).toBeGreaterThan(50);
    expect(figures.inFlightAtSignal).toBeGreaterThanOrEqual(figures.slow);
    expect(figures.slowCompleted).toBe(figures.slow);
    expect(figures.failed).toBe(0);
  });

  test('SIGTERM → no accepted request sees a connection reset', () => {
    expect(figures.resets).toBe(0);
  });

  test('SIGTERM → new connections are refused while in-flight requests drain', () => {
    expect(figures.refusedAfterMs).toBeDefined();
    expect(figures.refusedAfterMs!).toBeLessThan(figures.exitMs);
  });

  test('SIGTERM → exit code 0 within 10 s, once the slow requests are answered', () => {
    expect(figures.exitCode).toBe(0);
    expect(figures.exitMs).toBeGreaterThan(500);
    expect(figures.exitMs).toBeLessThan(10_000);
  });
});
