// The default state store (state.ts): everything in this process's memory, as
// one process needs and nothing more. The sessions table, the journal's ring
// and the coverage counts are the bounded structures of sessions.ts,
// journal.ts and contract/coverage-report.ts; every call is answered at once.
// No Node built-in and nothing of Express (.dependency-cruiser.cjs): the
// in-process MSW handlers may run it in a browser's service worker.
import { CoverageTally } from '../../contract/coverage-report';
import { Journal, type Exchange, type JournalPage, type JournalQuery, type ProcessLabel } from './journal';
import type { ScenarioChoice, ScenarioTable } from './scenarios';
import { Sessions, type ScenarioState, type SessionList } from './sessions';
import type { StateStore } from './state';

export class MemoryState implements StateStore {
  readonly name = 'memory';
  private table!: Sessions;
  private readonly ring: Journal;
  private counts = new CoverageTally();

  constructor(
    journalSize: number,
    private readonly process: ProcessLabel,
  ) {
    this.ring = new Journal(journalSize, process);
  }

  /** The first table makes the sessions (its normal is the server's scenario unless `initial`); choices are kept as objects, so a reload's table changes nothing kept. */
  useTable(table: ScenarioTable, initial?: ScenarioChoice): void {
    if (this.table) return;
    this.table = new Sessions(table.normal, this.process);
    if (initial) this.table.setServer(initial, Date.now());
  }

  serverChoice(): ScenarioChoice {
    return this.table.serverChoice;
  }

  sessionChoice(session: string): ScenarioChoice | undefined {
    return this.table.ownChoice(session);
  }

  touch(session: string | undefined, at: number): void {
    this.table.touch(session, at);
  }

  record(exchange: Exchange): void {
    this.ring.record(exchange);
  }

  count(operationId: string | undefined, status: number, parameters: readonly string[], scenario: string): void {
    this.counts.record(operationId, status, parameters, scenario);
  }

  setServer(choice: ScenarioChoice, at: number): Promise<void> {
    this.table.setServer(choice, at);
    return Promise.resolve();
  }

  setSession(session: string, choice: ScenarioChoice, at: number): Promise<void> {
    this.table.setSession(session, choice, at);
    return Promise.resolve();
  }

  resetSession(session: string): Promise<void> {
    this.table.reset(session);
    return Promise.resolve();
  }

  resetSessions(): Promise<void> {
    this.table.resetAll();
    return Promise.resolve();
  }

  clearJournal(session?: string): Promise<void> {
    this.ring.clear(session);
    return Promise.resolve();
  }

  resetCoverage(): Promise<void> {
    this.counts = new CoverageTally();
    return Promise.resolve();
  }

  state(session?: string): Promise<ScenarioState> {
    return Promise.resolve(this.table.state(session));
  }

  sessions(limit: number): Promise<SessionList> {
    return Promise.resolve(this.table.list(limit));
  }

  journal(query: JournalQuery): Promise<JournalPage> {
    return Promise.resolve(this.ring.query(query));
  }

  tally(): Promise<CoverageTally> {
    return Promise.resolve(this.counts);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
