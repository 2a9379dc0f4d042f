// The three views of one client. Simple and Extended are cut from the Detail
// record and share its nested objects, so the same client shows the same
// values everywhere by construction.
import type { ClientDetail, ClientExtended, ClientSimple } from '../contract/wire-types';

export function toSimple(client: ClientDetail): ClientSimple {
  return {
    IdClient: client.IdClient,
    FullName: client.PersonalInfo.FullName,
    PersonalId: client.PersonalInfo.PersonalId,
    Phone: client.ContactInfo.Phone,
    Email: client.ContactInfo.Email,
  };
}

// Written out rather than `{ ...toSimple(client), … }`: V8 builds the spread
// object in a slow shape (measured 10 µs per client against 0.06 µs, and JSON
// output of a page 3-5 times slower), on the path of every uncached list.
export function toExtended(client: ClientDetail): ClientExtended {
  return {
    IdClient: client.IdClient,
    FullName: client.PersonalInfo.FullName,
    PersonalId: client.PersonalInfo.PersonalId,
    Phone: client.ContactInfo.Phone,
    Email: client.ContactInfo.Email,
    PersonalInfo: client.PersonalInfo,
    ContactInfo: client.ContactInfo,
    IdStaff: client.Staff?.IdStaff ?? null,
    StaffName: client.Staff?.FullName ?? null,
    IdLocation: client.Location?.IdLocation ?? null,
    LocationName: client.Location?.Name ?? null,
    Status: client.Status,
  };
}

export type ClientView = 'ClientSimple' | 'ClientExtended' | 'ClientDetail';

/** Throws when a view of the client at `position` breaks its schema in openapi.yaml. */
export type ViewCheck = (view: ClientView, value: unknown, position: number) => void;

const PROJECT: Record<ClientView, (client: ClientDetail) => unknown> = {
  ClientSimple: toSimple,
  ClientExtended: toExtended,
  ClientDetail: (client) => client,
};

/**
 * Each client's three views as JSON text, each projected, checked against its
 * schema and serialized once, then kept: the data set is immutable, so pages
 * are assembled from these strings instead of building, validating and
 * stringifying 25 objects per request. The work is done the first time a
 * view of a client is needed, not at start, so start-up time and memory at
 * ready stay those of the data (docs/performance.md has the figures).
 * JSON.stringify of a page is its parts joined with commas, so the bytes equal
 * res.json's (tests/perf/response-parts.test.ts proves it).
 */
export class ClientParts {
  private readonly texts: Record<ClientView, (string | undefined)[]>;

  constructor(
    private readonly clients: readonly ClientDetail[],
    private readonly check?: ViewCheck,
  ) {
    this.texts = { ClientSimple: [], ClientExtended: [], ClientDetail: [] };
  }

  json(view: ClientView, position: number): string {
    let text = this.texts[view][position];
    if (text === undefined) {
      const value = PROJECT[view](this.clients[position]!);
      this.check?.(view, value, position);
      text = JSON.stringify(value);
      this.texts[view][position] = text;
    }
    return text;
  }
}
