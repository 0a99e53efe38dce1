// After the upgrade that moved content hashes onto the redacted event (migration 0005): events with
// redactions get the hash of their stored fields, the same hash a new ingest of them computes.
import type { Driver } from '../storage/driver.js';
import { contentHash } from './prepare.js';
import { int, nstr, row, str } from '../storage/rows.js';

const SETTING = 'rehash_redacted';
const CHUNK = 500;

const EventContent = row({
  seq: int,
  session_id: nstr,
  task_id: nstr,
  kind: str,
  role: str,
  at: int,
  text: str,
  meta: nstr,
});
const ValueRow = row({ value: str });

/** Rehashes every event with redactions when the migration asked for it; returns how many. */
export async function rehashRedactedEvents(driver: Driver, salt: string): Promise<number> {
  const pending = await driver.one(ValueRow, 'SELECT value FROM settings WHERE key = ?', [SETTING]);
  if (pending?.value !== 'pending') return 0;
  let after = 0;
  let done = 0;
  for (;;) {
    const rows = await driver.all(
      EventContent,
      `SELECT seq, session_id, task_id, kind, role, at, text, meta FROM events
        WHERE redactions IS NOT NULL AND seq > ? ORDER BY seq LIMIT ?`,
      [after, CHUNK],
    );
    const last = rows.at(-1);
    if (!last) break;
    await driver.transaction(async (tx) => {
      for (const r of rows) {
        const hash = contentHash(salt, {
          ...r,
          meta: r.meta === null ? undefined : (JSON.parse(r.meta) as unknown),
        });
        await tx.run('UPDATE events SET content_hash = ? WHERE seq = ?', [hash, r.seq]);
      }
    });
    after = last.seq;
    done += rows.length;
  }
  await driver.run('DELETE FROM settings WHERE key = ?', [SETTING]);
  return done;
}
