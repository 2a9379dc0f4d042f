// Jest runs CommonJS; msw 2 requires a few packages published only as ES modules
// (rettime, until-async, @open-draft/deferred-promise), and so does light-my-request (cookie 2). esbuild (already the
// example frontend's bundler) turns just those into CommonJS as Jest loads them.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Jest loads transformers as CommonJS
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code } = transformSync(source, { format: 'cjs', loader: 'js', target: 'node20', sourcefile: filename });
    return { code };
  },
};
