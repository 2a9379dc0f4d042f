// One client's every section, as a component of its data (loading, an error, or the client): like the
// list, it fetches nothing itself.
import type { ClientDetail } from './api.ts';

export type DetailState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; client: ClientDetail };

type Address = ClientDetail['ContactInfo']['Address'];
const address = (a: Address) => `${a.Street}, ${a.PostalCode} ${a.City}, ${a.Country}`;

function Section({ title, lines }: { title: string; lines: string[] }) {
  return (
    <section>
      <h3>{title}</h3>
      {lines.map((line, index) => (
        <p key={index}>{line}</p>
      ))}
    </section>
  );
}

export function ClientDetailPanel({ state }: { state: DetailState }) {
  if (state.kind === 'loading')
    return (
      <article id="detail">
        <p className="loading">Loading…</p>
      </article>
    );
  if (state.kind === 'error')
    return (
      <article id="detail">
        <p className="error">Could not load the client: {state.message}</p>
      </article>
    );
  const {
    PersonalInfo: person,
    ContactInfo: contact,
    Staff: staff,
    Location: location,
    Insurance: insurance,
    Medical: medical,
  } = state.client;
  return (
    <article id="detail">
      <h2>{person.FullName}</h2>
      <Section
        title="Personal"
        lines={[`Personal id ${person.PersonalId}`, `Born ${person.DateOfBirth}`, person.Gender, state.client.Status]}
      />
      <Section title="Contact" lines={[contact.Email, contact.Phone, address(contact.Address)]} />
      <Section title="Staff" lines={staff ? [staff.FullName, staff.Specialization, staff.Phone] : ['No staff member assigned']} />
      <Section title="Location" lines={location ? [location.Name, address(location.Address)] : ['No location']} />
      <Section title="Insurance" lines={insurance ? [insurance.Name, insurance.PolicyNumber] : ['No insurance']} />
      <Section
        title="Allergies"
        lines={medical.Allergies.length ? medical.Allergies.map((a) => `${a.Name} (${a.Severity})`) : ['None known']}
      />
      <Section
        title="Medications"
        lines={medical.Medications.length ? medical.Medications.map((m) => `${m.Name}, ${m.Dosage}, ${m.Frequency}`) : ['None']}
      />
    </article>
  );
}
