// Where a store's clients come from. The store needs every client's id and
// name at once (the documented order and the id index are made from them),
// but a whole record only when something reads it: a generated set can then
// be ordered without being made (seeds/client.ts, generatedSource), and an
// in-process set-up pays for the records its tests reach (issue 26 item 6).
import type { ClientDetail } from '../../contract/wire-types';

export interface ClientSource {
  readonly count: number;
  /** The IdClient of client `index` (as the record has it). */
  idOf(index: number): string;
  /** The PersonalInfo.FullName of client `index`. */
  nameOf(index: number): string;
  /** Client `index` whole; equal in every field each time it is asked for. */
  record(index: number): ClientDetail;
}

/** A source over records already made (a data file, a generated array). */
export function sourceOf(clients: readonly ClientDetail[]): ClientSource {
  return {
    count: clients.length,
    idOf: (index) => clients[index]!.IdClient,
    nameOf: (index) => clients[index]!.PersonalInfo.FullName,
    record: (index) => clients[index]!,
  };
}
