// The generator reads Faker's word lists from a snapshot (generated/faker-lists.ts) so that making
// clients never loads Faker (issue 26 item 6): the snapshot must be the pinned Faker's own lists, or
// the same seed would no longer give the same clients.
import fs from 'node:fs';
import path from 'node:path';
import { FAKER_LISTS } from '../../generated/faker-lists';
import { fakerLists, fakerListsModule } from '../../scripts/faker-lists';

test("the snapshot holds the installed Faker's name and street lists, entry for entry", () => {
  expect(FAKER_LISTS).toStrictEqual(fakerLists());
});

test('the committed module is what scripts/faker-lists.ts writes today (npm run gen:faker-lists)', () => {
  expect(fs.readFileSync(path.join(__dirname, '..', '..', 'generated', 'faker-lists.ts'), 'utf8')).toBe(fakerListsModule());
});

test('seeds/ no longer loads Faker at run time (type imports only)', () => {
  for (const file of fs.readdirSync(path.join(__dirname, '..', '..', 'seeds')).filter((name) => name.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', 'seeds', file), 'utf8');
    expect({ file, loads: /^import (?!type )[^;]*'@faker-js\/faker/m.test(text) }).toEqual({ file, loads: false });
  }
});
