// What the run asked and what it was first answered, one entry per distinct request, so a later check (the history
// room) can ask it again and hold the new answer to the first. Each entry keeps the request (a target-independent
// value) and a summary of the answer (answers.ts: a digest of the body, not the body), a few hundred bytes, and the
// journal keeps at most JOURNAL_LIMIT of them, so a run against a huge deployment stays small.
import type { ApiRequest, Exchange } from '../../contract/exchange';
import { summarise, type AnswerSummary } from './answers';

/** The most distinct requests a journal keeps (the first ones of the run): a few megabytes at most. */
export const JOURNAL_LIMIT = 20_000;

export interface JournalEntry {
  request: ApiRequest;
  first: AnswerSummary;
}

export class Journal {
  /** False while what is sent must not count as the run's own requests (the history room's replays, the control checks). */
  open = true;
  private readonly entries = new Map<string, JournalEntry>();

  /** Notes an answer, if its request is one to ask again: an HTTP answer to a request whose framing is HTTP's. */
  record(exchange: Exchange): void {
    if (!this.open || exchange.status === 0 || exchange.request.framing || this.entries.size >= JOURNAL_LIMIT) return;
    const key = JSON.stringify(exchange.request);
    if (!this.entries.has(key)) this.entries.set(key, { request: exchange.request, first: summarise(exchange) });
  }

  /** The entries, in the order their requests were first sent. */
  all(): JournalEntry[] {
    return [...this.entries.values()];
  }
}
