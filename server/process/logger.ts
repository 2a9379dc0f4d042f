// Structured logs (pino). Even synthetic health data is logged as if it were
// real: request lines carry the route template, never the raw URL, a key, a
// filter value or a body; the redaction list is a second line of defence.
import type { DestinationStream, Logger } from 'pino';
import type { LogFormat, LogLevel } from './config';

// Loaded when a logger that writes is made: a silent one (in-process handlers, programs' mocks) needs none of it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above.
const pinoModule = (): typeof import('pino') => require('pino') as typeof import('pino');

/** The longest a log line waits in the buffer on a quiet server. */
const FLUSH_EVERY_MS = 1_000;

function bufferedStdout(): DestinationStream {
  const stdout = pinoModule().destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      stdout.flush();
    } catch {
      // Closing or already closed at exit: nothing left to flush.
    }
  }, FLUSH_EVERY_MS).unref();
  return stdout;
}

/** The request line's fields, shown by the message template rather than repeated after it. */
const REQUEST_FIELDS = ['reqId', 'method', 'route', 'status', 'ms', 'code', 'param', 'cache'];

/**
 * One readable line per record on a terminal (pino-pretty, in-process: no
 * worker thread to lose lines at exit). A request line reads
 * `request GET /api/v1/Client/Simple 400 1.2 ms VALIDATION_ERROR query.pageSize`.
 */
function prettyStdout(): DestinationStream {
  // Loaded only when used: about 45 ms of start-up that a JSON log does not need (createLogger is synchronous).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pinoPretty = require('pino-pretty') as typeof import('pino-pretty');
  return pinoPretty({
    colorize: process.stdout.isTTY === true,
    translateTime: 'HH:MM:ss.l',
    ignore: ['pid', 'hostname', ...REQUEST_FIELDS].join(','),
    singleLine: true,
    // pino-pretty's template: {if key}…{end} shows a part only when the record has that field.
    messageFormat:
      '{msg}{if method} {method} {route} {status} {ms} ms{end}{if code} {code}{end}{if param} {param}{end}{if cache} cache {cache}{end}',
    sync: true,
  });
}

/** pretty on a terminal or when asked (LOG_FORMAT=pretty); JSON for machines (not a TTY, or LOG_FORMAT=json). */
export function usePretty(format: LogFormat, isTTY = process.stdout.isTTY === true): boolean {
  return format === 'pretty' || (format === 'auto' && isTTY);
}

/**
 * What pino makes of level `silent` (every method a no-op, nothing enabled), without loading pino: about
 * 30 ms of an in-process set-up, where the handlers' logger is silent unless asked (issue 26 item 6).
 */
function silentLogger(): Logger {
  const noop = () => undefined;
  const logger = {
    level: 'silent',
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    silent: noop,
    isLevelEnabled: () => false,
    child: () => logger,
    flush: (done?: (error?: Error) => void) => done?.(),
  };
  return logger as unknown as Logger;
}

export function createLogger(level: LogLevel, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  // A silent logger writes nothing: no stream, no flush timer, no pino (programs build one per mock).
  if (level === 'silent' && destination === undefined) return silentLogger();
  return pinoModule()(
    {
      level,
      base: { pid: process.pid },
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'headers["x-api-key"]',
          '*.apiKey',
          'apiKey',
          'filter',
          '*.filter',
          'query',
          '*.query',
          'url',
          '*.url',
        ],
        censor: '[redacted]',
      },
    },
    // Asynchronous, buffered writes keep logging off the hot path; flushed every second and on exit.
    destination ?? (usePretty(format) ? prettyStdout() : bufferedStdout()),
  );
}
