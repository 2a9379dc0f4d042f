// Sessions (control.openapi.yaml, "Sessions"): a test, a Playwright worker or
// a browser tab names itself once (X-Mock-Session, or the mock-session
// cookie) and from then on its requests are answered in its own scenario and
// journaled under its name, whatever the other sessions and the server are
// doing. Hundreds of parallel end-to-end tests each make one, so the table is
// bounded: the CAPACITY sessions used most recently are kept (a Map in
// least-recently-used order), an older one is forgotten and follows the
// server's scenario again. A session needs no creation: it is known from its
// first request or its first switch.
import type { components } from '../../generated/control';
import type { ProcessLabel } from './journal';
import type { ScenarioChoice } from './scenarios';

export type ScenarioState = components['schemas']['ScenarioState'];

/** Sessions kept per process (control.openapi.yaml states it): ~200 bytes each, ~2 MB at most. */
export const SESSION_CAPACITY = 10_000;

/** control.openapi.yaml, SessionName. */
export const SESSION_NAME = /^[A-Za-z0-9_.:@-]{1,128}$/;

/** What the control API lists of the sessions (listSessions). */
export type SessionList = { sessions: ScenarioState[]; known: number; capacity: number };

/** What a store knows of a session, or of the server (whose choice is always set). */
export interface SessionRecord {
  /** The session's own scenario, or undefined: it follows the server's. */
  choice: ScenarioChoice | undefined;
  since: number | undefined;
  requests: number;
  lastSeen: number | undefined;
}

const iso = (time: number | undefined) => (time === undefined ? null : new Date(time).toISOString());

/** The server's state (`session` undefined) or a session's (`record` undefined: never seen), as the control API answers it. */
export function scenarioState(
  session: string | undefined,
  record: SessionRecord | undefined,
  server: SessionRecord & { choice: ScenarioChoice },
  process: ProcessLabel,
): ScenarioState {
  if (session === undefined) {
    return {
      session: null,
      scenario: server.choice.wire,
      own: true,
      since: iso(server.since),
      requests: server.requests,
      lastSeen: iso(server.lastSeen),
      sendHeaders: server.choice.kind === 'normal' ? {} : { 'X-Mock-Scenario': server.choice.wire.header },
      process,
    };
  }
  const choice = record?.choice ?? server.choice;
  return {
    session,
    scenario: choice.wire,
    own: record?.choice !== undefined,
    since: iso(record?.choice ? record.since : server.since),
    requests: record?.requests ?? 0,
    lastSeen: iso(record?.lastSeen),
    sendHeaders: {
      'X-Mock-Session': session,
      ...(record?.choice ? { 'X-Mock-Scenario': record.choice.wire.header } : {}),
    },
    process,
  };
}

export class Sessions {
  private readonly table = new Map<string, SessionRecord>();
  private server: SessionRecord & { choice: ScenarioChoice };

  constructor(
    normal: ScenarioChoice,
    private readonly process: ProcessLabel,
    private readonly capacity = SESSION_CAPACITY,
  ) {
    this.server = { choice: normal, since: undefined, requests: 0, lastSeen: undefined };
  }

  get size(): number {
    return this.table.size;
  }

  /** The server's scenario: what a request without a scenario of its own is answered in. */
  get serverChoice(): ScenarioChoice {
    return this.server.choice;
  }

  /** The session's own scenario (undefined: it follows the server's). Does not count as a use. */
  ownChoice(name: string): ScenarioChoice | undefined {
    return this.table.get(name)?.choice;
  }

  /** One request arrived (of `session`, or of none): counted, and the session becomes the most recently used. */
  touch(session: string | undefined, now: number): void {
    this.server.requests += 1;
    this.server.lastSeen = now;
    if (session === undefined) return;
    const record = this.use(session);
    record.requests += 1;
    record.lastSeen = now;
  }

  setServer(choice: ScenarioChoice, now: number): void {
    this.server = { ...this.server, choice, since: now };
  }

  setSession(session: string, choice: ScenarioChoice, now: number): void {
    const record = this.use(session);
    record.choice = choice;
    record.since = now;
  }

  reset(session: string): void {
    this.table.delete(session);
  }

  resetAll(): void {
    this.table.clear();
  }

  /** The server's state (`session` undefined) or a session's, as the control API answers it. */
  state(session?: string): ScenarioState {
    return scenarioState(session, session === undefined ? undefined : this.table.get(session), this.server, this.process);
  }

  /** Known sessions, most recently used first. */
  list(limit: number): SessionList {
    const names = [...this.table.keys()].reverse().slice(0, limit);
    return { sessions: names.map((name) => this.state(name)), known: this.table.size, capacity: this.capacity };
  }

  private use(session: string): SessionRecord {
    let record = this.table.get(session);
    if (record) this.table.delete(session);
    else {
      record = { choice: undefined, since: undefined, requests: 0, lastSeen: undefined };
      // Full: the least recently used session is forgotten (Map keeps insertion order).
      if (this.table.size >= this.capacity) this.table.delete(this.table.keys().next().value!);
    }
    this.table.set(session, record);
    return record;
  }
}
