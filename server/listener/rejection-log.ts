// Rejections a flood repeats thousands of times a second (parser errors, slow
// senders timed out, connections refused at the cap) are logged as one summary
// line per interval, a count per reason, not one line each: a flood must not
// become a flood of log lines (docs/reliability.md, "Connections").
import type { Logger } from 'pino';

/** How often the summary is written when there is something to report. */
export const SUMMARY_INTERVAL_MS = 10_000;

export class RejectionLog {
  private counts = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = SUMMARY_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
  }

  /** `reason` is a fixed text or an error code, never request data. */
  count(reason: string): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
  }

  flush(): void {
    if (this.counts.size === 0) return;
    const counts = Object.fromEntries(this.counts);
    this.counts = new Map();
    this.logger.info({ intervalMs: this.intervalMs, counts }, 'connections rejected or closed by the HTTP server');
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
