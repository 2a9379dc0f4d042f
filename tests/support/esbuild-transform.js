// Jest runs CommonJS. esbuild turns the TypeScript sources (types stripped, no type check: `npm run typecheck` does
// that) and the few packages msw 2 and light-my-request publish only as ES modules (rettime, until-async,
// @open-draft/deferred-promise, cookie 2) into CommonJS as Jest loads them. esbuild rather than ts-jest: a clean
// clone's first run (CI's) transforms every file anew, and esbuild does that many times faster.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Jest loads transformers as CommonJS
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      format: 'cjs',
      loader: filename.endsWith('.ts') ? 'ts' : 'js',
      target: 'node22',
      // import() as require(), as ts-jest wrote it: Jest's CommonJS runtime has no dynamic import without a flag.
      supported: { 'dynamic-import': false },
      sourcefile: filename,
      // Stack traces of a failing test point at the TypeScript lines.
      sourcemap: 'external',
      sourcesContent: false,
    });
    return { code, map };
  },
};
