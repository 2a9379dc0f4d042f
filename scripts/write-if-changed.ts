// The build's outputs are written only when their bytes change: a build of an up-to-date tree then writes nothing,
// so the steps of `npm run check` that each start with `npm run build` can run side by side (and beside a running
// server or browser that reads dist/) without one rewriting a file another is reading.
import fs from 'node:fs';
import path from 'node:path';

/** Writes `data` to `file` (its folder made) unless the file already holds exactly those bytes. */
export function writeIfChanged(file: string, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  try {
    if (fs.readFileSync(file).equals(bytes)) return;
  } catch {
    // No such file yet: written below.
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written beside and renamed over: a reader sees the old file or the new one, never half of one.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, bytes);
  fs.renameSync(temporary, file);
}

/** Copies `from` to `to` unless `to` already holds the same bytes. */
export function copyIfChanged(from: string, to: string): void {
  writeIfChanged(to, fs.readFileSync(from));
}
