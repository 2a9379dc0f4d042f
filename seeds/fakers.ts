// Dedicated Faker instances (never the global one), all driven by one sfc32
// randomizer so that reseeding it once makes everything that follows a pure
// function of that seed. One instance per name locale gives names with accents
// (Åsa, José, Čapková) and apostrophes (O'Keefe) in the data.
import { Faker, base, cs_CZ, de, en, es, fr, sv, type LocaleDefinition } from '@faker-js/faker';
import { Sfc32Randomizer } from './random';

export interface NameLists {
  female: readonly string[];
  male: readonly string[];
  lastFemale: readonly string[];
  lastMale: readonly string[];
}

export interface SeededFakers {
  randomizer: Sfc32Randomizer;
  /** The Swedish instance: addresses, street names and most people. */
  faker: Faker;
  /** Name lists per locale, with the weight (in percent) of clients named from it. */
  nameLocales: readonly { weight: number; names: NameLists }[];
}

function nameLists(locale: LocaleDefinition): NameLists {
  const person = locale.person;
  const first = person?.first_name;
  const last = person?.last_name;
  if (!first || !last) throw new Error('locale without person names');
  const female = first.female ?? first.generic;
  const male = first.male ?? first.generic;
  const lastFemale = last.female ?? last.generic;
  const lastMale = last.male ?? last.generic;
  if (!female || !male || !lastFemale || !lastMale) throw new Error('locale without gendered or generic names');
  return { female, male, lastFemale, lastMale };
}

export function createSeededFakers(): SeededFakers {
  const randomizer = new Sfc32Randomizer();
  const faker = new Faker({ locale: [sv, en, base], randomizer });
  return {
    randomizer,
    faker,
    nameLocales: [
      { weight: 62, names: nameLists(sv) },
      { weight: 10, names: nameLists(en) },
      { weight: 7, names: nameLists(de) },
      { weight: 7, names: nameLists(fr) },
      { weight: 7, names: nameLists(es) },
      { weight: 7, names: nameLists(cs_CZ) },
    ],
  };
}
