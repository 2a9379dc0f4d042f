// Why: a contract suite is only trustworthy if it passes every correct deployment, whatever data that
// deployment holds. These are the data shapes the third implementation can be started with: the ordinary
// case and the edges openapi.yaml allows (no clients, one, two, nobody with Staff or Location, nobody
// inactive, everybody inactive, 20,000 clients, names outside Latin and at their maximum length). They are
// generated here, deterministically, with other choices than the project's seeds (uuid versions 7 and 8,
// other name pools, other phone forms), and every record is checked with rules.ts before it is served.
import type { ClientDetail, Insurance, Location, Staff, Address, Allergy, Medication, Gender } from '../../contract/wire-types';
import { checkDataSet, fold, luhnDigit } from './rules';

export const SHAPES = [
  'typical',
  'empty',
  'tiny1',
  'tiny2',
  'noStaff',
  'noLocation',
  'noInactive',
  'allInactive',
  'large',
  'unicode',
] as const;
export type ShapeName = (typeof SHAPES)[number];

/** mulberry32: small, deterministic, good enough for test data. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  private readonly r: () => number;
  private counter = 0;
  constructor(seed: number) {
    this.r = rng(seed);
  }
  next(): number {
    return this.r();
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.r() * items.length)]!;
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(this.r() * 16).toString(16);
    return s;
  }
  /** RFC 9562 version 7: 48-bit Unix milliseconds, version 7, random, variant 10. */
  uuid7(): string {
    const ms = (1_700_000_000_000 + ++this.counter * 977).toString(16).padStart(12, '0');
    const variant = (8 + this.int(0, 3)).toString(16);
    return `${ms.slice(0, 8)}-${ms.slice(8)}-7${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }
  /** RFC 9562 version 8 (custom): version nibble 8, variant 10. */
  uuid8(): string {
    const variant = (8 + this.int(0, 3)).toString(16);
    return `${this.hex(8)}-${this.hex(4)}-8${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }
}

const FIRST = [
  'Åsa', 'Linnéa', 'Björn', 'Sören', 'Märta', 'Åke', 'Ingrid', 'Lars', 'Karin', 'Erik', 'Anna', 'Maja', 'Elsa', 'Nils', 'Oskar',
  'Sven', 'Astrid', 'Gösta', 'Håkan', 'Jörgen', 'Mårten', 'Zoë', 'Chloé', 'José', 'François', 'Łukasz', 'Małgorzata', 'Søren',
  'Bjørn', 'Þórunn', 'Yıldız', 'Işıl', 'Ebba', 'Wilma', 'Alva', 'Saga', 'Hugo', 'Liam', 'Noah', 'Ella', 'Freja', 'Tove',
  'Agnes', 'Vera', 'Ida', 'Olle', 'Ove', 'Siv', 'Göran', 'Anders', 'Amir', 'Fatima', 'Mehmet', 'Aleksandra', 'Dženana', 'Đorđe',
]; // prettier-ignore
const LAST = [
  'Lindqvist', 'Öberg', 'Åkesson', 'Bergström', 'Nyström', 'Ek', 'Holm', 'Strand', 'Sandberg', 'Wikström', 'Löfgren', 'Ødegaard',
  'Østergaard', 'Strauß', 'Weißmann', 'Kowalczyk', 'Wałęsa', 'Đoković', 'Ðurić', 'Þorsteinsdóttir', 'Œuvrard', 'Yılmaz', 'Kılıç',
  'Sæther', 'Ängström', 'Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson', 'Svensson',
  "O'Brien", 'Berg-Lind', 'de la Cruz', 'van Dijk', 'Mäkinen', 'Virtanen', 'Hämäläinen', 'Çelik', 'Ibrahim', 'Nguyễn',
]; // prettier-ignore
/** Letters the folding rule does not replace ("any other letter (e.g. ŋ, ħ, ə) matches only itself"). */
const UNFOLDED_FIRST = ['Áŋŋe', 'Ħarry', 'Əli', 'Ŋalla'];
const UNFOLDED_LAST = ['Ħili', 'Həsənov', 'Ŋuolja', 'Ħabib'];
const NON_LATIN_FIRST = ['Αθηνά', 'Дмитрий', 'Ольга', '美咲', '太郎', 'محمد', 'יעל', 'सीता', 'Σωκράτης', 'Ђорђе', '지민'];
const NON_LATIN_LAST = ['Παπαδοπούλου', 'Смирнов', 'Иванова', '山田', '佐藤', 'العلي', 'כהן', 'शर्मा', 'Νικολάου', 'Јовановић', '김'];
const CITIES: readonly [string, string][] = [
  ['Uppsala', '75'], ['Växjö', '35'], ['Göteborg', '41'], ['Malmö', '21'], ['Umeå', '90'], ['Örebro', '70'], ['Linköping', '58'],
  ['Jönköping', '55'], ['Luleå', '97'], ['Kiruna', '98'], ['Västerås', '72'], ['Norrköping', '60'], ['Gävle', '80'],
]; // prettier-ignore
const STREETS = ['Storgatan', 'Kyrkvägen', 'Ekgränden', 'Björkallén', 'Sjövägen', 'Skolgatan', 'Ängsvägen', 'Tallstigen', 'Hamngatan'];
const SPECIALIZATIONS = ['General Practice', 'Paediatrics', 'Geriatrics', 'Cardiology', 'Dermatology', 'Psychiatry', 'Endocrinology'];
const ALLERGENS = ['Penicillin', 'Pollen', 'Peanuts', 'Fish', 'Latex', 'Shellfish', 'Dust mites', 'Cat dander', 'Eggs', 'Sulfa drugs'];
const DRUGS: readonly [string, string, string][] = [
  ['Levothyroxine', '50 mcg', 'Once daily'], ['Metformin', '500 mg', 'Twice daily with food'], ['Furosemide', '20 mg', 'Once daily in the morning'],
  ['Atorvastatin', '10 mg', 'Once daily at night'], ['Salbutamol', '100 mcg', 'When needed'], ['Sertraline', '50 mg', 'Once daily'],
]; // prettier-ignore
const INSURERS: readonly [string, string][] = [
  ['Nordic Health Mutual', 'NHM'], ['Fjällhälsa Försäkring', 'FHF'], ['Skärgårdens Sjukvårdsförsäkring', 'SSF'], ['Vård & Trygghet', 'VT'],
  ['Östra Hälsa Ömsesidig', 'OHOMS'],
]; // prettier-ignore

