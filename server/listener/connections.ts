// Open connections, counted and capped. Every accepted socket costs a file
// descriptor; past the process's limit accept() fails with EMFILE and nobody
// gets in, a fresh client included. So the server keeps at most
// MAX_CONNECTIONS, and at the cap it closes the connection idle the longest
// (no request in progress: a keep-alive connection between requests, or one
// that has not sent a complete request) to let the new one in. Only when every
// connection is busy is the new one refused. The same bookkeeping tells a stop
// which responses are still in flight.
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RejectionLog } from './rejection-log';

/** File descriptors kept for everything but client connections: the data file, logs, cluster IPC, Node's own. */
const RESERVED_FDS = 128;
/** Where the file-descriptor limit is unknown (no /proc): macOS and others start Node with at least this many. */
const FALLBACK_FD_LIMIT = 1024;
/** Beyond this many sockets memory, not descriptors, is what runs out. */
const MAX_DEFAULT_CONNECTIONS = 20_000;

/** The process's open-file limit (Node raises the soft limit to the hard one at start-up), from /proc on Linux. */
export function fdLimit(): number {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    if (match) return match[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(match[1]);
  } catch {
    // Not Linux: use the fallback below.
  }
  return FALLBACK_FD_LIMIT;
}

/** MAX_CONNECTIONS=auto: what the fd limit allows after the reserve, so accept() never meets EMFILE. */
export function defaultMaxConnections(): number {
  return Math.max(1, Math.min(MAX_DEFAULT_CONNECTIONS, fdLimit() - RESERVED_FDS));
}

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
