// The control room's hub: one per process, made once and kept across --watch
// reloads (the sessions, the journal and the tally outlive an app). It holds
// the state the control API reads and changes (control.openapi.yaml), decides
// each request's session and scenario for the pipeline (the hook it is given
// through the pipeline's ControlPort), and journals and counts each exchange
// when its answer is done. The pipeline applies the scenario; this file only
// chooses it. Changes and reads go through a relay, so that with --workers N
// every worker sees a switch and a read covers every worker (relay.ts).
import os from 'node:os';
import { mergeCoverage, type CoverageReport } from '../../contract/coverage-report';
import type { SpecSource } from '../../contract/spec';
import type { AnswerEnd, RequestContext, RequestLine } from '../pipeline/request';
import { ConsumerCoverage } from './coverage';
import { CONTROL_PREFIX } from './document';
import { Journal, mergePages, type JournalPage, type JournalQuery, type ProcessLabel } from './journal';
import { localRelay, type ControlRelay, type RelayedChange, type RelayedQuestion } from './relay';
import { inBody, ScenarioTable, type ScenarioChoice, type ScenarioDefinition, type ScenarioRequest } from './scenarios';
import { mergeLists, mergeStates, SESSION_NAME, Sessions, type ScenarioState } from './sessions';

export interface ControlSettings {
  /** The control API is on (--control): sessions and scenarios are honoured and exchanges journaled. Off, only coverage is counted. */
  steering: boolean;
  /** Entries the journal keeps (--journal-size); 0 keeps none. */
  journalSize: number;
  /** The server's SEED: flaky's default seed. */
  seed: number;
  /** The server's scenario at start (--scenario), in the X-Mock-Scenario syntax; undefined = normal. */
  scenario: string | undefined;
  /** What the coverage report names as measured, e.g. `mock seed 1, 1000 clients`. */
  source: string;
  /** Facts of the run for the coverage report. */
  run: Record<string, string | number | boolean>;
}

/** Header-carried choices kept, so that a flaky sequence continues from request to request (bounded). */
const CARRIED_CHOICES = 1_000;

function single(value: string | string[] | undefined, header: string): string | undefined {
  if (Array.isArray(value)) throw new Error(`header '${header}' is given ${value.length} times`);
  return value;
}

function cookie(header: string | string[] | undefined, name: string): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = new RegExp(`(?:^|;)\\s*${name}=([^;]*)`).exec(header);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!.trim());
  } catch {
    return match[1]!.trim();
  }
}

export class Control {
  readonly process: ProcessLabel = { host: os.hostname().slice(0, 255), pid: process.pid };
  readonly journal: Journal;
  private table!: ScenarioTable;
  private sessions!: Sessions;
  private tally!: ConsumerCoverage;
  private readonly carried = new Map<string, ScenarioChoice>();

  constructor(
    private readonly settings: Readonly<ControlSettings>,
    private readonly relay: ControlRelay = localRelay(),
  ) {
    this.journal = new Journal(settings.journalSize, this.process);
    relay.serve({ apply: (change) => this.apply(change), answer: (question) => this.answer(question) });
  }

  /**
   * The served spec, at start and at every --watch reload: the scenario table
   * is derived from it again (a new example is a new scenario). Throws a
   * one-line Error when --scenario names no scenario of it.
   */
  useSpec(spec: SpecSource): void {
    const table = new ScenarioTable(spec.document, this.settings.seed);
    if (!this.sessions) {
      const initial = this.settings.scenario === undefined ? table.normal : table.parse(this.settings.scenario, '--scenario');
      this.sessions = new Sessions(table.normal, this.process);
      if (initial !== table.normal) this.sessions.setServer(initial, Date.now());
      this.tally = new ConsumerCoverage(spec.document, table.definitions, this.settings.source, this.settings.run);
    } else this.tally.useSpec(spec.document, table.definitions);
    this.table = table;
    this.carried.clear();
  }