function address(g: Gen): Address {
  const [city, prefix] = g.pick(CITIES);
  return {
    Street: `${g.pick(STREETS)} ${g.int(1, 140)}`,
    City: city,
    PostalCode: `${prefix}${g.int(0, 9)} ${g.int(10, 99)}`,
    Country: 'Sweden',
  };
}

/** Phones in the forms the pattern `^\+[0-9 ()-]{6,24}$` allows, not only the example's. */
function phone(g: Gen): string {
  const form = g.int(0, 4);
  const d = (n: number) => Array.from({ length: n }, () => g.int(0, 9)).join('');
  switch (form) {
    case 0:
      return `+46 7${g.int(0, 9)} ${d(3)} ${d(2)} ${d(2)}`;
    case 1:
      return `+46 (0)7${g.int(0, 9)}-${d(3)} ${d(2)} ${d(2)}`;
    case 2:
      return `+46${g.int(1, 9)}${d(8)}`;
    case 3:
      return `+358 40 ${d(3)} ${d(4)}`;
    default:
      return `+47 ${d(3)} ${d(2)} ${d(3)}`;
  }
}

function asciiName(text: string): string {
  return fold(text).replace(/[^a-z]/g, '');
}

function email(local: string, n: number, domain: string): string {
  return `${local || 'client'}.${n}@${domain}`;
}

export interface ShapeData {
  clients: ClientDetail[];
}

interface Pools {
  staff: Staff[];
  locations: Location[];
  insurers: Insurance[];
}

function pools(g: Gen, unicode: boolean): Pools {
  const staff: Staff[] = [];
  for (let i = 0; i < 24; i++) {
    const first = unicode && i % 3 === 0 ? g.pick(NON_LATIN_FIRST) : g.pick(FIRST);
    const last = unicode && i % 3 === 0 ? g.pick(NON_LATIN_LAST) : g.pick(LAST);
    staff.push({
      IdStaff: g.uuid8(),
      FullName: `${first} ${last}`,
      Specialization: g.pick(SPECIALIZATIONS),
      Email: `${asciiName(first) || 'staff'}.${asciiName(last) || i}@care.example.org`,
      Phone: phone(g),
    });
  }
  const locations: Location[] = CITIES.map(([city], i) => ({
    IdLocation: g.uuid8(),
    Name: `${city} ${i % 2 ? 'Health Centre' : 'Vårdcentral'}`,
    Address: { ...address(g), City: city },
  }));
  const insurers: Insurance[] = INSURERS.map(([name, code]) => ({
    IdInsurance: g.uuid8(),
    Name: name,
    Code: code,
    PolicyNumber: `${code}-0000-0000`,
  }));
  return { staff, locations, insurers };
}

