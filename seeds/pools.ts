// Staff, locations and insurers: pools of fixed size derived from the seed
// alone, so that a client's references never change with the client count.
import type { Insurance, Location, Staff } from '../contract/wire-types';
import { CITIES, CLINIC_KINDS, INSURERS, SPECIALIZATIONS, STAFF_EMAIL_DOMAIN, type City } from './reference-data';
import type { SeededFakers } from './fakers';
import { Draw } from './draw';
import { AddressMaker } from './addresses';
import { emailToken } from './text';

export const STAFF_COUNT = 60;
export const LOCATION_COUNT = 12;
export const INSURER_COUNT = 8;

/** Stream tags keep the pools' random streams apart from each other and from the clients'. */
export const STREAM = { staff: 1, locations: 2, insurers: 3, clients: 4 } as const;

export type InsurerRef = Omit<Insurance, 'PolicyNumber'>;

export interface Pools {
  staff: readonly Staff[];
  locations: readonly { location: Location; city: City }[];
  insurers: readonly InsurerRef[];
}

export function createPools(seed: number, fakers: SeededFakers): Pools {
  const draw = new Draw(fakers.randomizer);
  const addresses = new AddressMaker(fakers.streets, draw);

  fakers.randomizer.seed([seed, STREAM.locations]);
  const cities = draw.distinct(CITIES, LOCATION_COUNT);
  const locations = cities.map((city) => {
    const location: Location = {
      IdLocation: draw.uuid(),
      Name: `${city.name} ${draw.pick(CLINIC_KINDS)}`,
      Address: addresses.address(city),
    };
    return { location, city };
  });

  fakers.randomizer.seed([seed, STREAM.staff]);
  const usedEmails = new Set<string>();
  const staff: Staff[] = [];
  for (let i = 0; i < STAFF_COUNT; i++) {
    const names = fakers.nameLocales[draw.weighted(fakers.nameLocales.map((l) => l.weight))]!.names;
    const female = draw.chance(50);
    const first = draw.pick(female ? names.female : names.male);
    const last = draw.pick(female ? names.lastFemale : names.lastMale);
    let local = `${emailToken(first)}.${emailToken(last)}`;
    for (let n = 2; usedEmails.has(local); n++) local = `${emailToken(first)}.${emailToken(last)}${n}`;
    usedEmails.add(local);
    const workplace = locations[i % LOCATION_COUNT]!.city;
    staff.push({
      IdStaff: draw.uuid(),
      FullName: `${first} ${last}`,
      Specialization: draw.pick(SPECIALIZATIONS),
      Email: `${local}@${STAFF_EMAIL_DOMAIN}`,
      Phone: addresses.landline(workplace),
    });
  }

  fakers.randomizer.seed([seed, STREAM.insurers]);
  const insurers = draw.distinct(INSURERS, INSURER_COUNT).map((insurer) => ({
    IdInsurance: draw.uuid(),
    Name: insurer.name,
    Code: insurer.code,
  }));

  return { staff, locations, insurers };
}
