// JUnit XML, written here rather than with a builder library because CI
// readers (Jenkins, GitLab, GitHub's test reporters) show a skipped case's
// `message`, and the contract suite's skips must say why (issue 23: a check
// the data cannot run is "skipped with its reason"). The shape is the common
// subset of the JUnit schemas: testsuites › testsuite › testcase with
// failure, error or skipped, and system-out.

export type JunitOutcome = 'pass' | 'fail' | 'skip' | 'error';

export interface JunitCase {
  name: string;
  className: string;
  /** Seconds. */
  time?: number;
  outcome: JunitOutcome;
  /** One line: the failure's headline, the skip's reason, the error. */
  message?: string;
  /** More lines, shown as the failure's text and system-out. */
  detail?: string;
}

export interface JunitSuite {
  name: string;
  properties?: Record<string, string>;
  cases: JunitCase[];
}

/* eslint-disable no-control-regex -- the characters XML 1.0 forbids are meant. */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */

/** XML 1.0 text: markup escaped, characters XML cannot hold (controls, lone surrogates) replaced. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const count = (cases: readonly JunitCase[], outcome: JunitOutcome) => cases.filter((c) => c.outcome === outcome).length;

/** The suites as one JUnit XML document. */
export function junitXml(suites: readonly JunitSuite[]): string {
  const all = suites.flatMap((suite) => suite.cases);
  const time = (cases: readonly JunitCase[]) => cases.reduce((sum, c) => sum + (c.time ?? 0), 0).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${all.length}" failures="${count(all, 'fail')}" errors="${count(all, 'error')}" skipped="${count(all, 'skip')}" time="${time(all)}">`,
  ];
  for (const suite of suites) {
    lines.push(
      `  <testsuite name="${xmlText(suite.name)}" tests="${suite.cases.length}" failures="${count(suite.cases, 'fail')}" errors="${count(suite.cases, 'error')}" skipped="${count(suite.cases, 'skip')}" time="${time(suite.cases)}">`,
    );
    const properties = Object.entries(suite.properties ?? {});
    if (properties.length > 0) {
      lines.push('    <properties>');
      for (const [name, value] of properties) lines.push(`      <property name="${xmlText(name)}" value="${xmlText(value)}"/>`);
      lines.push('    </properties>');
    }
    for (const c of suite.cases) {
      const open = `    <testcase classname="${xmlText(c.className)}" name="${xmlText(c.name)}" time="${(c.time ?? 0).toFixed(3)}"`;
      const message = xmlText(c.message ?? '');
      if (c.outcome === 'pass') {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      if (c.outcome === 'skip') lines.push(`      <skipped message="${message}"/>`);
      if (c.outcome === 'fail')
        lines.push(`      <failure message="${message}" type="ContractViolation">${xmlText(c.detail ?? c.message ?? '')}</failure>`);
      if (c.outcome === 'error')
        lines.push(`      <error message="${message}" type="SuiteError">${xmlText(c.detail ?? c.message ?? '')}</error>`);
      if (c.detail) lines.push(`      <system-out>${xmlText(c.detail)}</system-out>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
