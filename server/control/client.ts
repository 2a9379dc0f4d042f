// A small client of the control API (control.openapi.yaml) over fetch, typed
// from the generated types: what the Playwright fixture
// (client-records-mock/playwright) and the MCP server use to steer a mock
// running anywhere — in this process, another process, or another machine.
// It imports nothing of the server, so the fixture loads only this.
import type { components, operations } from '../../generated/control';

type Schemas = components['schemas'];
export type ScenarioRequest = Schemas['ScenarioRequest'];
export type ScenarioState = Schemas['ScenarioState'];
export type ScenarioTable = Schemas['ScenarioTable'];
export type SessionList = Schemas['SessionList'];
export type JournalPage = Schemas['JournalPage'];
export type JournalEntry = Schemas['JournalEntry'];
export type CoverageReport = Schemas['CoverageReport'];
export type JournalFilter = NonNullable<operations['readJournal']['parameters']['query']>;

/** A control answer that is not 2xx: its status and the ErrorDto's Code and Message. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = 'ControlError';
  }
}

export class ControlClient {
  /** `baseUrl`: where the mock listens, e.g. `http://127.0.0.1:4000` (the control paths are under /__control/). */
  constructor(readonly baseUrl: string) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(new URL(path, this.baseUrl.replace(/\/?$/, '/')), {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) {
      const text = await response.text();
      let error: { Code?: string; Message?: string } = {};
      try {
        error = JSON.parse(text) as typeof error;
      } catch {
        // Not an ErrorDto: not the control API answering (a proxy, another server, --control off behind one).
      }
      throw new ControlError(response.status, error.Code ?? 'HTTP', error.Message ?? text.slice(0, 200));
    }
    if (response.status === 204) return undefined as T;
    const type = response.headers.get('content-type') ?? '';
    return (type.includes('json') ? await response.json() : await response.text()) as T;
  }

  scenarios(): Promise<ScenarioTable> {
    return this.call('GET', '__control/scenarios');
  }

  serverScenario(): Promise<ScenarioState> {
    return this.call('GET', '__control/scenario');
  }

  setServerScenario(request: ScenarioRequest): Promise<ScenarioState> {
    return this.call('PUT', '__control/scenario', request);
  }

  resetServerScenario(): Promise<ScenarioState> {
    return this.call('DELETE', '__control/scenario');
  }

  session(session: string): Promise<ScenarioState> {
    return this.call('GET', `__control/sessions/${encodeURIComponent(session)}`);
  }

  sessions(limit?: number): Promise<SessionList> {
    return this.call('GET', `__control/sessions${limit === undefined ? '' : `?limit=${limit}`}`);
  }

  setSessionScenario(session: string, request: ScenarioRequest): Promise<ScenarioState> {
    return this.call('PUT', `__control/sessions/${encodeURIComponent(session)}/scenario`, request);
  }

  resetSession(session: string): Promise<void> {
    return this.call('DELETE', `__control/sessions/${encodeURIComponent(session)}`);
  }

  resetSessions(): Promise<void> {
    return this.call('DELETE', '__control/sessions');
  }

  journal(filter: JournalFilter = {}): Promise<JournalPage> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filter)) if (value !== undefined) query.set(name, String(value));
    const text = query.toString();
    return this.call('GET', `__control/journal${text ? `?${text}` : ''}`);
  }

  clearJournal(session?: string): Promise<void> {
    return this.call('DELETE', `__control/journal${session === undefined ? '' : `?session=${encodeURIComponent(session)}`}`);
  }

  coverage(): Promise<CoverageReport> {
    return this.call('GET', '__control/coverage');
  }

  coverageAs(format: 'junit' | 'html'): Promise<string> {
    return this.call('GET', `__control/coverage?format=${format}`);
  }

  resetCoverage(): Promise<void> {
    return this.call('DELETE', '__control/coverage');
  }
}
