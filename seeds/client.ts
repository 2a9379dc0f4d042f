// One client as a pure function of (seed, index): the randomizer is reseeded
// from exactly those two numbers before anything is drawn, so the first N
// clients of any larger set are byte-identical to a set of N.
import type { Allergy, ClientDetail, Gender, Medication } from '../contract/wire-types';
import { ALLERGENS, CITIES, EMAIL_DOMAINS, MEDICATIONS, SEVERITIES } from './reference-data';
import { createSeededFakers, type SeededFakers } from './fakers';
import { createPools, STREAM, type Pools } from './pools';
import { Draw, uuidText } from './draw';
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
  /** client()'s room for its id's four words. */
  private readonly idWords = new Uint32Array(4);

  constructor(readonly seed: number) {
    this.fakers = createSeededFakers();
    this.draw = new Draw(this.fakers.randomizer);
    this.addresses = new AddressMaker(this.fakers.streets, this.draw);
    this.pools = createPools(seed, this.fakers);
    this.localeWeights = this.fakers.nameLocales.map((l) => l.weight);
  }

  /**
   * Client `index`'s full name, with its id's four 32-bit words written to
   * `words` at `at` (uuidText makes the IdClient of them): the first draws of
   * client(index) and nothing more, so the two agree by construction. What
   * the list order needs of a client, without making its record or its id's text.
   */
  nameAndIdWords(index: number, words: Uint32Array, at: number): string {
    return this.drawHead(index, words, at).FullName;
  }

  /** Reseeds for client `index` and draws what client(index) begins with: its id (as four words), gender and names. */
  private drawHead(index: number, words: Uint32Array, at: number) {
    const { draw } = this;
    this.fakers.randomizer.seed([this.seed, STREAM.clients, index]);
    draw.uuidWords(words, at);
    const genderRoll = draw.below(100);
    const Gender: Gender = genderRoll < 49 ? 'Female' : genderRoll < 97 ? 'Male' : genderRoll < 99 ? 'Other' : 'Unknown';
    const names = this.fakers.nameLocales[draw.weighted(this.localeWeights)]!.names;
    const femaleName = Gender === 'Female' || (Gender !== 'Male' && draw.chance(50));
    const FirstName = draw.pick(femaleName ? names.female : names.male);
    const LastName = draw.pick(femaleName ? names.lastFemale : names.lastMale);
    const FullName = flat`${FirstName} ${LastName}`;
    return { Gender, FirstName, LastName, FullName };
  }

  client(index: number): ClientDetail {
    const { draw, pools } = this;
    const words = this.idWords;
    const { Gender, FirstName, LastName, FullName } = this.drawHead(index, words, 0);
    const IdClient = uuidText(words[0]!, words[1]!, words[2]!, words[3]!);
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

/**
 * Clients 0..count-1 of the seed, made when first asked for: every client's
 * name now, and its id's four words (the store orders and indexes by them),
 * the id's text when first read, each whole record when a request reaches it.
 * What an in-process set-up pays before its first answer is then a fraction
 * of generating the set (issue 26 item 6); the records are the very ones
 * generateClients makes.
 */
export function generatedSource(seed: number, count: number) {
  const generator = new ClientGenerator(seed);
  const words = new Uint32Array(count * 4);
  const names = new Array<string>(count);
  const ids = new Array<string | undefined>(count);
  for (let i = 0; i < count; i++) names[i] = generator.nameAndIdWords(i, words, 4 * i);
  return {
    count,
    idOf: (index: number) =>
      (ids[index] ??= uuidText(words[4 * index]!, words[4 * index + 1]!, words[4 * index + 2]!, words[4 * index + 3]!)),
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
