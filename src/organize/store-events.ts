// Reads of ingest's events table that the timeline needs (ranges by sequence, newest first); writes none.
import { z } from 'zod';
import { EVENT_KINDS, EVENT_ROLES } from '../ingest/schema.js';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { CountRow, int, nstr, row, str } from '../storage/rows.js';

/** `owner = ?` and the clauses added whose value is given. */
function conditions(owner: string) {
  const where = ['owner = ?'];
  const params: SqlValue[] = [owner];
  const add = (clause: string, value: SqlValue | undefined) => {
    if (value === undefined) return;
    where.push(clause);
    params.push(value);
  };
  return { where, params, add };
}

const EventRow = row({
  seq: int,
  event_id: str,
  session_id: nstr,
  task_id: nstr,
  kind: z.enum(EVENT_KINDS),
  role: z.enum(EVENT_ROLES),
  at: int,
  text: str,
});
export type TimelineEvent = z.output<typeof EventRow>;
const COLUMNS = 'seq, event_id, session_id, task_id, kind, role, at, text';

/** Events after `after` up to `upTo` (sequence order), at most `limit`. */
export const eventsAfter = (
  db: Queryable,
  owner: string,
  range: { after: number; upTo?: number; limit: number },
): Promise<TimelineEvent[]> =>
  db.all(
    EventRow,
    `SELECT ${COLUMNS} FROM events WHERE owner = ? AND seq > ? ${range.upTo === undefined ? '' : 'AND seq <= ?'}
      ORDER BY seq LIMIT ?`,
    [owner, range.after, ...(range.upTo === undefined ? [] : [range.upTo]), range.limit],
  );

/** The newest events after `after` and before `before`, newest first; one session only when given. */
export function newestEvents(
  db: Queryable,
  owner: string,
  range: { after: number; before?: number; upTo?: number; sessionId?: string; limit: number },
): Promise<TimelineEvent[]> {
  const { where, params, add } = conditions(owner);
  add('seq > ?', range.after);
  add('seq < ?', range.before);
  add('seq <= ?', range.upTo);
  add('session_id = ?', range.sessionId);
  return db.all(
    EventRow,
    `SELECT ${COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`,
    [...params, range.limit],
  );
}

export async function countEventsAfter(
  db: Queryable,
  owner: string,
  after: number,
  sessionId?: string,
): Promise<number> {
  const found = await db.one(
    CountRow,
    `SELECT count(*) AS n FROM events WHERE owner = ? AND seq > ? ${sessionId === undefined ? '' : 'AND session_id = ?'}`,
    sessionId === undefined ? [owner, after] : [owner, after, sessionId],
  );
  return found?.n ?? 0;
}

/** The owner's events with sequence in [first, last]. */
export const eventsBetween = (db: Queryable, owner: string, first: number, last: number) =>
  db.all(EventRow, `SELECT ${COLUMNS} FROM events WHERE owner = ? AND seq >= ? AND seq <= ? ORDER BY seq`, [
    owner,
    first,
    last,
  ]);

export const eventsByIds = (db: Queryable, owner: string, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.all(
        EventRow,
        `SELECT ${COLUMNS} FROM events WHERE owner = ? AND event_id IN (${ids.map(() => '?').join(', ')}) ORDER BY seq`,
        [owner, ...ids],
      );

const IdRow = row({ seq: int, event_id: str });

/** Event ids by sequence, for naming a node's first and last event. */
export async function eventIdsAt(
  db: Queryable,
  owner: string,
  seqs: readonly number[],
): Promise<Map<number, string>> {
  if (seqs.length === 0) return new Map();
  const unique = [...new Set(seqs)];
  const rows = await db.all(
    IdRow,
    `SELECT seq, event_id FROM events WHERE owner = ? AND seq IN (${unique.map(() => '?').join(', ')})`,
    [owner, ...unique],
  );
  return new Map(rows.map((r) => [r.seq, r.event_id]));
}

const MemoryRow = row({ memory_id: str, kind: str, status: str, text: str, at: int });

/** The owner's memories (observe's table, read only), newest first. */
export function olderMemories(
  db: Queryable,
  owner: string,
  options: { kinds?: readonly string[] | undefined; before?: number | undefined; limit: number },
) {
  const { where, params, add } = conditions(owner);
  add('at < ?', options.before);
  if (options.kinds?.length) {
    where.push(`kind IN (${options.kinds.map(() => '?').join(', ')})`);
    params.push(...options.kinds);
  }
  return db.all(
    MemoryRow,
    `SELECT memory_id, kind, status, text, at FROM memories WHERE ${where.join(' AND ')}
      ORDER BY at DESC, memory_id LIMIT ?`,
    [...params, options.limit],
  );
}
