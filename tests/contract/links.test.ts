// The suite's RFC 8288 reader on the list syntax (found by mutation testing, docs/mutation.md: a server that
// joined its link-values without commas passed): every form a correct server may send reads without a problem,
// and link-values with no comma between them are reported.
import { parseLinkHeader } from '../../contract/link-header';

function problemsOf(header: string): string[] {
  const problems: string[] = [];
  parseLinkHeader(header, problems);
  return problems;
}

describe('parseLinkHeader: link-values are a comma-separated list (RFC 8288 section 3)', () => {
  test.each([
    ['one value', '</a?page=1>; rel="first"'],
    ['two values, ", "', '</a?page=1>; rel="first", </a?page=3>; rel="last"'],
    ['two lines joined by fetch', '</a?page=1>; rel=first,</a?page=3>; rel=last'],
    ['spaces before the comma', '</a?page=1>; rel="first"  ,  </a?page=3>; rel="last"'],
    ['a comma inside quotes', '</a?page=1>; rel="first"; title="a, b", </a?page=3>; rel="last"'],
  ])('%s → no problem', (_what, header) => {
    expect(problemsOf(header)).toEqual([]);
  });

  test('two link-values with no comma between them → one problem naming the first', () => {
    expect(problemsOf('</a?page=1>; rel="first"</a?page=3>; rel="last"')).toEqual(['no comma after the link-value </a?page=1>']);
  });
});
