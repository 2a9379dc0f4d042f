// The control room's hub: one per process, made once and kept across --watch
// reloads (the sessions, the journal and the tally outlive an app). It holds
// the state the control API reads and changes (control.openapi.yaml), decides
// each request's session and scenario for the pipeline (the hook it is given
// through the pipeline's ControlPort), and journals and counts each exchange
// when its answer is done. The pipeline applies the scenario; this file only
// chooses it. What it shares (the server's scenario, the sessions, the
// journal, the coverage counts) lives in a state store (state.ts): this
// process's memory, or Redis, through which every worker and replica sees
// the same state.
import type { CoverageReport } from '../../contract/coverage-report';
import type { SpecSource } from '../../contract/spec';
import type { AnswerEnd, RequestContext, RequestLine } from '../pipeline/request';
import { ConsumerCoverage } from './coverage';
import { CONTROL_PREFIX } from './document';
import type { JournalPage, JournalQuery } from './journal';
import { inBody, ScenarioTable, type ScenarioChoice, type ScenarioDefinition, type ScenarioRequest } from './scenarios';
import { RequestChoices } from './choices';
import type { ScenarioState, SessionList } from './sessions';
import type { StateStore } from './state';

export interface ControlSettings {
  /** The control API is on (--control): sessions and scenarios are honoured and exchanges journaled. Off, only coverage is counted. */
  steering: boolean;
  /** The server's SEED: flaky's default seed. */
  seed: number;
  /** The server's scenario at start (--scenario), in the X-Mock-Scenario syntax; undefined = normal. */
  scenario: string | undefined;
  /** What the coverage report names as measured, e.g. `mock seed 1, 1000 clients`. */
  source: string;
  /** Facts of the run for the coverage report. */
  run: Record<string, string | number | boolean>;
}

export class Control {
  private table!: ScenarioTable;
  private tally!: ConsumerCoverage;
  private choices!: RequestChoices;

  constructor(
    private readonly settings: Readonly<ControlSettings>,
    /** Where the state lives (memory-state.ts, or redis-state.ts with --state); the control room's from now on. */
    readonly store: StateStore,
  ) {}

  /**
   * The served spec, at start and at every --watch reload: the scenario table
   * is derived from it again (a new example is a new scenario). Throws a
   * one-line Error when --scenario names no scenario of it.
   */
  useSpec(spec: SpecSource): void {
    const table = new ScenarioTable(spec.document, this.settings.seed);
    if (!this.tally) {
      const initial = this.settings.scenario === undefined ? undefined : table.parse(this.settings.scenario, '--scenario');
      this.store.useTable(table, initial?.kind === 'normal' ? undefined : initial);
      this.tally = new ConsumerCoverage(spec.document, table.definitions, this.settings.source, this.settings.run);
    } else {
      this.store.useTable(table);
      this.tally.useSpec(spec.document, table.definitions);
    }
    this.table = table;
    this.choices = new RequestChoices(table);
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
    const { session, carried, problem } = this.choices.read(headers);
    if (problem !== undefined) context.scenarioProblem = problem;
    const choice: ScenarioChoice =
      carried ?? (session === undefined ? undefined : this.store.sessionChoice(session)) ?? this.store.serverChoice();
    context.scenario = choice.kind === 'normal' ? undefined : choice;
    res.on('close', () => {
      // A docs or spec route (labelled by the pipeline) is no exchange of the API.
      if (context.label !== undefined) return;
      const operationId = context.route?.operation.operationId;
      this.store.touch(session, at);
      this.store.record({
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
    const operationId = context.route?.operation.operationId;
    this.store.count(operationId, status, this.tally.names(operationId, question < 0 ? '' : url.slice(question + 1), headers), scenario);
  }

  get steering(): boolean {
    return this.settings.steering;
  }

  /** An X-Mock-Scenario value (or cookie) as a choice: parsed once per session and value, so a flaky sequence goes on. */
  // --- changes and reads: the store's, whichever process it serves ---

  /** The server's scenario; `request` null resets it to normal. Throws a ScenarioError naming a bad field. */
  async setServer(request: ScenarioRequest | null): Promise<ScenarioState> {
    await this.store.setServer(request ? this.table.choose(request, inBody) : this.table.normal, Date.now());
    return this.store.state();
  }

  async setSession(session: string, request: ScenarioRequest): Promise<ScenarioState> {
    await this.store.setSession(session, this.table.choose(request, inBody), Date.now());
    return this.store.state(session);
  }

  resetSession(session: string): Promise<void> {
    return this.store.resetSession(session);
  }

  resetSessions(): Promise<void> {
    return this.store.resetSessions();
  }

  clearJournal(session?: string): Promise<void> {
    return this.store.clearJournal(session);
  }

  resetCoverage(): Promise<void> {
    return this.store.resetCoverage();
  }

  serverState(): Promise<ScenarioState> {
    return this.store.state();
  }

  sessionState(session: string): Promise<ScenarioState> {
    return this.store.state(session);
  }

  listSessions(limit: number): Promise<SessionList> {
    return this.store.sessions(limit);
  }

  readJournal(query: JournalQuery): Promise<JournalPage> {
    return this.store.journal(query);
  }

  /** The coverage of the traffic every process of the store answered. */
  async coverage(): Promise<CoverageReport> {
    return this.tally.report(await this.store.tally());
  }
}
