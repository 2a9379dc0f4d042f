// The two limits on the upstream's part of an exchange (proxy.openapi.yaml,
// "Deadlines"): --upstream-timeout for the answer's head and then for every
// pause between its body's pieces, and --answer-deadline for the whole of it,
// so an upstream that drips a byte now and then still ends. Time spent waiting
// for a caller that does not read (back-pressure) is the caller's: neither
// limit runs while the clock is paused. One lazy timer per exchange: a body
// piece only notes the time, and the timer checks when it fires, so a long
// body costs no timer operation per piece. The timer is never unref()'d: an
// exchange under way is a reason for the process to stay.

export type Expiry = 'idle' | 'deadline';

export class UpstreamClock {
  private timer: NodeJS.Timeout;
  private last: number;
  private deadline: number;
  private pausedAt = 0;
  private stopped = false;

  constructor(
    private readonly idleMs: number,
    deadlineMs: number,
    private readonly expire: (what: Expiry) => void,
  ) {
    this.last = performance.now();
    this.deadline = this.last + deadlineMs;
    this.timer = setTimeout(this.check, Math.min(idleMs, deadlineMs));
  }

  /** A piece of the answer arrived. */
  readonly touch = (): void => {
    this.last = performance.now();
  };

  /** The caller stopped reading: its time, not the upstream's, until resume(). */
  pause(): void {
    if (this.pausedAt === 0) this.pausedAt = performance.now();
  }

  resume(): void {
    if (this.pausedAt === 0) return;
    const now = performance.now();
    this.deadline += now - this.pausedAt;
    this.last = now;
    this.pausedAt = 0;
  }

  /** True while the caller's back-pressure holds the exchange. */
  get paused(): boolean {
    return this.pausedAt !== 0;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private readonly check = (): void => {
    if (this.stopped) return;
    if (this.pausedAt !== 0) {
      this.timer = setTimeout(this.check, this.idleMs);
      return;
    }
    const now = performance.now();
    // A timer may fire a fraction of a millisecond before its time by this clock: that is its time.
    const what: Expiry | undefined = now >= this.deadline - 1 ? 'deadline' : now - this.last >= this.idleMs - 1 ? 'idle' : undefined;
    if (what) {
      this.stopped = true;
      return this.expire(what);
    }
    this.timer = setTimeout(this.check, Math.ceil(Math.min(this.deadline - now, this.idleMs - (now - this.last))));
  };
}
