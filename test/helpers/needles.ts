// Finds which of many strings occur in a file's bytes, ignoring case: one pass per file over 8-byte anchors.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ANCHOR = 8;

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Bytes as a string of one char per byte, lowercased: UTF-8 needles compare byte for byte. */
const bytesOf = (value: string | Buffer): string =>
  (typeof value === 'string' ? Buffer.from(value, 'utf8') : value).toString('latin1').toLowerCase();

/** The needles found in any of `files`, each with the first file that holds it. */
export function findNeedles(files: readonly string[], needles: readonly string[]): Map<string, string> {
  const byAnchor = new Map<string, { needle: string; bytes: string }[]>();
  const short: { needle: string; bytes: string }[] = [];
  for (const needle of new Set(needles)) {
    const bytes = bytesOf(needle);
    if (bytes.length < ANCHOR) short.push({ needle, bytes });
    else
      byAnchor.set(bytes.slice(0, ANCHOR), [
        ...(byAnchor.get(bytes.slice(0, ANCHOR)) ?? []),
        { needle, bytes },
      ]);
  }
  const found = new Map<string, string>();
  for (const file of files) {
    const hay = bytesOf(readFileSync(file));
    for (let i = 0; i + ANCHOR <= hay.length; i++) {
      for (const { needle, bytes } of byAnchor.get(hay.slice(i, i + ANCHOR)) ?? []) {
        if (!found.has(needle) && hay.startsWith(bytes, i)) found.set(needle, file);
      }
    }
    for (const { needle, bytes } of short)
      if (!found.has(needle) && hay.includes(bytes)) found.set(needle, file);
  }
  return found;
}
