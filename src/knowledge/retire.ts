// Retirement: a candidate fact unconfirmed for three workdays retires (valid until then), and nothing
// revives it automatically.
import type { Driver } from '../storage/driver.js';
import { int, row, str } from '../storage/rows.js';
import { stale } from './evidence.js';

const CandidateRow = row({ owner: str, memory_id: str, first_at: int });

const CANDIDATE = `(m.lifecycle = 'candidate' OR (m.lifecycle IS NULL AND m.status = 'candidate'))`;

/**
 * Retires every candidate fact (of `owner`, or of every owner) whose first source event lies three or more
 * workdays before `now`; answers how many retired.
 * invariant: a retired fact is never promoted again automatically (test: src/knowledge/promotion.test.ts
 * "a retired candidate stays retired").
 */
export async function retireStaleCandidates(
  db: Driver,
  now: number,
  timeZone: string,
  owner?: string,
): Promise<number> {
  const candidates = await db.all(
    CandidateRow,
    `SELECT m.owner, m.memory_id, min(e.at) AS first_at FROM memories m
       JOIN memory_sources s ON s.owner = m.owner AND s.memory_id = m.memory_id
       JOIN events e ON e.owner = s.owner AND e.event_id = s.event_id
      WHERE m.kind = 'fact' AND ${CANDIDATE} ${owner === undefined ? '' : 'AND m.owner = ?'}
      GROUP BY m.owner, m.memory_id ORDER BY m.owner, m.memory_id`,
    owner === undefined ? [] : [owner],
  );
  const byOwner = new Map<string, string[]>();
  for (const c of candidates) {
    if (stale(c.first_at, now, timeZone))
      byOwner.set(c.owner, [...(byOwner.get(c.owner) ?? []), c.memory_id]);
  }
  let retired = 0;
  for (const [who, ids] of byOwner) {
    retired += await db.transaction(async (tx) => {
      await tx.lockOwner(who);
      let n = 0;
      for (const id of ids) {
        // Still a candidate: evidence may have promoted it since it was read.
        const done = await tx.run(
          `UPDATE memories SET lifecycle = 'retired', status = 'deprecated', valid_to = ?, updated_at = ?
            WHERE owner = ? AND memory_id = ? AND kind = 'fact' AND ${CANDIDATE.replaceAll('m.', '')}`,
          [now, now, who, id],
        );
        n += done.changes;
      }
      return n;
    });
  }
  return retired;
}
