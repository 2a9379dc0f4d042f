// Spectral: the OAS recommended rules plus the OWASP API Security Top 10 (2023) ruleset.
// Every rule switched off below is a deliberate waiver; the reason sits beside it.
import owasp from '@stoplight/spectral-owasp-ruleset';
import { oas } from '@stoplight/spectral-rulesets';

const diagnostics = ['openapi.yaml#/paths/~1api~1v1~1Diagnostics~1Ping', 'openapi.yaml#/paths/~1api~1v1~1Diagnostics~1Exception'];

export default {
  extends: [
    [oas, 'recommended'],
    [owasp, 'all'],
  ],
  rules: {
    // A mock for development and CI has no rate limiting on purpose: load tests must not be throttled.
    'owasp:api4:2023-rate-limit': 'off',
    'owasp:api4:2023-rate-limit-responses-429': 'off',
    'owasp:api4:2023-rate-limit-retry-after': 'off',
    // Names, addresses, drug names and messages are free text; every such string is bounded by maxLength instead.
    'owasp:api4:2023-string-restricted': 'off',
    // The documented server is the loopback mock; TLS is terminated by whatever ingress fronts a real deployment.
    'owasp:api8:2023-no-server-http': 'off',
    // NotFound documents the answer to paths that are no operation, so no operation can reference it.
    'oas3-unused-component': 'off',
  },
  overrides: [
    {
      files: diagnostics,
      rules: {
        // Ping and Exception are public by the seed's own words, so they have no security and no 401.
        'owasp:api2:2023-read-restricted': 'off',
        'owasp:api8:2023-define-error-responses-401': 'off',
      },
    },
    {
      files: ['control.openapi.yaml'],
      rules: {
        // The control API needs no key on purpose (control.openapi.yaml, "No key"): it steers the mock, not the API it
        // imitates, and must be able to switch the scenario that rejects every key off again; --control off removes it.
        'owasp:api2:2023-read-restricted': 'off',
        'owasp:api2:2023-write-restricted': 'off',
        'owasp:api8:2023-define-error-responses-401': 'off',
      },
    },
    {
      files: ['proxy.openapi.yaml#/components/responses/MethodNotAllowed'],
      rules: {
        // The proxy's journal is read by test runners and CI, not by pages: it sends no CORS headers on purpose.
        'owasp:api8:2023-define-cors-origin': 'off',
      },
    },
    {
      files: ['openapi.yaml#/paths/~1api~1v1~1Diagnostics~1Exception'],
      rules: {
        // Exception always fails by design (seed: "always 500"), so it has no success response.
        'operation-success-response': 'off',
      },
    },
  ],
};
