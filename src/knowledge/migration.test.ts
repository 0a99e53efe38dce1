// Migration 0010 over memories stored before it: validity and origin backfilled in SQL, normal forms at
// the next start; memories can be deleted now (by memory.forget), their content still never changes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, freshPostgresUrl, type Engine } from '../../test/helpers/engines.js';
import { sqlFirst, sqlRows } from '../../test/helpers/sql.js';
import type { Driver } from '../storage/driver.js';
import { loadMigrations, migrate, migrationsDir } from '../storage/migrate.js';
import { openPostgres } from '../storage/postgres.js';
import { openSqlite } from '../storage/sqlite.js';
import { renormMemories } from './renorm.js';

const T = Date.parse('2026-11-16T10:00:00+08:00');

async function openDriver(engine: Engine): Promise<{ db: Driver; drop(): Promise<void> }> {
  if (engine === 'sqlite') return { db: openSqlite({ path: ':memory:' }), drop: async () => {} };
  const store = await freshPostgresUrl();
  return { db: await openPostgres({ url: store.url, poolSize: 2 }), drop: store.drop };
}

/** Events, a batch and two memories written the way versions before 0010 wrote them. */
async function seed(db: Driver): Promise<void> {
  const event = (id: string, role: string, at: number) =>
    db.run(
      `INSERT INTO events (owner, event_id, kind, role, at, text, content_hash, ingested_at)
       VALUES ('u', ?, 'user_message', ?, ?, 'x', ?, ?)`,
      [id, role, at, `h-${id}`, at],
    );
  await event('e1', 'agent', T);
  await event('e2', 'user', T + 1);
  await event('e3', 'tool', T + 2);
  await db.run(
    `INSERT INTO observation_batches (batch_id, owner, state, closed_by, event_count, bytes, created_at, next_attempt_at)
     VALUES ('ob1', 'u', 'published', 'wait', 3, 3, ?, ?)`,
    [T, T],
  );
  const memory = (id: string, kind: string, text: string, spo: Array<string | null>) =>
    db.run(
      `INSERT INTO memories (memory_id, owner, kind, status, text, subject, predicate, object, at, batch_id,
                             publish_seq, created_at)
       VALUES (?, 'u', ?, 'candidate', ?, ?, ?, ?, ?, 'ob1', 1, ?)`,
      [id, kind, text, ...spo, T + 2, T + 5],
    );
  await memory('m1', 'fact', '会议纪要用 Word。', ['【会议纪要】', '格式', 'WORD']);
  await memory('m2', 'episode', 'A tool ran.', [null, null, null]);
  const source = (memoryId: string, eventId: string, position: number) =>
    db.run('INSERT INTO memory_sources (memory_id, owner, event_id, position) VALUES (?, ?, ?, ?)', [
      memoryId,
      'u',
      eventId,
      position,
    ]);
  await source('m1', 'e1', 0);
  await source('m1', 'e2', 1);
  await source('m2', 'e3', 0);
}

describe.each(ENGINES)('migration 0010 on %s', (engine) => {
  let db: Driver;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    ({ db, drop } = await openDriver(engine));
    const all = loadMigrations(migrationsDir(db.dialect));
    await migrate(
      db,
      all.filter((m) => m.version < 10),
    );
    await seed(db);
    await migrate(db, all);
  });
  afterEach(async () => {
    await db.close();
    await drop();
  });

  it('backfills validity and origin, then the normal forms once at start', async () => {
    const rows = () =>
      sqlRows(
        db,
        `SELECT memory_id, valid_from, valid_to, origin, updated_at, lifecycle, norm_subject, norm_predicate,
                norm_object, norm_text FROM memories ORDER BY memory_id`,
      );
    const before = { valid_to: null, lifecycle: null, updated_at: T + 5, valid_from: T + 2 };
    expect(await rows()).toEqual([
      {
        memory_id: 'm1',
        ...before,
        origin: 'user',
        norm_subject: null,
        norm_predicate: null,
        norm_object: null,
        norm_text: null,
      },
      {
        memory_id: 'm2',
        ...before,
        origin: 'tool',
        norm_subject: null,
        norm_predicate: null,
        norm_object: null,
        norm_text: null,
      },
    ]);
    expect(await renormMemories(db)).toBe(2);
    expect(await renormMemories(db)).toBe(0);
    expect(await rows()).toMatchObject([
      { norm_subject: '会议纪要', norm_predicate: '格式', norm_object: 'word', norm_text: '会议纪要用 word' },
      { norm_subject: null, norm_object: null, norm_text: 'a tool ran' },
    ]);
  });

  it('lets memories and their sources be deleted; their content still never changes', async () => {
    await expect(db.run(`UPDATE memories SET text = 'changed' WHERE memory_id = 'm1'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(db.run(`UPDATE memory_sources SET position = 5 WHERE memory_id = 'm1'`)).rejects.toThrow(
      /append-only/,
    );
    await db.run(`UPDATE memories SET lifecycle = 'superseded', status = 'deprecated', valid_to = 1`);
    await db.run(`DELETE FROM memory_sources WHERE memory_id = 'm2'`);
    await db.run(`DELETE FROM memories WHERE memory_id = 'm2'`);
    expect(await sqlFirst(db, 'SELECT count(*) AS n FROM memories')).toEqual({ n: 1 });
    await expect(db.run(`UPDATE memories SET lifecycle = 'gone'`)).rejects.toThrow();
  });
});
