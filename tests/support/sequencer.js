// The order of a run with no timings yet: a clean clone (CI) has no Jest cache, and Jest then starts the
// biggest files first, so a short file that runs whole suites (data-shapes.test.ts: 111 lines, over a minute)
// starts last and the run waits on it alone. These files, slowest first as measured on two cores, start
// first; the rest follow by size. Once Jest has timings (any second run), they decide, as Jest's own sequencer does.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Jest loads sequencers as CommonJS
const Sequencer = require('@jest/test-sequencer').default;

/** The files of 20 s or more in `npx jest --json` on two cores, slowest first. */
const SLOWEST_FIRST = [
  'tests/contract/cli.test.ts',
  'tests/contract/data-shapes.test.ts',
  'tests/browser/corpus.test.ts',
  'tests/state/replicas.test.ts',
  'tests/proxy/contract-through-proxy.test.ts',
  'tests/package/pack.test.ts',
  'tests/browser/docs-site.test.ts',
  'tests/contract/second-implementation.test.ts',
  'tests/contract/base-path.test.ts',
  'tests/proxy/hostile.test.ts',
  'tests/contract/contract.test.ts',
  'tests/mcp/mcp.test.ts',
  'tests/contract/relations.test.ts',
];

class SlowestFirst extends Sequencer {
  sort(tests) {
    if (tests.some((test) => this.time(test) !== undefined)) return super.sort(tests);
    const rank = (test) => {
      const at = SLOWEST_FIRST.findIndex((file) => test.path.endsWith(file));
      return at < 0 ? SLOWEST_FIRST.length : at;
    };
    const bySize = super.sort([...tests]);
    return bySize.sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = SlowestFirst;
