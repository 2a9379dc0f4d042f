// Open connections, counted and capped. Every accepted socket costs a file
// descriptor; past the process's limit accept() fails with EMFILE and nobody
// gets in, a fresh client included. So the server keeps at most
// MAX_CONNECTIONS, and at the cap it closes the connection idle the longest
// (no request in progress: a keep-alive connection between requests, or one
// that has not sent a complete request) to let the new one in. Only when every
// connection is busy is the new one refused. The same bookkeeping tells a stop
// which responses are still in flight.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RejectionLog } from './rejection-log';

export class ConnectionTable {
  /** Requests in progress per open connection. */
  private readonly open = new Map<Socket, number>();
  /** Connections with no request in progress, longest idle first (a Set keeps insertion order). */
  private readonly idle = new Set<Socket>();
  /** Responses not yet finished, for a stop to drain and to count what it had to cut. */
  readonly inFlight = new Set<ServerResponse>();

  constructor(
    private readonly max: number,
    private readonly rejections: RejectionLog,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** A new connection: admitted (closing the longest-idle one at the cap) or refused. */
  admit(socket: Socket): void {
    if (this.open.size >= this.max) {
      const oldestIdle = this.idle.values().next();
      if (oldestIdle.done) {
        this.rejections.count('refused: MAX_CONNECTIONS all busy');
        socket.destroy();
        return;
      }
      this.rejections.count('idle closed: MAX_CONNECTIONS reached');
      this.forget(oldestIdle.value);
      oldestIdle.value.destroy();
    }
    this.open.set(socket, 0);
    this.idle.add(socket);
    socket.once('close', () => this.forget(socket));
  }

  /** A request on an admitted connection: the connection is busy until its response is done. */
  started(res: ServerResponse): void {
    this.inFlight.add(res);
    const socket = res.socket;
    const active = socket ? this.open.get(socket) : undefined;
    if (socket && active !== undefined) {
      this.open.set(socket, active + 1);
      this.idle.delete(socket);
    }
    res.once('close', () => {
      this.inFlight.delete(res);
      const left = socket ? this.open.get(socket) : undefined;
      if (socket && left !== undefined) {
        this.open.set(socket, left - 1);
        // Idle again, and now the most recently used: the last to be closed at the cap.
        if (left === 1) this.idle.add(socket);
      }
    });
  }

  /** Closes every connection with no request in progress, those that never sent one included (a stop). */
  closeIdle(): void {
    for (const socket of this.idle) socket.destroy();
  }

  private forget(socket: Socket): void {
    this.open.delete(socket);
    this.idle.delete(socket);
  }
}
