// Crash policy: after an uncaught exception or an unhandled rejection the
// process state is unknown, so it is not kept alive. The crash is logged
// without request data and the process exits non-zero for its supervisor
// (systemd, Kubernetes, the cluster primary) to start a fresh one.
import type { Logger } from 'pino';
import { describeCrash } from '../errors';

/** Exit code of a crash: not 0 (a clean stop) and not 2 (a bad setting). */
export const EXIT_CRASH = 1;
/** How long the log gets to flush before the process exits anyway. */
const FLUSH_GRACE_MS = 500;

/** Installs the policy; `exit` is the process's own unless a caller needs to observe it. */
export function exitOnCrash(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  let crashed = false;
  const crash = (kind: string) => (error: unknown) => {
    // Should the process exit on its own before the timer below, it still exits non-zero.
    process.exitCode = EXIT_CRASH;
    if (crashed) return;
    crashed = true;
    try {
      logger.fatal({ err: describeCrash(error) }, kind);
    } finally {
      // Exit once the log is written; if flushing hangs, exit anyway.
      setTimeout(() => exit(EXIT_CRASH), FLUSH_GRACE_MS).unref();
      logger.flush(() => exit(EXIT_CRASH));
    }
  };
  process.on('uncaughtException', crash('uncaught exception: exiting for a restart'));
  process.on('unhandledRejection', crash('unhandled rejection: exiting for a restart'));
}
