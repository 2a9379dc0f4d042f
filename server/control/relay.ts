// More than one process (control.openapi.yaml, "More than one process"). With
// --workers N every worker holds its own sessions, journal and tally; the
// cluster primary relays between them over node:cluster's IPC channel:
// - a switch (or a reset, a clear) made through one worker is applied by
//   every other worker before the caller gets its answer (`broadcast` waits
//   for each worker's acknowledgement, or RELAY_TIMEOUT_MS);
// - a read (journal, sessions, coverage) is asked of every worker and the
//   answers are merged by the asking worker (`gather`).
// A single process (startServer, createHandlers, --workers 1) has nobody to
// relay to: localRelay. Requests may also carry their scenario themselves
// (X-Mock-Scenario), which needs no relay at all: that is what holds across
// replicas behind one Service, which share no channel.
import cluster, { type Worker } from 'node:cluster';
import type { ScenarioRequest } from './scenarios';
import type { JournalQuery } from './journal';

/** A change every process applies (a `request` of null resets). */
export type RelayedChange =
  | { op: 'server'; request: ScenarioRequest | null; at: number }
  | { op: 'session'; session: string; request: ScenarioRequest | null; at: number }
  | { op: 'sessions-reset' }
  | { op: 'journal-clear'; session?: string }
  | { op: 'coverage-reset' };

/** A read every process answers with its own part. */
export type RelayedQuestion =
  | { kind: 'journal'; query: JournalQuery }
  | { kind: 'sessions'; limit: number }
  | { kind: 'state'; session?: string }
  | { kind: 'coverage' };

/** What a process does with what others relay to it (the Control). */
export interface RelayHandler {
  apply(change: RelayedChange): void;
  answer(question: RelayedQuestion): unknown;
}

export interface ControlRelay {
  /** Applies `change` in every other process; resolves once they have (or RELAY_TIMEOUT_MS passed). */
  broadcast(change: RelayedChange): Promise<void>;
  /** Every other process's answer to `question` (this process's own is the caller's to add). */
  gather(question: RelayedQuestion): Promise<unknown[]>;
  /** Receives what other processes relay. */
  serve(handler: RelayHandler): void;
}

/** How long a relay waits for the other workers: a worker that does not answer in time (it died) is left out. */
export const RELAY_TIMEOUT_MS = 3_000;

/** One process: nobody to relay to. */
export function localRelay(): ControlRelay {
  return {
    broadcast: () => Promise.resolve(),
    gather: () => Promise.resolve([]),
    serve: () => undefined,
  };
}

/** Messages on the cluster channel, all under one key so they never meet the process's own (ready, startupError). */
type WorkerToPrimary =
  | { broadcast: number; change: RelayedChange }
  | { gather: number; question: RelayedQuestion }
  | { ack: number }
  | { answer: number; value: unknown };
type PrimaryToWorker =
  | { apply: number; change: RelayedChange }
  | { ask: number; question: RelayedQuestion }
  | { done: number }
  | { gathered: number; answers: unknown[] };

interface Envelope<T> {
  control: T;
}

function isEnvelope<T>(message: unknown): message is Envelope<T> {
  return typeof message === 'object' && message !== null && 'control' in message;
}

/** A worker's relay: asks the primary, which asks the other workers. */
export function workerRelay(): ControlRelay {
  let next = 1;
  const waiting = new Map<number, (answers: unknown[]) => void>();
  let handler: RelayHandler | undefined;
  const send = (message: WorkerToPrimary) => process.send?.({ control: message } satisfies Envelope<WorkerToPrimary>);
  process.on('message', (message: unknown) => {
    if (!isEnvelope<PrimaryToWorker>(message)) return;
    const body = message.control;
    if ('apply' in body) {
      try {
        handler?.apply(body.change);
      } finally {
        send({ ack: body.apply });
      }
    } else if ('ask' in body) {
      let value: unknown = null;
      try {
        value = handler?.answer(body.question) ?? null;
      } finally {
        send({ answer: body.ask, value });
      }
    } else if ('done' in body) waiting.get(body.done)?.([]);
    else if ('gathered' in body) waiting.get(body.gathered)?.(body.answers);
  });
  const ask = (message: (id: number) => WorkerToPrimary): Promise<unknown[]> => {
    const id = next++;
    return new Promise((resolve) => {
      // The primary answers within its own timeout; this one only guards against a primary that is gone.
      const timer = setTimeout(() => finish([]), RELAY_TIMEOUT_MS * 2);
      const finish = (answers: unknown[]) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(answers);
      };
      waiting.set(id, finish);
      send(message(id));
    });
  };
  return {
    broadcast: async (change) => {
      await ask((id) => ({ broadcast: id, change }));
    },
    gather: (question) => ask((id) => ({ gather: id, question })),
    serve: (given) => {
      handler = given;
    },
  };
}

/**
 * The primary's part: passes a worker's broadcast or question on to every
 * other live worker and answers the worker once all have replied (or the
 * timeout passed).
 */
export function relayInPrimary(): void {
  let next = 1;
  const replies = new Map<number, { expected: Set<number>; values: unknown[]; finish: () => void }>();
  const fanOut = (from: Worker, message: (key: number) => PrimaryToWorker): Promise<unknown[]> => {
    const targets = Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => !!worker && worker !== from && worker.isConnected(),
    );
    if (targets.length === 0) return Promise.resolve([]);
    const key = next++;
    return new Promise((resolve) => {
      const pending = { expected: new Set(targets.map((worker) => worker.id)), values: [] as unknown[], finish: () => undefined as void };
      const timer = setTimeout(() => pending.finish(), RELAY_TIMEOUT_MS);
      pending.finish = () => {
        clearTimeout(timer);
        replies.delete(key);
        resolve(pending.values);
      };
      replies.set(key, pending);
      for (const worker of targets) worker.send({ control: message(key) } satisfies Envelope<PrimaryToWorker>);
    });
  };
  const reply = (worker: Worker, key: number, value: unknown) => {
    const pending = replies.get(key);
    if (!pending || !pending.expected.delete(worker.id)) return;
    if (value !== undefined) pending.values.push(value);
    if (pending.expected.size === 0) pending.finish();
  };
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isEnvelope<WorkerToPrimary>(message)) return;
    const body = message.control;
    if ('broadcast' in body) {
      void fanOut(worker, (key) => ({ apply: key, change: body.change })).then(() => worker.send({ control: { done: body.broadcast } }));
    } else if ('gather' in body) {
      void fanOut(worker, (key) => ({ ask: key, question: body.question })).then((answers) =>
        worker.send({ control: { gathered: body.gather, answers } }),
      );
    } else if ('ack' in body) reply(worker, body.ack, undefined);
    else if ('answer' in body) reply(worker, body.answer, body.value);
  });
  // A worker that exits is not waited for.
  cluster.on('exit', (worker) => {
    for (const pending of replies.values()) {
      if (pending.expected.delete(worker.id) && pending.expected.size === 0) pending.finish();
    }
  });
}
