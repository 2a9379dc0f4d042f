// One client as a pure function of (seed, index): the randomizer is reseeded
// from exactly those two numbers before anything is drawn, so the first N
// clients of any larger set are byte-identical to a set of N.
import type { Allergy, ClientDetail, Gender, Medication } from '../contract/wire-types';
import { ALLERGENS, CITIES, EMAIL_DOMAINS, MEDICATIONS, SEVERITIES } from './reference-data';
import { createSeededFakers, type SeededFakers } from './fakers';
import { createPools, STREAM, type Pools } from './pools';
import { Draw } from './draw';
import { AddressMaker } from './addresses';
import { permuteSlot, personalIdForSlot } from './personal-id';
import { emailToken, flat } from './text';

// Percent weights of 0, 1, 2… items.
const ALLERGY_COUNT_WEIGHTS = [55, 25, 13, 7];
const MEDICATION_COUNT_WEIGHTS = [40, 22, 15, 10, 8, 5];
const ACTIVE_PERCENT = 80;
const WITH_STAFF_PERCENT = 90;
const WITH_LOCATION_PERCENT = 94;
const WITH_INSURANCE_PERCENT = 85;
const LIVES_NEAR_LOCATION_PERCENT = 75;

export class ClientGenerator {
  readonly pools: Pools;
  private readonly fakers: SeededFakers;
  private readonly draw: Draw;
  private readonly addresses: AddressMaker;
  private readonly localeWeights: number[];

  constructor(readonly seed: number) {
    this.fakers = createSeededFakers();
    this.draw = new Draw(this.fakers.randomizer);
    this.addresses = new AddressMaker(this.fakers.streets, this.draw);
    this.pools = createPools(seed, this.fakers);
    this.localeWeights = this.fakers.nameLocales.map((l) => l.weight);
  }

  /**
   * What the list order and the id index need of client `index`: its first
   * draws only, exactly those client(index) begins with, so the two agree by
   * construction (a data set can be ordered without making its records).
   */
  head(index: number): ClientHead {
    const { IdClient, FullName } = this.drawHead(index);
    return { IdClient, FullName };
  }

  /** Reseeds for client `index` and draws its id, gender and names: the first draws of client(index). */
  private drawHead(index: number) {
    const { draw } = this;
    this.fakers.randomizer.seed([this.seed, STREAM.clients, index]);
    const IdClient = draw.uuid();
    const genderRoll = draw.below(100);
    const Gender: Gender = genderRoll < 49 ? 'Female' : genderRoll < 97 ? 'Male' : genderRoll < 99 ? 'Other' : 'Unknown';
    const names = this.fakers.nameLocales[draw.weighted(this.localeWeights)]!.names;
    const femaleName = Gender === 'Female' || (Gender !== 'Male' && draw.chance(50));
    const FirstName = draw.pick(femaleName ? names.female : names.male);
    const LastName = draw.pick(femaleName ? names.lastFemale : names.lastMale);
    const FullName = flat`${FirstName} ${LastName}`;
    return { IdClient, Gender, FirstName, LastName, FullName };
  }

  client(index: number): ClientDetail {
    const { draw, pools } = this;
    const { IdClient, Gender, FirstName, LastName, FullName } = this.drawHead(index);
    const { dateOfBirth, personalId } = personalIdForSlot(permuteSlot(this.seed, index));
    const Email = flat`${emailToken(FirstName)}.${emailToken(LastName)}${index + 1}@${draw.pick(EMAIL_DOMAINS)}`;
    const Phone = this.addresses.mobile();

    const home = draw.chance(WITH_LOCATION_PERCENT) ? draw.pick(pools.locations) : null;
    const city = home && draw.chance(LIVES_NEAR_LOCATION_PERCENT) ? home.city : draw.pick(CITIES);
    const Address = this.addresses.address(city);
    const staff = draw.chance(WITH_STAFF_PERCENT) ? draw.pick(pools.staff) : null;
    const insurer = draw.chance(WITH_INSURANCE_PERCENT) ? draw.pick(pools.insurers) : null;
    // Written out, not spread: a spread copy is slower and larger, a million times over.
    const Insurance = insurer && {
      IdInsurance: insurer.IdInsurance,
      Name: insurer.Name,
      Code: insurer.Code,
      PolicyNumber: flat`${insurer.Code}-${draw.digits(4)}-${draw.digits(4)}`,
    };

    const Allergies: Allergy[] = draw
      .distinct(ALLERGENS, draw.weighted(ALLERGY_COUNT_WEIGHTS))
      .map((Name) => ({ Name, Severity: draw.pick(SEVERITIES) }));
    const Medications: Medication[] = draw
      .distinct(MEDICATIONS, draw.weighted(MEDICATION_COUNT_WEIGHTS))
      .map((m) => ({ Name: m.name, Dosage: draw.pick(m.dosages), Frequency: draw.pick(m.frequencies) }));
    const Status = draw.chance(ACTIVE_PERCENT) ? 'Active' : 'Inactive';

    return {
      IdClient,
      PersonalInfo: { FirstName, LastName, FullName, PersonalId: personalId, DateOfBirth: dateOfBirth, Gender },
      ContactInfo: { Email, Phone, Address },
      Staff: staff,
      Location: home ? home.location : null,
      Insurance,
      Medical: { Allergies, Medications },
      Status,
    };
  }
}

/** A client's id and full name: what its place in the list and the id index depend on. */
export interface ClientHead {
  IdClient: string;
  FullName: string;
}

/**
 * Clients 0..count-1 of the seed, made when first asked for: every client's
 * id and name now (the store orders and indexes by them), each whole record
 * when a request reaches it. What an in-process set-up pays before its first
 * answer is then a tenth of generating the set (issue 26 item 6); the records
 * are the very ones generateClients makes.
 */
export function generatedSource(seed: number, count: number) {
  const generator = new ClientGenerator(seed);
  const ids = new Array<string>(count);
  const names = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const head = generator.head(i);
    ids[i] = head.IdClient;
    names[i] = head.FullName;
  }
  return {
    count,
    idOf: (index: number) => ids[index]!,
    nameOf: (index: number) => names[index]!,
    record: (index: number) => generator.client(index),
  };
}

/** The whole data set: clients 0..count-1 of the seed. */
export function generateClients(seed: number, count: number): ClientDetail[] {
  const generator = new ClientGenerator(seed);
  const clients = new Array<ClientDetail>(count);
  for (let i = 0; i < count; i++) clients[i] = generator.client(i);
  return clients;
}

// Re-exported so callers need one import for generation.