  get scenarios(): readonly ScenarioDefinition[] {
    return this.table.definitions;
  }

  // --- the request hook (the pipeline calls it first for every request) ---

  /**
   * Decides the request's session and scenario and, when its answer is done,
   * journals and counts it. Control requests, CORS preflights and the docs
   * page are neither journaled nor counted.
   */
  begin(req: RequestLine, res: AnswerEnd, context: RequestContext): void {
    const url = req.url ?? '/';
    if (url.startsWith(CONTROL_PREFIX)) return;
    const headers = req.headers;
    if (req.method === 'OPTIONS' && headers['access-control-request-method'] !== undefined) return;
    if (!this.settings.steering) {
      res.on('close', () => {
        if (context.label === undefined && res.headersSent) this.count(context, url, res.statusCode, headers, 'normal');
      });
      return;
    }
    const at = Date.now();
    let session: string | undefined;
    let choice: ScenarioChoice | undefined;
    try {
      session = single(headers['x-mock-session'], 'X-Mock-Session') ?? cookie(headers.cookie, 'mock-session');
      if (session !== undefined && !SESSION_NAME.test(session)) {
        const source = headers['x-mock-session'] !== undefined ? "header 'X-Mock-Session'" : "cookie 'mock-session'";
        session = undefined;
        throw new Error(`${source} must be 1 to 128 characters of A-Z a-z 0-9 _ . : @ -`);
      }
      const carried = single(headers['x-mock-scenario'], 'X-Mock-Scenario') ?? cookie(headers.cookie, 'mock-scenario');
      if (carried !== undefined) choice = this.carriedChoice(carried, session, headers['x-mock-scenario'] !== undefined);
    } catch (error) {
      context.scenarioProblem = (error as Error).message;
    }
    choice ??= (session === undefined ? undefined : this.sessions.ownChoice(session)) ?? this.sessions.serverChoice;
    context.scenario = choice.kind === 'normal' ? undefined : choice;
    res.on('close', () => {
      // A docs or spec route (labelled by the pipeline) is no exchange of the API.
      if (context.label !== undefined) return;
      const operationId = context.route?.operation.operationId;
      this.sessions.touch(session, at);
      this.journal.record({
        at,
        method: req.method ?? '',
        url,
        operationId: operationId ?? null,
        status: res.headersSent ? res.statusCode : 0,
        code: context.errorCode ?? null,
        durationMs: performance.now() - context.startedAt,
        scenario: choice.name,
        session: session ?? null,
        requestId: context.id,
        rawHeaders: req.rawHeaders,
      });
      if (res.headersSent) this.count(context, url, res.statusCode, headers, choice.name);
    });
  }

  private count(context: RequestContext, url: string, status: number, headers: RequestLine['headers'], scenario: string): void {
    const question = url.indexOf('?');
    this.tally.record(context.route?.operation.operationId, status, question < 0 ? '' : url.slice(question + 1), headers, scenario);
  }

  get steering(): boolean {
    return this.settings.steering;
  }

  /** An X-Mock-Scenario value (or cookie) as a choice: parsed once per session and value, so a flaky sequence goes on. */
  private carriedChoice(text: string, session: string | undefined, fromHeader: boolean): ScenarioChoice {
    const key = `${session ?? ''}\u0000${text}`;
    let choice = this.carried.get(key);
    if (!choice) {
      choice = this.table.parse(text, fromHeader ? "header 'X-Mock-Scenario'" : "cookie 'mock-scenario'");
      if (this.carried.size >= CARRIED_CHOICES) this.carried.delete(this.carried.keys().next().value!);
      this.carried.set(key, choice);
    }
    return choice;
  }

  // --- changes: made here, then relayed to every other process ---

  /** The server's scenario; `request` null resets it to normal. Throws a ScenarioError naming a bad field. */
  async setServer(request: ScenarioRequest | null): Promise<ScenarioState> {
    const at = Date.now();
    this.apply({ op: 'server', request, at });
    await this.relay.broadcast({ op: 'server', request, at });
    return this.serverState();
  }

