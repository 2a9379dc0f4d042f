// The answers the HTTP server gives before (or instead of) the app: requests
// Node's parser rejects, a request whose Host or Transfer-Encoding breaks
// RFC 9112's framing rules, CONNECT, and an Expect header Node would answer
// itself. Each is the documented ErrorDto, written by server/errors.ts's
// writer, and counted in the rejection summary, never logged one line each.
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../../contract/wire-types';
import { bareError, framingFault } from '../errors';
import type { RejectionLog } from './rejection-log';

/** A peer that never closes its side after an error answer is cut off after this long. */
const LINGER_MS = 2_000;

interface RawAnswer {
  status: number;
  code: ErrorCode;
  message: string;
}

/** What Node's HTTP parser rejects, as the documented ErrorDto: never a bare 400 or an HTML page. */
const PARSER_ERRORS: Record<string, RawAnswer> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'VALIDATION_ERROR', message: 'The request line and headers are larger than 16 KB' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, code: 'VALIDATION_ERROR', message: 'The chunk extensions are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'VALIDATION_ERROR', message: 'The request took too long to arrive' },
};
const MALFORMED: RawAnswer = { status: 400, code: 'VALIDATION_ERROR', message: 'The request is malformed' };

/**
 * The catalogue's bare ErrorDto answer (errors.ts) as a complete HTTP/1.1
 * response, for a raw socket; with the Date header Node's own answers carry
 * (RFC 9110 §6.6.1: an origin server with a clock sends it in every 4xx).
 */
export function rawErrorResponse(status: number, code: ErrorCode, message: string, extra: Readonly<Record<string, string>> = {}): string {
  const answer = bareError(status, code, message, extra);
  const lines = [
    `Date: ${new Date().toUTCString()}\r\n`,
    ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`),
  ];
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\n${lines.join('')}\r\n${answer.body}`;
}

/**
 * The request handler's first step: a request whose framing breaks RFC 9112
 * (framingFault) gets its 400 here, and the connection closes after it.
 * Returns true when it answered.
 */
export function answeredBadFraming(req: IncomingMessage, res: ServerResponse, rejections: RejectionLog): boolean {
  const fault = framingFault(req);
  if (!fault) return false;
  res.shouldKeepAlive = false;
  rejections.count(`400 ${fault.header} header`);
  const answer = bareError(400, 'VALIDATION_ERROR', fault.message);
  res.writeHead(answer.status, answer.headers).end(answer.body);
  return true;
}

/** Parser errors, CONNECT and Expect: answered on the raw socket, or passed on to the app. */
export function answerRawRequests(server: Server, rejections: RejectionLog): void {
  const answered = new WeakSet<Duplex>();
  /** Writes a final answer on a raw socket, then lets the peer read it before the socket goes. */
  const answerRaw = (socket: Duplex, response: string) => {
    answered.add(socket);
    // end() rather than destroy(): destroying with unread input sends a TCP reset, which can overtake the answer.
    socket.end(response);
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser reports every later chunk of a rejected request again: it has been answered once.
    if (answered.has(socket)) return;
    // A socket error (ECONNRESET, EPIPE: the client went away) has nobody to answer.
    const fromParser = error.code?.startsWith('HPE_') || error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    // Write only when no response is under way on this connection, or the two would interleave.
    if (fromParser && socket.writable && !(socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      const known = (error.code && PARSER_ERRORS[error.code]) || MALFORMED;
      // The error carries the raw request bytes (rawPacket): only its code is counted.
      rejections.count(`${known.status} ${error.code ?? 'parser'}`);
      answerRaw(socket, rawErrorResponse(known.status, known.code, known.message));
    } else {
      socket.destroy();
    }
  });

  // `Expect: <anything but 100-continue>` would get Node's bare 417: answer it as any other request.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));

  // CONNECT (proxy tunnelling) bypasses the request handler; without this Node would drop the socket unanswered.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    rejections.count('405 CONNECT');
    answerRaw(socket, rawErrorResponse(405, 'METHOD_NOT_ALLOWED', 'CONNECT is not allowed; use GET', { Allow: 'GET' }));
  });
}
