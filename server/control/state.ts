// Where the control room keeps what it shares (control.openapi.yaml, "More
// than one process"): the server's scenario, the sessions and their
// scenarios, the journal and the consumer coverage's counts. One interface,
// two stores: the in-memory one (memory-state.ts, the default: one process
// needs nothing else) and Redis (redis-state.ts, --state redis://…), through
// which every worker and every replica sees the same state.
//
// The request path only calls the synchronous half: a choice is read from
// this process's memory (Redis keeps a local copy fresh), and an exchange is
// handed over to be written, never waited for. The asynchronous half is the
// control API's; a store that cannot answer it rejects with a StoreUnavailable.
//
// This file and memory-state.ts import no Node built-in and nothing of
// Express (.dependency-cruiser.cjs): the in-memory store also runs in a
// browser's service worker.
import type { CoverageTally } from '../../contract/coverage-report';
import type { Exchange, JournalPage, JournalQuery } from './journal';
import type { ScenarioChoice, ScenarioTable } from './scenarios';
import type { ScenarioState, SessionList } from './sessions';

export interface StateStore {
  /** How messages name the store: `memory`, or `Redis at redis://host:port`. */
  readonly name: string;

  // --- the request path: synchronous, from this process's memory ---

  /** The server's scenario: what a request without a scenario of its own is answered in. */
  serverChoice(): ScenarioChoice;
  /** The session's own scenario (undefined: it follows the server's). */
  sessionChoice(session: string): ScenarioChoice | undefined;
  /** One request arrived (of `session`, or of none): counted, the session the most recently used. */
  touch(session: string | undefined, at: number): void;
  /** One exchange for the journal (the journal cuts and redacts). */
  record(exchange: Exchange): void;
  /** One exchange for the coverage: its operation (undefined: none), status, documented parameters sent, scenario. */
  count(operationId: string | undefined, status: number, parameters: readonly string[], scenario: string): void;

  // --- the control API's changes: seen by every process of the store once they resolve ---

  setServer(choice: ScenarioChoice, at: number): Promise<void>;
  setSession(session: string, choice: ScenarioChoice, at: number): Promise<void>;
  resetSession(session: string): Promise<void>;
  resetSessions(): Promise<void>;
  clearJournal(session?: string): Promise<void>;
  resetCoverage(): Promise<void>;

  // --- the control API's reads: every exchange answered before the read began is in them ---

  /** The server's state (`session` undefined) or a session's. */
  state(session?: string): Promise<ScenarioState>;
  /** Known sessions, most recently used first. */
  sessions(limit: number): Promise<SessionList>;
  journal(query: JournalQuery): Promise<JournalPage>;
  /** The coverage counts so far. */
  tally(): Promise<CoverageTally>;

  // --- life ---

  /**
   * The scenario table of the served spec, at start and at each --watch reload
   * (a store that keeps choices as text reads them with it), before any other
   * call. `initial`, at start only: the server's scenario (--scenario), taken
   * when the store holds none yet (a replica that restarts keeps the one set).
   */
  useTable(table: ScenarioTable, initial?: ScenarioChoice): void;
  /** Writes what is pending and lets go of connections. */
  close(): Promise<void>;
}

/** The store cannot answer now (Redis down or too slow): the control API answers 503 STORE_UNAVAILABLE naming it. */
export class StoreUnavailable extends Error {}
