// The one Node global the pipeline and the data engine use, Buffer (the records and answers are kept
// and joined as bytes), for the browser bundle: scripts/build-browser.ts injects it from the `buffer`
// package, so the bundle needs no polyfill from the page's bundler. (`buffer/` names the package, not
// Node's module of the same name.)
export { Buffer } from 'buffer/';
