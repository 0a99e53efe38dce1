import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreFiles, ownerSlug, parseCoreFile, renderCoreFile } from './core-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('core document files', () => {
  it('names each owner by a distinct, safe file name', () => {
    expect(ownerSlug('user:alice')).toBe('user%3Aalice');
    expect(ownerSlug('team:acme/user:bob')).toBe('team%3Aacme%2Fuser%3Abob');
    expect(ownerSlug('..')).toBe('%2E%2E');
    expect(ownerSlug('林')).toBe('%E6%9E%97');
    const long = ownerSlug('x'.repeat(200));
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long).not.toBe(ownerSlug(`${'x'.repeat(199)}y`));
  });

  it('reads back what it renders; a file without front matter has no revision', () => {
    const raw = renderCoreFile('user:alice', 'USER', 7, '第一行\r\n第二行\n\n');
    expect(parseCoreFile(raw)).toEqual({ revision: 7, text: '第一行\n第二行' });
    expect(parseCoreFile('just text\n')).toEqual({ revision: null, text: 'just text' });
    expect(parseCoreFile('---\nrevision: x\n---\nbody')).toEqual({ revision: null, text: 'body' });
  });

  it('writes atomically: a whole file renamed into place, no temporary file left, 0600', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-core-'));
    dirs.push(dir);
    const files = createCoreFiles(dir);
    const folder = join(dir, 'core', 'user%3Aalice');
    files.write('user:alice', 'SOUL', 1, 'a');
    const before = statSync(join(folder, 'SOUL.md')).ino;
    files.write('user:alice', 'SOUL', 2, 'b'.repeat(10_000));
    // A new file took the name (rename), so a reader sees the old whole file or the new whole file.
    expect(statSync(join(folder, 'SOUL.md')).ino).not.toBe(before);
    expect(readdirSync(folder)).toEqual(['SOUL.md']);
    expect(parseCoreFile(readFileSync(join(folder, 'SOUL.md'), 'utf8'))).toEqual({
      revision: 2,
      text: 'b'.repeat(10_000),
    });
    expect(files.read('user:alice', 'USER')).toBeNull();
    expect(statSync(join(folder, 'SOUL.md')).mode & 0o777).toBe(0o600);
  });
});
