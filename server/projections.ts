// The three views of one client. Simple and Extended are cut from the Detail
// record and share its nested objects, so the same client shows the same
// values everywhere by construction.
import type { ClientDetail, ClientExtended, ClientSimple } from '../seeds/schema-types';

export function toSimple(client: ClientDetail): ClientSimple {
  return {
    IdClient: client.IdClient,
    FullName: client.PersonalInfo.FullName,
    PersonalId: client.PersonalInfo.PersonalId,
    Phone: client.ContactInfo.Phone,
    Email: client.ContactInfo.Email,
  };
}

export function toExtended(client: ClientDetail): ClientExtended {
  return {
    ...toSimple(client),
    PersonalInfo: client.PersonalInfo,
    ContactInfo: client.ContactInfo,
    IdStaff: client.Staff?.IdStaff ?? null,
    StaffName: client.Staff?.FullName ?? null,
    IdLocation: client.Location?.IdLocation ?? null,
    LocationName: client.Location?.Name ?? null,
    Status: client.Status,
  };
}
