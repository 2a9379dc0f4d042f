// Listening on the loopback interface (127.0.0.1, or ::1 for a test of IPv6
// base URLs) and a free port, and stopping, for the small HTTP servers tests
// write themselves (the second implementation, the mutant proxy, a gateway).
// node:http only: the second implementation must not depend on anything of ours.
import type { Server } from 'node:http';

export interface Listening {
  /** `http://127.0.0.1:PORT` (or `http://[::1]:PORT`), without a trailing slash. */
  baseUrl: string;
  /** Stops listening and cuts every connection, then runs `onStop`. */
  stop(): Promise<void>;
}

export function listenOnLoopback(
  server: Server,
  onStop: () => void = () => undefined,
  host: '127.0.0.1' | '::1' = '127.0.0.1',
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
        stop: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
            onStop();
          }),
      });
    });
  });
}
