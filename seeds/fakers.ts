// Faker's locale data, with one sfc32 randomizer for every draw, so that
// reseeding it once makes everything that follows a pure function of that
// seed. Faker's functions are never called: the generator draws from Faker's
// word lists itself (seeds/draw.ts). One name list per locale gives names
// with accents (Åsa, José, Čapková) and apostrophes (O'Keefe) in the data.
//
// Each locale is required by its own entry point (`@faker-js/faker/locale/sv`)
// rather than from the package's index: the index loads all seventy locales,
// ~175 ms of every start-up against ~70 ms for these six. An entry point
// exports a ready instance whose rawDefinitions are its locale merged over
// `en` and `base`, a category's entries taken whole from the first locale
// holding them: every locale here has its own first and last names, so the
// lists are that locale's own, and `sv` merged over `en` and `base` is what
// the streets were always drawn from.
import type { LocaleDefinition } from '@faker-js/faker';
import { faker as csCzFaker } from '@faker-js/faker/locale/cs_CZ';
import { faker as deFaker } from '@faker-js/faker/locale/de';
import { faker as enFaker } from '@faker-js/faker/locale/en';
import { faker as esFaker } from '@faker-js/faker/locale/es';
import { faker as frFaker } from '@faker-js/faker/locale/fr';
import { faker as svFaker } from '@faker-js/faker/locale/sv';
import { Sfc32Randomizer } from './random';

export interface NameLists {
  female: readonly string[];
  male: readonly string[];
  lastFemale: readonly string[];
  lastMale: readonly string[];
}

export interface SeededFakers {
  randomizer: Sfc32Randomizer;
  /** Swedish locale data (over `en` and `base`): addresses and street names. */
  definitions: LocaleDefinition;
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
  return {
    randomizer: new Sfc32Randomizer(),
    definitions: svFaker.rawDefinitions,
    nameLocales: [
      { weight: 62, names: nameLists(svFaker.rawDefinitions) },
      { weight: 10, names: nameLists(enFaker.rawDefinitions) },
      { weight: 7, names: nameLists(deFaker.rawDefinitions) },
      { weight: 7, names: nameLists(frFaker.rawDefinitions) },
      { weight: 7, names: nameLists(esFaker.rawDefinitions) },
      { weight: 7, names: nameLists(csCzFaker.rawDefinitions) },
    ],
  };
}
