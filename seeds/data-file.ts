// Data files: export a generated set, or load one instead of generating.
// A file is validated whole before anything is served: a bad record stops
// start-up with the file name and the first offending record's path.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ClientDetail } from '../contract/wire-types';
import { describeSchemaError, SpecSchemas } from '../contract/spec';
import { ClientGenerator } from './client';

export class DataFileError extends Error {}

export function loadDataFile(file: string, schemas = new SpecSchemas()): ClientDetail[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new DataFileError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new DataFileError(`${file}: is not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(data)) throw new DataFileError(`${file}: must hold a JSON array of ClientDetail records`);
  if (data.length === 0) throw new DataFileError(`${file}: holds no clients`);

  const isClientDetail = schemas.validator('ClientDetail');
  const seenIds = new Map<string, number>();
  const seenPersonalIds = new Map<string, number>();
  data.forEach((record: unknown, index) => {
    if (!isClientDetail(record)) {
      throw new DataFileError(`${file}: [${index}]${describeSchemaError(isClientDetail.errors?.[0])}`);
    }
    const client = record as ClientDetail;
    // uuids are compared case-insensitively, as the server looks them up.
    const id = client.IdClient.toLowerCase();
    const earlier = seenIds.get(id);
    if (earlier !== undefined) throw new DataFileError(`${file}: [${index}].IdClient duplicates [${earlier}].IdClient`);
    seenIds.set(id, index);
    const earlierPerson = seenPersonalIds.get(client.PersonalInfo.PersonalId);
    if (earlierPerson !== undefined) {
      throw new DataFileError(`${file}: [${index}].PersonalInfo.PersonalId duplicates [${earlierPerson}]`);
    }
    seenPersonalIds.set(client.PersonalInfo.PersonalId, index);
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
