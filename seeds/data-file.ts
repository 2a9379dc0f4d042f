// Data files: export a generated set, or load one instead of generating.
// A file is validated whole before anything is served: a bad record stops
// start-up with the file name and the first offending record's path, whether
// it breaks a schema of openapi.yaml or a rule the spec states inside a record
// (contract/record-rules.ts: Luhn digit, PersonalId and DateOfBirth, FullName,
// unique IdClient and PersonalId), so the mock never serves data its own
// contract suite would fail. The line names the rule, never a personal value.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ClientDetail } from '../contract/wire-types';
import { RECORD_RULE_TEXT, recordProblems, UniqueRecords } from '../contract/record-rules';
import { describeSchemaError, SpecSchemas } from '../contract/spec';
import { ClientGenerator } from './client';
import { JsonSyntaxError, NotAnArrayError, parseJsonArray } from './json-records';

/** Nothing from a file (or its name) reaches a terminal raw: anything but printable ASCII is shown as \\uXXXX. */
export function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export class DataFileError extends Error {
  constructor(message: string) {
    super(printable(message));
  }
}

/** What a path is, in words, when it is not a regular file. */
function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The file's bytes: a regular file only, no larger than the limit, both known
 * before a byte is read. A device (/dev/zero never ends), a FIFO (opening one
 * waits for a writer for ever) or a directory is refused at once.
 */
function readBounded(file: string, maxBytes: number): Buffer {
  const limit = `the limit is ${Math.floor(maxBytes / 2 ** 20)} MB (DATA_FILE_MAX_MB sets it)`;
  let fd: number;
  try {
    // Checked before opening: open() on a FIFO blocks. O_NONBLOCK covers a path swapped for one in between.
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new DataFileError(`${file}: is ${kindOf(stat)}, not a regular file`);
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    if (error instanceof DataFileError) throw error;
    throw new DataFileError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new DataFileError(`${file}: is ${kindOf(stat)}, not a regular file`);
    if (stat.size > maxBytes) throw new DataFileError(`${file}: is ${Math.ceil(stat.size / 2 ** 20)} MB; ${limit}`);
    // Read to the end but never past the limit: a file that grows while read (or a /proc file that says 0) stays bounded.
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(stat.size + 1, 65_536)));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw new DataFileError(`${file}: is larger than ${limit}`);
        const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(grown);
        buffer = grown;
      }
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return buffer.subarray(0, length);
      length += read;
    }
  } catch (error) {
    if (error instanceof DataFileError) throw error;
    throw new DataFileError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    fs.closeSync(fd);
  }
}

/** The file's clients, checked whole (an empty array is an empty data set); throws DataFileError naming the first problem. */
export function loadDataFile(file: string, maxBytes: number, schemas = new SpecSchemas()): ClientDetail[] {
  const bytes = readBounded(file, maxBytes);
  let data: unknown[];
  try {
    data = parseJsonArray(bytes);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new DataFileError(`${file}:${error.message} (not valid JSON)`);
    if (error instanceof NotAnArrayError) throw new DataFileError(`${file}: must hold a JSON array of ClientDetail records`);
    throw error;
  }

  const isClientDetail = schemas.validator('ClientDetail');
  // uuids are compared case-insensitively, as the server looks them up.
  const unique = new UniqueRecords<number>();
  data.forEach((record: unknown, index) => {
    if (!isClientDetail(record)) {
      throw new DataFileError(`${file}: [${index}]${describeSchemaError(isClientDetail.errors?.[0])}`);
    }
    const client = record as ClientDetail;
    const repeated = unique.add(client, index);
    if (repeated?.rule === 'record.unique-id')
      throw new DataFileError(`${file}: [${index}].IdClient duplicates [${repeated.earlier}].IdClient`);
    if (repeated) throw new DataFileError(`${file}: [${index}].PersonalInfo.PersonalId duplicates [${repeated.earlier}]`);
    const problem = recordProblems(client)[0];
    if (problem) throw new DataFileError(`${file}: [${index}].${problem.field} breaks ${problem.rule}: ${RECORD_RULE_TEXT[problem.rule]}`);
  });
  return data as ClientDetail[];
}

function* dataFileChunks(seed: number, count: number): Generator<string> {
  const generator = new ClientGenerator(seed);
  yield '[\n';
  for (let i = 0; i < count; i++) yield (i === 0 ? '' : ',\n') + JSON.stringify(generator.client(i));
  yield '\n]\n';
}

/**
 * Streams the set one record at a time (a million clients do not fit in one
 * JSON string) to a file, or to a stream such as stdout (left open). A file
 * that cannot be opened rejects before anything is generated.
 */
export async function writeDataFile(target: string | NodeJS.WritableStream, seed: number, count: number): Promise<void> {
  if (typeof target !== 'string') {
    await pipeline(Readable.from(dataFileChunks(seed, count)), target, { end: false });
    return;
  }
  const handle = await fs.promises.open(target, 'w');
  await pipeline(Readable.from(dataFileChunks(seed, count)), handle.createWriteStream({ encoding: 'utf8' }));
}
