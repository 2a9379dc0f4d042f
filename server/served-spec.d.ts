// The virtual module scripts/build-browser.ts gives the browser bundle: the package's own openapi.yaml,
// parsed at build time (the browser has no file system and no YAML parser).
declare module 'client-records-mock:served-spec' {
  const spec: import('../contract/spec-document').SpecSource;
  export default spec;
}
