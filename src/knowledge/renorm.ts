// After migration 0010: the normal forms of the memories stored before it, computed once at start (SQL
// has neither NFKC nor Unicode punctuation classes).
import type { Driver } from '../storage/driver.js';
import { nstr, row, str } from '../storage/rows.js';
import { normsOf } from './facts.js';

const SETTING = 'knowledge_norms';
const CHUNK = 500;

const ContentRow = row({ memory_id: str, text: str, subject: nstr, predicate: nstr, object: nstr });
const ValueRow = row({ value: str });

/** Fills norm_text, norm_subject, norm_predicate and norm_object when the migration asked for it. */
export async function renormMemories(driver: Driver): Promise<number> {
  const pending = await driver.one(ValueRow, 'SELECT value FROM settings WHERE key = ?', [SETTING]);
  if (pending?.value !== 'pending') return 0;
  let after = '';
  let done = 0;
  for (;;) {
    const rows = await driver.all(
      ContentRow,
      `SELECT memory_id, text, subject, predicate, object FROM memories
        WHERE memory_id > ? ORDER BY memory_id LIMIT ?`,
      [after, CHUNK],
    );
    const last = rows.at(-1);
    if (!last) break;
    await driver.transaction(async (tx) => {
      for (const r of rows) {
        const n = normsOf(r);
        await tx.run(
          `UPDATE memories SET norm_text = ?, norm_subject = ?, norm_predicate = ?, norm_object = ?
            WHERE memory_id = ?`,
          [n.norm_text, n.norm_subject, n.norm_predicate, n.norm_object, r.memory_id],
        );
      }
    });
    after = last.memory_id;
    done += rows.length;
  }
  await driver.run('DELETE FROM settings WHERE key = ?', [SETTING]);
  return done;
}
