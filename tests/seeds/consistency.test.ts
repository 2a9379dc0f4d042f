// Realism and self-consistency of the generated data (docs/data.md).
import { generateClients, ClientGenerator } from '../../seeds/client';
import { isValidPersonalId, luhnCheckDigit, REFERENCE_DATE_UTC } from '../../seeds/personal-id';
import { emailToken } from '../../seeds/text';
import { INSURER_COUNT, LOCATION_COUNT, STAFF_COUNT } from '../../seeds/pools';
import { toExtended, toSimple } from '../../server/engine/projections';

const clients = generateClients(1, 20_000);
const share = (predicate: (c: (typeof clients)[number]) => boolean) => clients.filter(predicate).length / clients.length;

describe('PersonalId', () => {
  test.each([
    ['811218987', 6],
    ['640823323', 4],
    ['000000000', 0],
  ])('luhnCheckDigit(%s) → %i (the Swedish reference examples)', (digits, check) => {
    expect(luhnCheckDigit(digits)).toBe(check);
  });

  test('every PersonalId carries a valid Luhn check digit and a real date', () => {
    expect(clients.filter((c) => !isValidPersonalId(c.PersonalInfo.PersonalId))).toEqual([]);
  });

  test('a changed digit → the check digit no longer matches', () => {
    const id = clients[0]!.PersonalInfo.PersonalId;
    const tampered = id.slice(0, 9) + String((Number(id[9]) + 1) % 10) + id.slice(10);

    expect(isValidPersonalId(tampered)).toBe(false);
  });

  test('PersonalId encodes DateOfBirth', () => {
    for (const c of clients) {
      expect(c.PersonalInfo.PersonalId.slice(0, 8)).toBe(c.PersonalInfo.DateOfBirth.replace(/-/g, ''));
    }
  });

  test('PersonalId, IdClient and Email are unique over 20,000 clients', () => {
    expect(new Set(clients.map((c) => c.PersonalInfo.PersonalId)).size).toBe(clients.length);
    expect(new Set(clients.map((c) => c.IdClient)).size).toBe(clients.length);
    expect(new Set(clients.map((c) => c.ContactInfo.Email)).size).toBe(clients.length);
  });
});

describe('people', () => {
  test('FullName is "FirstName LastName"', () => {
    for (const c of clients) expect(c.PersonalInfo.FullName).toBe(`${c.PersonalInfo.FirstName} ${c.PersonalInfo.LastName}`);
  });

  test('the e-mail is derived from the name, on a reserved example domain', () => {
    for (const c of clients) {
      const [local, domain] = c.ContactInfo.Email.split('@') as [string, string];
      expect(local.startsWith(`${emailToken(c.PersonalInfo.FirstName)}.${emailToken(c.PersonalInfo.LastName)}`)).toBe(true);
      expect(['example.com', 'example.org', 'example.net']).toContain(domain);
    }
  });

  test('ages are 0 to 100 on the fixed reference date', () => {
    const ages = clients.map((c) => (REFERENCE_DATE_UTC - Date.parse(c.PersonalInfo.DateOfBirth)) / (365.2425 * 86_400_000));

    expect(Math.min(...ages)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ages)).toBeLessThan(101);
    expect(Math.max(...ages)).toBeGreaterThan(95);
    expect(Math.min(...ages)).toBeLessThan(1);
  });

  test('names with accents and with apostrophes are present', () => {
    expect(share((c) => /[^\x20-\x7e]/.test(c.PersonalInfo.FullName))).toBeGreaterThan(0.2);
    expect(clients.some((c) => c.PersonalInfo.FullName.includes("'"))).toBe(true);
  });

  test('all four genders occur, mostly Male and Female', () => {
    const genders = new Set(clients.map((c) => c.PersonalInfo.Gender));

    expect([...genders].sort()).toEqual(['Female', 'Male', 'Other', 'Unknown']);
    expect(share((c) => c.PersonalInfo.Gender === 'Male' || c.PersonalInfo.Gender === 'Female')).toBeGreaterThan(0.95);
  });
});

describe('status, references and medical data', () => {
  test('about 80% of clients are Active', () => {
    expect(share((c) => c.Status === 'Active')).toBeGreaterThan(0.77);
    expect(share((c) => c.Status === 'Active')).toBeLessThan(0.83);
  });

  test('some clients have no Staff, no Location or no Insurance (null)', () => {
    expect(share((c) => c.Staff === null)).toBeGreaterThan(0.05);
    expect(share((c) => c.Location === null)).toBeGreaterThan(0.02);
    expect(share((c) => c.Insurance === null)).toBeGreaterThan(0.1);
  });

  test('0 to 3 distinct allergies with severities, 0 to 5 distinct medications, every count present', () => {
    const allergyCounts = new Set(clients.map((c) => c.Medical.Allergies.length));
    const medicationCounts = new Set(clients.map((c) => c.Medical.Medications.length));

    expect([...allergyCounts].sort()).toEqual([0, 1, 2, 3]);
    expect([...medicationCounts].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const c of clients) {
      expect(new Set(c.Medical.Allergies.map((a) => a.Name)).size).toBe(c.Medical.Allergies.length);
      expect(new Set(c.Medical.Medications.map((m) => m.Name)).size).toBe(c.Medical.Medications.length);
    }
  });

  test('pools have fixed sizes (60 staff, 12 locations, 8 insurers) whatever the count', () => {
    const pools = new ClientGenerator(1).pools;
    const staffSeen = new Set(clients.flatMap((c) => (c.Staff ? [c.Staff.IdStaff] : [])));
    const locationsSeen = new Set(clients.flatMap((c) => (c.Location ? [c.Location.IdLocation] : [])));
    const insurersSeen = new Set(clients.flatMap((c) => (c.Insurance ? [c.Insurance.IdInsurance] : [])));

    expect([pools.staff.length, pools.locations.length, pools.insurers.length]).toEqual([STAFF_COUNT, LOCATION_COUNT, INSURER_COUNT]);
    expect([staffSeen.size, locationsSeen.size, insurersSeen.size]).toEqual([60, 12, 8]);
  });

  test("a location's clients mostly live in its city", () => {
    const withLocation = clients.filter((c) => c.Location);

    expect(
      withLocation.filter((c) => c.ContactInfo.Address.City === c.Location!.Address.City).length / withLocation.length,
    ).toBeGreaterThan(0.7);
  });
});

describe('views agree with the detail', () => {
  test("Simple fields equal the Detail sections; Extended PersonalInfo and ContactInfo equal the Detail's", () => {
    for (const c of clients.slice(0, 2000)) {
      const simple = toSimple(c);
      const extended = toExtended(c);
      expect(simple).toEqual({
        IdClient: c.IdClient,
        FullName: c.PersonalInfo.FullName,
        PersonalId: c.PersonalInfo.PersonalId,
        Phone: c.ContactInfo.Phone,
        Email: c.ContactInfo.Email,
      });
      expect(extended.PersonalInfo).toEqual(c.PersonalInfo);
      expect(extended.ContactInfo).toEqual(c.ContactInfo);
      expect([extended.IdStaff, extended.StaffName]).toEqual([c.Staff?.IdStaff ?? null, c.Staff?.FullName ?? null]);
      expect([extended.IdLocation, extended.LocationName]).toEqual([c.Location?.IdLocation ?? null, c.Location?.Name ?? null]);
      expect(extended.Status).toBe(c.Status);
    }
  });
});
