// Real upstreams that misbehave, for the proxy's tests: each a real socket on
// 127.0.0.1 and a port the OS picked, never a mock of one. A port where
// nothing listens, a server that accepts and never answers, one that stalls
// or resets in the middle of its body, and one that answers what it is told.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import { listenOnLoopback, type Listening } from '../../tools/loopback';

/** A port that was just free and where nothing listens now. */
export async function refusingUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export interface RawUpstream {
  baseUrl: string;
  /** Connections accepted so far. */
  accepted(): number;
  stop(): Promise<void>;
}

/** A TCP server that accepts, reads, and never says a word. */
export async function hangingUpstream(): Promise<RawUpstream> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    accepted: () => accepted,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * An HTTP upstream that sends a 200 head promising `length` bytes of JSON, then
 * `sent` bytes of them, then either resets the connection (`reset`) or stalls.
 */
export async function brokenBodyUpstream(how: 'reset' | 'stall', length = 4096, sent = 100): Promise<RawUpstream> {
  let accepted = 0;
  const server = http.createServer((req, res) => {
    accepted += 1;
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(length) });
    res.write(`[${' '.repeat(sent - 1)}`);
    if (how === 'reset') setTimeout(() => res.socket?.resetAndDestroy(), 20);
  });
  const listening = await listenOnLoopback(server);
  return { baseUrl: listening.baseUrl, accepted: () => accepted, stop: listening.stop };
}

/** An HTTP upstream whose every answer `answer` writes (the request's body already read). */
export async function scriptedUpstream(answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): Promise<Listening> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, res, Buffer.concat(chunks)));
  });
  return listenOnLoopback(server);
}