interface Knobs {
  staffNull: number;
  locationNull: number;
  inactive: number;
}

class Builder {
  readonly clients: ClientDetail[] = [];
  private readonly pids = new Set<string>();
  constructor(
    private readonly g: Gen,
    private readonly p: Pools,
    private readonly knobs: Knobs,
  ) {}

  personalId(): { pid: string; dob: string } {
    for (;;) {
      const y = this.g.int(1928, 2023);
      const m = this.g.int(1, 12);
      const d = this.g.int(1, 28);
      const dob = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
      const serial = String(this.g.int(0, 999)).padStart(3, '0');
      const nine = dob.replace(/-/g, '').slice(2) + serial;
      const pid = `${dob.replace(/-/g, '')}-${serial}${luhnDigit(nine)}`;
      if (this.pids.has(pid)) continue;
      this.pids.add(pid);
      return { pid, dob };
    }
  }

  add(first: string, last: string, extra: { allergies?: number; medications?: number; emailLocal?: string } = {}): ClientDetail {
    const g = this.g;
    const { pid, dob } = this.personalId();
    const n = this.clients.length;
    const insurer = g.next() < 0.2 ? null : g.pick(this.p.insurers);
    const allergies: Allergy[] = Array.from({ length: extra.allergies ?? g.int(0, 3) }, () => ({
      Name: g.pick(ALLERGENS),
      Severity: g.pick(['Mild', 'Moderate', 'Severe'] as const),
    }));
    const medications: Medication[] = Array.from({ length: extra.medications ?? g.int(0, 3) }, () => {
      const [Name, Dosage, Frequency] = g.pick(DRUGS);
      return { Name, Dosage, Frequency };
    });
    // RFC 5321 §4.5.3.1.1: a local part is at most 64 octets.
    const local = (extra.emailLocal ?? `${asciiName(first).slice(0, 24)}.${asciiName(last).slice(0, 24)}`).replace(/^\.|\.$/g, '');
    const client: ClientDetail = {
      IdClient: g.uuid7(),
      PersonalInfo: {
        FirstName: first,
        LastName: last,
        FullName: `${first} ${last}`,
        PersonalId: pid,
        DateOfBirth: dob,
        Gender: g.pick(['Male', 'Female', 'Other', 'Unknown'] as const satisfies readonly Gender[]),
      },
      ContactInfo: {
        Email: email(local, n, g.pick(['example.net', 'example.org', 'mail.example.com'])),
        Phone: phone(g),
        Address: address(g),
      },
      Staff: g.next() < this.knobs.staffNull ? null : g.pick(this.p.staff),
      Location: g.next() < this.knobs.locationNull ? null : g.pick(this.p.locations),
      Insurance: insurer && { ...insurer, PolicyNumber: `${insurer.Code}-${g.int(1000, 9999)}-${g.int(1000, 9999)}` },
      Medical: { Allergies: allergies, Medications: medications },
      Status: g.next() < this.knobs.inactive ? 'Inactive' : 'Active',
    };
    this.clients.push(client);
    return client;
  }
}

function seedOf(name: string): number {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619);
  return h >>> 0;
}

const KNOBS: Record<ShapeName, Knobs> = {
  typical: { staffNull: 0.15, locationNull: 0.1, inactive: 0.3 },
  empty: { staffNull: 0, locationNull: 0, inactive: 0 },
  tiny1: { staffNull: 0, locationNull: 0, inactive: 0 },
  tiny2: { staffNull: 0, locationNull: 0, inactive: 0.5 },
  noStaff: { staffNull: 1, locationNull: 0.1, inactive: 0.3 },
  noLocation: { staffNull: 0.15, locationNull: 1, inactive: 0.3 },
  noInactive: { staffNull: 0.15, locationNull: 0.1, inactive: 0 },
  allInactive: { staffNull: 0.15, locationNull: 0.1, inactive: 1 },
  large: { staffNull: 0.15, locationNull: 0.1, inactive: 0.3 },
  unicode: { staffNull: 0.15, locationNull: 0.1, inactive: 0.3 },
};

const COUNTS: Record<ShapeName, number> = {
  typical: 300,
  empty: 0,
  tiny1: 1,
  tiny2: 2,
  noStaff: 150,
  noLocation: 150,
  noInactive: 150,
  allInactive: 150,
  large: 20_000,
  unicode: 240,
};

