// Core documents projected to editable files: `<data-dir>/core/<owner-slug>/<DOC>.md`, a small front matter
// holding the revision the text is based on, written atomically (a temporary file renamed over the old one).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mutex } from '../storage/mutex.js';
import type { CoreDoc } from './schema-chain.js';

/** A file name for an owner: unreserved characters kept, every other one %-encoded; long ones hashed. */
export function ownerSlug(owner: string): string {
  const encoded = [...Buffer.from(owner, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
  if (encoded.length <= 120) return encoded;
  return `${encoded.slice(0, 80)}-${createHash('sha256').update(owner).digest('hex').slice(0, 16)}`;
}

export interface CoreFile {
  /** The revision the front matter names; null when it has none (a file written by hand). */
  revision: number | null;
  text: string;
}

/** Texts compare (and are applied) without trailing whitespace and with LF line ends. */
export const normalizeText = (text: string): string => text.replace(/\r\n?/g, '\n').replace(/\s+$/u, '');

export function renderCoreFile(owner: string, doc: CoreDoc, revision: number, text: string): string {
  const header = [
    '---',
    'mnemo: core document',
    `owner: ${JSON.stringify(owner)}`,
    `doc: ${doc}`,
    `revision: ${revision}`,
    '---',
  ];
  return `${header.join('\n')}\n${normalizeText(text)}\n`;
}

export function parseCoreFile(raw: string): CoreFile {
  const text = raw.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (!match) return { revision: null, text: normalizeText(text) };
  const revision = /^revision:\s*(\d{1,15})\s*$/m.exec(match[1] ?? '');
  return {
    revision: revision ? Number(revision[1]) : null,
    text: normalizeText(text.slice(match[0].length)),
  };
}

const locks = new Map<string, Mutex>();

export interface CoreFiles {
  read(owner: string, doc: CoreDoc): CoreFile | null;
  write(owner: string, doc: CoreDoc, revision: number, text: string): void;
  remove(owner: string, doc: CoreDoc): void;
  /** Runs `fn` alone among this process's file work on the owner's documents. */
  exclusive<T>(owner: string, fn: () => Promise<T>): Promise<T>;
}

export function createCoreFiles(dataDir: string): CoreFiles {
  const root = join(dataDir, 'core');
  const dirOf = (owner: string) => join(root, ownerSlug(owner));
  const pathOf = (owner: string, doc: CoreDoc) => join(dirOf(owner), `${doc}.md`);
  return {
    read(owner, doc) {
      try {
        return parseCoreFile(readFileSync(pathOf(owner, doc), 'utf8'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    // invariant: a core file is replaced whole or not at all: written beside it, then renamed over it
    // (test: src/organize/core-files.test.ts "writes atomically…").
    write(owner, doc, revision, text) {
      mkdirSync(dirOf(owner), { recursive: true, mode: 0o700 });
      const path = pathOf(owner, doc);
      const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      writeFileSync(draft, renderCoreFile(owner, doc, revision, text), { mode: 0o600 });
      renameSync(draft, path);
    },
    remove(owner, doc) {
      rmSync(pathOf(owner, doc), { force: true });
    },
    async exclusive(owner, fn) {
      const key = dirOf(owner);
      const lock = locks.get(key) ?? new Mutex();
      locks.set(key, lock);
      await lock.acquire();
      try {
        return await fn();
      } finally {
        lock.release();
        if (!lock.locked) locks.delete(key);
      }
    },
  };
}
