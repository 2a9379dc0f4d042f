// Faker's word lists, with one sfc32 randomizer for every draw, so that
// reseeding it once makes everything that follows a pure function of that
// seed. Faker's functions are never called: the generator draws from Faker's
// word lists itself (seeds/draw.ts). One name list per locale gives names
// with accents (Åsa, José, Čapková) and apostrophes (O'Keefe) in the data.
//
// The lists are a snapshot of the pinned Faker's (generated/faker-lists.ts,
// made by scripts/faker-lists.ts, kept equal to Faker by a test), so making
// clients never loads Faker: its six locale entry points cost ~0.3 s of a
// fresh process, most of what an in-process set-up paid before its first
// answer (issue 26 item 6). Each locale's lists are what its entry point's
// rawDefinitions held: that locale merged over `en` and `base`, a category
// taken whole from the first locale holding it; every locale here has its own
// first and last names, and the streets are `sv`'s, as they always were.
import { FAKER_LISTS, type NameGroups } from '../generated/faker-lists';
import { Sfc32Randomizer } from './random';

export interface NameLists {
  female: readonly string[];
  male: readonly string[];
  lastFemale: readonly string[];
  lastMale: readonly string[];
}

export interface SeededFakers {
  randomizer: Sfc32Randomizer;
  /** Swedish street names and suffixes (Faker's `sv` over `en` and `base`). */
  streets: { readonly street_name: readonly string[]; readonly street_suffix: readonly string[] };
  /** Name lists per locale, with the weight (in percent) of clients named from it. */
  nameLocales: readonly { weight: number; names: NameLists }[];
}

function nameLists(person: { first_name: NameGroups; last_name: NameGroups }): NameLists {
  const first = person.first_name;
  const last = person.last_name;
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
    streets: FAKER_LISTS.streets,
    nameLocales: [
      { weight: 62, names: nameLists(FAKER_LISTS.names.sv) },
      { weight: 10, names: nameLists(FAKER_LISTS.names.en) },
      { weight: 7, names: nameLists(FAKER_LISTS.names.de) },
      { weight: 7, names: nameLists(FAKER_LISTS.names.fr) },
      { weight: 7, names: nameLists(FAKER_LISTS.names.es) },
      { weight: 7, names: nameLists(FAKER_LISTS.names.cs_CZ) },
    ],
  };
}
