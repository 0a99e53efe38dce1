// Core documents: first import only, updates against an expected revision, every version kept, credentials
// refused; the editable files: edits picked up by the next context call, stale edits kept as conflicts.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownerSlug, parseCoreFile } from '../../src/organize/core-files.js';
import { ENGINES } from '../helpers/engines.js';
import { errorOf } from '../helpers/errors.js';
import { sqlRows } from '../helpers/sql.js';
import { openOrganizeFixture, type OrganizeFixture } from './fixture.js';

const OWNER = 'team:acme/user:alice';
const SECRET = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

interface Docs {
  docs: Array<{
    doc: string;
    revision: number;
    text: string;
    versions?: Array<{ revision: number; text: string; source: string }>;
  }>;
  conflicts: Array<{
    doc: string;
    base_revision: number | null;
    current_revision: number;
    reason: string;
    text: string;
  }>;
}

describe.each(ENGINES)('core documents on %s', (engine) => {
  let f: OrganizeFixture;
  beforeEach(async () => {
    f = await openOrganizeFixture(engine);
  });
  afterEach(() => f.close());

  const fileOf = (doc: string) => join(f.dataDir, 'core', ownerSlug(OWNER), `${doc}.md`);
  const get = (params: Record<string, unknown> = {}) =>
    f.client.call<Docs>('memory.chain.core.get', { owner: OWNER, ...params });
  const update = (doc: string, text: string, expected_revision: number) =>
    f.client.call<{ revision: number }>('memory.chain.core.update', {
      owner: OWNER,
      doc,
      text,
      expected_revision,
    });
  const contextCall = () => f.client.call('memory.chain.context', { owner: OWNER, max_tokens: 4_000 });

  it('imports on the first bootstrap only; later calls change nothing and say so', async () => {
    const first = await f.client.call('memory.chain.core.bootstrap', {
      owner: OWNER,
      docs: { SOUL: '简短、直接。', USER: '林若溪，产品经理。' },
    });
    expect(first).toMatchObject({
      imported: true,
      docs: [
        { doc: 'SOUL', revision: 1 },
        { doc: 'USER', revision: 1 },
      ],
    });
    const again = await f.client.call<{ imported: boolean; message: string }>('memory.chain.core.bootstrap', {
      owner: OWNER,
      docs: { SOUL: 'something else', AGENTS: 'new' },
    });
    expect(again.imported).toBe(false);
    expect(again.message).toMatch(/changed nothing/);
    expect((await get()).docs.map((d) => [d.doc, d.text])).toEqual([
      ['SOUL', '简短、直接。'],
      ['USER', '林若溪，产品经理。'],
    ]);
  });

  it('updates against the expected revision; REVISION_CONFLICT changes nothing; every version is kept', async () => {
    expect(await update('USER', 'v1', 0)).toMatchObject({ revision: 1 });
    expect(await update('USER', 'v2', 1)).toMatchObject({ revision: 2 });
    const stale = await errorOf(update('USER', 'from an old read', 1));
    expect(stale.code).toBe('REVISION_CONFLICT');
    expect(stale.data).toEqual({ doc: 'USER', expected_revision: 1, current_revision: 2 });
    const { docs } = await get({ doc: 'USER', history: true });
    expect(docs[0]?.text).toBe('v2');
    expect(docs[0]?.versions?.map((v) => [v.revision, v.text, v.source])).toEqual([
      [1, 'v1', 'update'],
      [2, 'v2', 'update'],
    ]);
    await expect(f.service.driver.run(`UPDATE core_versions SET text = 'x'`)).rejects.toThrow(/append-only/);
    expect((await errorOf(update('USER', 'x'.repeat(2_401), 2))).code).toBe('INVALID_PARAMS');
    expect(await update('USER', '字'.repeat(2_400), 2)).toMatchObject({ revision: 3 });
  });

  it('refuses credentials (nothing stored), and stores personal identifiers redacted', async () => {
    const refused = await errorOf(update('AGENTS', `deploy with token ${SECRET}`, 0));
    expect(refused.code).toBe('CREDENTIAL_VALUE_REFUSED');
    expect(await f.count('SELECT count(*) AS n FROM core_versions')).toBe(0);
    const bootstrap = await errorOf(
      f.client.call('memory.chain.core.bootstrap', {
        owner: OWNER,
        docs: { USER: `password=${'hunter2hunter2'}` },
      }),
    );
    expect(bootstrap.code).toBe('CREDENTIAL_VALUE_REFUSED');
    expect(await update('USER', '她的手机号 13812345678', 0)).toMatchObject({ revision: 1, redacted: true });
    expect((await get()).docs[0]?.text).not.toContain('13812345678');
  });

  it('projects each document to its file with the revision in front matter, atomically', async () => {
    await update('SOUL', '你是桌面助手。', 0);
    await update('SOUL', '你是林若溪的桌面助手。', 1);
    const raw = readFileSync(fileOf('SOUL'), 'utf8');
    expect(raw).toBe(
      `---\nmnemo: core document\nowner: "${OWNER}"\ndoc: SOUL\nrevision: 2\n---\n你是林若溪的桌面助手。\n`,
    );
    expect(readdirSync(join(f.dataDir, 'core', ownerSlug(OWNER)))).toEqual(['SOUL.md']);
    // A deleted file comes back with the next context call.
    rmSync(fileOf('SOUL'));
    await contextCall();
    expect(parseCoreFile(readFileSync(fileOf('SOUL'), 'utf8'))).toEqual({
      revision: 2,
      text: '你是林若溪的桌面助手。',
    });
  });

  it('picks up an edit of the file at the next context call as a new revision', async () => {
    await update('USER', 'Likes short answers.', 0);
    const edited = readFileSync(fileOf('USER'), 'utf8').replace(
      'Likes short answers.',
      'Likes short answers.\nPrefers 中文.',
    );
    writeFileSync(fileOf('USER'), edited);
    const ctx = await f.client.call<{ core: Array<{ doc: string; revision: number; text: string }> }>(
      'memory.chain.context',
      { owner: OWNER, max_tokens: 4_000 },
    );
    expect(ctx.core).toEqual([{ doc: 'USER', revision: 2, text: 'Likes short answers.\nPrefers 中文.' }]);
    expect(parseCoreFile(readFileSync(fileOf('USER'), 'utf8')).revision).toBe(2);
    const { docs } = await get({ doc: 'USER', history: true });
    expect(docs[0]?.versions?.map((v) => v.source)).toEqual(['update', 'file']);
    // An API update against the revision it read before the file edit is refused.
    expect((await errorOf(update('USER', 'stale', 1))).code).toBe('REVISION_CONFLICT');
  });

  it('an edit against an old revision becomes a conflict, listed in status, never applied over the newer one', async () => {
    await update('USER', 'v1', 0);
    const stale = readFileSync(fileOf('USER'), 'utf8'); // an editor holds revision 1
    await update('USER', 'v2 from the agent', 1);
    writeFileSync(fileOf('USER'), stale.replace('v1', 'v1 edited by hand'));
    await contextCall();
    const { docs, conflicts } = await get();
    expect(docs[0]).toMatchObject({ revision: 2, text: 'v2 from the agent' });
    expect(conflicts).toMatchObject([
      { doc: 'USER', base_revision: 1, current_revision: 2, text: 'v1 edited by hand' },
    ]);
    expect(parseCoreFile(readFileSync(fileOf('USER'), 'utf8'))).toEqual({
      revision: 2,
      text: 'v2 from the agent',
    });
    await contextCall();
    const status = await f.client.call<{ core_conflicts: unknown[] }>('memory.chain.status', {
      owner: OWNER,
    });
    expect(status.core_conflicts).toHaveLength(1);
    // A credential typed into the file is refused the same way, and kept only redacted.
    writeFileSync(fileOf('USER'), readFileSync(fileOf('USER'), 'utf8').replace('agent', `agent ${SECRET}`));
    await contextCall();
    const after = await get();
    expect(after.docs[0]?.revision).toBe(2);
    expect(after.conflicts[0]?.reason).toMatch(/credential/);
    const stored = await sqlRows(
      f.service.driver,
      'SELECT text FROM core_conflicts UNION ALL SELECT text FROM core_versions',
    );
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect(readFileSync(fileOf('USER'), 'utf8')).not.toContain(SECRET);
    expect(existsSync(fileOf('SOUL'))).toBe(false);
  });

  it('imports a file written by hand before any document exists', async () => {
    const dir = join(f.dataDir, 'core', ownerSlug(OWNER));
    (await import('node:fs')).mkdirSync(dir, { recursive: true });
    writeFileSync(fileOf('AGENTS'), 'Always ask before sending e-mail.\n');
    await contextCall();
    expect((await get()).docs).toMatchObject([
      { doc: 'AGENTS', revision: 1, text: 'Always ask before sending e-mail.' },
    ]);
  });
});
