// The checks derived from the served document, mechanically: one generator per
// kind, each walking the SpecContract it is given (the bundled openapi.yaml,
// or another version of it) and defining named checks. A rule the document
// states gets checks; a rule it does not state gets none; nothing here names
// a path, a parameter or a value of this API.
//   paths.ts       near misses of every path template (case, encoding, dot
//                  segments, slashes, suffixes, parameters empty or split)
//   methods.ts     every path × every method, CORS preflights and look-alikes,
//                  method overrides
//   parameters.ts  every parameter × every keyword of its schema, presence
//                  without a value, repetition, allowReserved, undocumented names
//   security.ts    every security scheme: the credential where it is declared,
//                  and nowhere else
//   framing.ts     every operation's GET with its HTTP/1.1 framing broken as
//                  RFC 9112 says a server must refuse (no Host, a bad field
//                  line, a bad Content-Length or Transfer-Encoding, a huge head;
//                  with --strict-http also what Node's server takes: two Host
//                  lines, a Host that is no host, `Transfer-Encoding: gzip`)
//   absent-paths.ts  paths the document does not have × every method
//   conditional.ts   every precondition header, with the target's own validators
//   header-forms.ts  every header parameter and credential empty, blank, with
//                  white space around its value, on two lines
// Every answer is also held to the document as a whole (spec-contract.ts:
// status, headers, media type and its RFC 8259 rules, body schema).
import type { Define, DefineOptions } from '../kit/context';
import type { SpecContract } from '../../contract/spec-contract';
import { absentPathChecks } from './absent-paths';
import { conditionalChecks } from './conditional';
import { framingChecks } from './framing';
import { headerFormChecks } from './header-forms';
import { methodMatrixChecks } from './methods';
import { parameterChecks } from './parameters';
import { pathChecks } from './paths';
import { securityChecks } from './security';

/** The generators in run order (defined as one group in checks.ts). */
export const DERIVED_KINDS = {
  paths: pathChecks,
  methods: methodMatrixChecks,
  parameters: parameterChecks,
  absentPaths: absentPathChecks,
  security: securityChecks,
  headerForms: headerFormChecks,
  conditional: conditionalChecks,
  framing: framingChecks,
} as const satisfies Record<string, (check: Define, contract: SpecContract, options?: DefineOptions) => void>;

export function derivedChecks(check: Define, contract: SpecContract, options: DefineOptions = {}): void {
  for (const generate of Object.values(DERIVED_KINDS)) generate(check, contract, options);
}
