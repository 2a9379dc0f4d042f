// A request's own choices, read the same way by the server's control room (control.ts) and the page's
// (server/browser.ts): its session (X-Mock-Session, or the mock-session cookie) and the scenario it carries
// (X-Mock-Scenario, or the mock-scenario cookie), parsed once per session and text so that a flaky sequence
// continues from request to request. One reader, so a bad header gets the same 400 on both roads.
import type { ScenarioChoice, ScenarioTable } from './scenarios';
import { SESSION_NAME } from './sessions';

/** Header-carried choices kept (bounded: the texts come from callers). */
const CARRIED_CHOICES = 1_000;

type Headers = Readonly<Record<string, string | string[] | undefined>>;

export interface RequestChoice {
  session?: string;
  /** The scenario the request carries, when it carries one. */
  carried?: ScenarioChoice;
  /** What was wrong with a header or cookie (the pipeline answers it with a 400 naming it). */
  problem?: string;
}

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

export class RequestChoices {
  private readonly carried = new Map<string, ScenarioChoice>();

  constructor(private readonly table: ScenarioTable) {}

  read(headers: Headers): RequestChoice {
    let session: string | undefined;
    try {
      session = single(headers['x-mock-session'], 'X-Mock-Session') ?? cookie(headers.cookie, 'mock-session');
      if (session !== undefined && !SESSION_NAME.test(session)) {
        const source = headers['x-mock-session'] !== undefined ? "header 'X-Mock-Session'" : "cookie 'mock-session'";
        return { problem: `${source} must be 1 to 128 characters of A-Z a-z 0-9 _ . : @ -` };
      }
      const text = single(headers['x-mock-scenario'], 'X-Mock-Scenario') ?? cookie(headers.cookie, 'mock-scenario');
      if (text === undefined) return { session };
      return { session, carried: this.carriedChoice(text, session, headers['x-mock-scenario'] !== undefined) };
    } catch (error) {
      return { session, problem: (error as Error).message };
    }
  }

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
}
