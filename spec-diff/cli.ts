// Why: `client-records-mock diff OLD NEW` as a CI step or a pre-commit check:
// exit 1 when an edit of the spec breaks clients, 0 when it does not, 2 when
// it cannot tell (bad usage, a file that does not read, parse or resolve),
// always with one line naming the problem and never a stack trace.
import path from 'node:path';
import { readSpec } from '../contract/spec';
import { loadSettings } from '../settings/argv';
import { helpLine, helpTable, SettingError, type Rows } from '../settings/table';
import { diffSpecs, DiffInputError } from './diff';
import { formatJson, formatText } from './format';

export const EXIT_NOT_BREAKING = 0;
export const EXIT_BREAKING = 1;
export const EXIT_BAD_INPUT = 2;

// The diff's one option, a row of the one settings machinery (settings/); the two files are positionals.
const ROWS: Rows<{ json: boolean }> = [
  {
    key: 'json',
    flag: '--json',
    switch: true,
    fallback: 'off',
    help: `the report as JSON (format ${'client-records-spec-diff/1'})`,
    parse: (raw) => raw === 'on',
  },
];

const LAYOUT = { flagWidth: 9, envWidth: 0, defaults: false, heading: false };

const HELP = [
  'Usage: client-records-mock diff OLD NEW [--json]',
  '',
  'Lists the changes from the spec OLD to the spec NEW, each classified as breaking',
  'or not for clients of the API: requests are judged as clients send them (a',
  'parameter or value that was accepted must stay accepted), responses as clients',
  'read them (a field or value they could get must stay, and nothing new may',
  'appear where they expect a closed set). Descriptions, examples, new operations,',
  'new optional parameters and new response fields are not breaking.',
  '',
  ...helpTable(ROWS, LAYOUT),
  helpLine(LAYOUT, '--help', 'this help'),
  '',
  'Exit codes: 0 no breaking change, 1 a breaking change, 2 bad usage or a file',
  'that cannot be read, parsed or resolved.',
].join('\n');

interface Output {
  write(text: string): unknown;
}

export async function runDiffCli(argv: readonly string[], out: Output = process.stdout, err: Output = process.stderr): Promise<number> {
  const fail = (message: string) => {
    err.write(`client-records-mock diff: ${message}\n`);
    return EXIT_BAD_INPUT;
  };
  let read;
  try {
    read = loadSettings(
      ROWS,
      argv,
      {},
      {
        help: true,
        positionals: true,
        wording: { unknown: (rawName) => `unknown option ${rawName} (client-records-mock diff --help)` },
      },
    );
  } catch (error) {
    if (error instanceof SettingError) return fail(error.message);
    throw error;
  }
  if (read.help) {
    out.write(HELP + '\n');
    return EXIT_NOT_BREAKING;
  }
  const { values, positionals } = read;
  if (positionals.length !== 2) return fail('give two spec files, OLD and NEW: client-records-mock diff OLD NEW [--json]');
  const [oldFile, newFile] = positionals as [string, string];
  try {
    const before = readSpec(path.resolve(oldFile));
    const after = readSpec(path.resolve(newFile));
    const report = diffSpecs(before.document, after.document, { before: oldFile, after: newFile });
    out.write(values.json ? formatJson(report, oldFile, newFile) : formatText(report, oldFile, newFile));
    return report.breaking ? EXIT_BREAKING : EXIT_NOT_BREAKING;
  } catch (error) {
    // DiffInputError and readSpec's errors name the file and the problem in their first line.
    if (error instanceof DiffInputError || error instanceof Error) return fail(error.message.split('\n')[0]!);
    throw error;
  }
}