  async setSession(session: string, request: ScenarioRequest): Promise<ScenarioState> {
    const at = Date.now();
    this.apply({ op: 'session', session, request, at });
    await this.relay.broadcast({ op: 'session', session, request, at });
    return this.sessionState(session);
  }

  async resetSession(session: string): Promise<void> {
    await this.change({ op: 'session', session, request: null, at: Date.now() });
  }

  async resetSessions(): Promise<void> {
    await this.change({ op: 'sessions-reset' });
  }

  async clearJournal(session?: string): Promise<void> {
    await this.change({ op: 'journal-clear', ...(session === undefined ? {} : { session }) });
  }

  async resetCoverage(): Promise<void> {
    await this.change({ op: 'coverage-reset' });
  }

  private async change(change: RelayedChange): Promise<void> {
    this.apply(change);
    await this.relay.broadcast(change);
  }

  private apply(change: RelayedChange): void {
    switch (change.op) {
      case 'server':
        this.sessions.setServer(change.request ? this.table.choose(change.request, inBody) : this.table.normal, change.at);
        return;
      case 'session':
        if (change.request) this.sessions.setSession(change.session, this.table.choose(change.request, inBody), change.at);
        else this.sessions.reset(change.session);
        return;
      case 'sessions-reset':
        this.sessions.resetAll();
        return;
      case 'journal-clear':
        this.journal.clear(change.session);
        return;
      case 'coverage-reset':
        this.tally.reset();
        return;
    }
  }

  // --- reads: this process's part, merged with every other process's ---

  private answer(question: RelayedQuestion): unknown {
    switch (question.kind) {
      case 'journal':
        return this.journal.query(question.query);
      case 'sessions':
        return this.sessions.list(question.limit);
      case 'state':
        return this.sessions.state(question.session);
      case 'coverage':
        return this.tally.report();
    }
  }

  async serverState(): Promise<ScenarioState> {
    const others = (await this.relay.gather({ kind: 'state' })) as ScenarioState[];
    return mergeStates([this.sessions.state(), ...others]);
  }

  async sessionState(session: string): Promise<ScenarioState> {
    const others = (await this.relay.gather({ kind: 'state', session })) as ScenarioState[];
    return mergeStates([this.sessions.state(session), ...others]);
  }

  async listSessions(limit: number): Promise<{ sessions: ScenarioState[]; known: number; capacity: number }> {
    const others = (await this.relay.gather({ kind: 'sessions', limit })) as ReturnType<Sessions['list']>[];
    return mergeLists([this.sessions.list(limit), ...others], limit);
  }

  async readJournal(query: JournalQuery): Promise<JournalPage> {
    const others = (await this.relay.gather({ kind: 'journal', query })) as JournalPage[];
    return others.length === 0 ? this.journal.query(query) : mergePages([this.journal.query(query), ...others], query.limit);
  }

  /** The coverage of this process, or (with workers) of every worker merged. */
  async coverage(): Promise<CoverageReport> {
    const others = (await this.relay.gather({ kind: 'coverage' })) as CoverageReport[];
    return mergeReports([this.tally.report(), ...others]);
  }

  /** This process's coverage alone, synchronously (the report at exit of a single process). */
  localCoverage(): CoverageReport {
    return this.tally.report();
  }
}

/** Several processes' consumer reports as one (the same source and run facts; requests added, what any reached). */
export function mergeReports(reports: readonly CoverageReport[]): CoverageReport {
  const [first, ...rest] = reports;
  if (!first) throw new Error('mergeReports: no report');
  if (rest.length === 0) return first;
  const merged = rest.reduce((a, b) => mergeCoverage(a, b), first);
  return { ...merged, source: first.source, ...(first.run ? { run: { ...first.run, processes: reports.length } } : {}) };
}