/** The ordinary Latin-script clients, with ties at the collator's primary strength (the order's tie-break is exercised). */
function latinClients(b: Builder, g: Gen, count: number): void {
  if (count >= 20) {
    // Names equal at primary strength (case and accents differ), and exact duplicates: ties go to IdClient.
    for (const [f, l] of [
      ['Åsa', 'Öberg'],
      ['Asa', 'Oberg'],
      ['ÅSA', 'ÖBERG'],
      ['Anna', 'Berg'],
      ['Anna', 'Berg'],
      ['Anna', 'Berg'],
    ])
      b.add(f!, l!);
    // openapi.yaml's own sentences: `asa` finds `Åsa`, `YILDIZ` finds `Yıldız`; `O'Brien` needs no escaping.
    b.add('Yıldız', 'Kaya');
    b.add('Siobhán', "O'Brien");
    // One client at maxItems (50) of both medical lists.
    b.add('Maximilian', 'Allergicus', { allergies: 50, medications: 50 });
    // FirstName and LastName at their maximum (60), FullName at 120 less one.
    b.add('Bartholomew-Maximilian-Konstantin-Alexander-Wilhelm-Friedric', 'Wolfeschlegelsteinhausen-Bergström-Lindqvist-Öhrnberg-Wolfe');
    // Letters the folding rule does not replace.
    b.add(UNFOLDED_FIRST[0]!, 'Nilsson');
    b.add('Ġużeppi', UNFOLDED_LAST[0]!);
  }
  while (b.clients.length < count) b.add(g.pick(FIRST), g.pick(LAST));
}

function unicodeClients(b: Builder, g: Gen, count: number): void {
  const astral = (n: number, base: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(base + (i % 26))).join('');
  // 60 code points (120 UTF-16 units) each: JSON Schema counts code points, so these are at, not over, maxLength.
  b.add(astral(60, 0x1d400), astral(59, 0x1d41a), { emailLocal: 'math.bold' });
  b.add(astral(60, 0x10330), astral(59, 0x10330), { emailLocal: 'gothic' });
  // Decomposed and precomposed forms of the same names (canonically equivalent: equal for the collator and folding).
  b.add('Zoe\u0308', 'Ängström');
  b.add('Zoë', 'A\u0308ngstro\u0308m');
  b.add('İlkay', 'Großmann');
  b.add('ILKAY', 'GROẞMANN');
  b.add('Þóra', 'Œuvrard-Ðurić');
  b.add('Łucja', 'Ødegård-Sæther');
  for (const f of UNFOLDED_FIRST) b.add(f, g.pick(LAST));
  for (const l of UNFOLDED_LAST) b.add(g.pick(FIRST), l);
  // Names near maxLength with letters outside Latin-1.
  b.add('Ŋŋŋŋŋŋŋŋŋŋ-Ħħħħħħħħħħ-Əəəəəəəəəə-Łłłłłłłłłł-Ðððððððððð-Ææææ', 'Þþþþþþþþþþ-Œœœœœœœœœœ-Øøøøøøøøøø-ßßßßßßßßßß-Đđđđđđđđđđ-ıııı');
  while (b.clients.length < count) {
    const kind = g.int(0, 2);
    if (kind === 0) b.add(g.pick(NON_LATIN_FIRST), g.pick(NON_LATIN_LAST));
    else if (kind === 1) b.add(g.pick([...UNFOLDED_FIRST, ...FIRST]), g.pick([...UNFOLDED_LAST, ...NON_LATIN_LAST]));
    else b.add(g.pick(FIRST), g.pick(LAST));
  }
}

const cache = new Map<ShapeName, ClientDetail[]>();

/** The clients of a shape, generated once per process and checked against every in-record rule. */
export function shapeClients(shape: ShapeName): readonly ClientDetail[] {
  const known = cache.get(shape);
  if (known) return known;
  const g = new Gen(seedOf(shape));
  const p = pools(g, shape === 'unicode');
  const b = new Builder(g, p, KNOBS[shape]);
  const count = COUNTS[shape];
  if (shape === 'unicode') unicodeClients(b, g, count);
  else if (shape === 'tiny2') {
    b.add('Åsa', 'Lindqvist').Status = 'Active';
    b.add('Asa', 'Lindqvist').Status = 'Inactive';
  } else latinClients(b, g, count);
  const problems = checkDataSet(b.clients);
  if (problems.length > 0) throw new Error(`shape ${shape} breaks the spec's record rules: ${problems.slice(0, 5).join('; ')}`);
  cache.set(shape, b.clients);
  return b.clients;
}
