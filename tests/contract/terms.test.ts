// Search terms the checks build from a client's name must be substrings of
// that name as the filter rule reads it (trimmed, white-space runs collapsed,
// folded): never across a run of white space, a tab or an NBSP, and never
// upper-cased when that changes the length.
import { matchesFilter, termStretch, upperCaseSameLength } from '../../contract-suite/kit/semantics';

const client = (FullName: string) => ({ FullName, PersonalId: '19800101-1234', Email: 'x@example.org', Phone: '+46 70 000 00 00' });

describe('search terms', () => {
  test.each([
    ['Ada  Lovelace-Byron', 'Lovelace-Byron'],
    ['Ada\u00a0Lovelace', 'Lovelace'],
    ['Ada\tLo', 'Ada'],
    ["Jean-Luc O'Connor", "Jean-Luc O'Connor"],
    ['  Bo Ek  ', 'Bo Ek'],
  ])('termStretch(%j) is %j, and the name matches it', (name, stretch) => {
    expect(termStretch(name)).toBe(stretch);
    expect(matchesFilter(client(name), stretch)).toBe(true);
  });

  test('upper case only when the length stays', () => {
    expect(upperCaseSameLength('ﬁnn')).toBe('ﬁnn');
    expect(upperCaseSameLength('finn')).toBe('FINN');
    expect(matchesFilter(client('ﬁnn Ek'), upperCaseSameLength('ﬁnn'))).toBe(true);
  });
});
