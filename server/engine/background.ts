// Work a listening server does after it is ready (the client views, the search
// index's frequent pieces), in short slices between requests: start-up time
// stays that of the data, and a request waits at most about one slice behind it.

/** One slice: a request waits at most about this long behind the background work. */
export const SLICE_MS = 1;

/**
 * Runs `work(until)` once per turn of the event loop until it returns true
 * (done) or `signal` aborts. `work` stops at about `until` (performance.now()).
 */
export function inSlices(work: (until: number) => boolean, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const slice = () => {
      if (signal?.aborted || work(performance.now() + SLICE_MS)) resolve();
      else setImmediate(slice);
    };
    setImmediate(slice);
  });
}

/** A generator's steps as slices: each `yield` is a point where it may stop for the turn. */
export function generatorInSlices(steps: Iterator<unknown, unknown>, signal?: AbortSignal): Promise<void> {
  return inSlices((until) => {
    while (performance.now() < until) if (steps.next().done) return true;
    return false;
  }, signal);
}
