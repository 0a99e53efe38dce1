// Owns the events table: inserts and the reads later stages use.
import type { Queryable } from '../storage/driver.js';
import type { StoredEvent } from './schema.js';

export interface EventRow {
  owner: string;
  event_id: string;
  session_id: string | null;
  task_id: string | null;
  kind: string;
  role: string;
  at: number;
  text: string;
  meta: string | null;
  content_hash: string;
  redactions: string | null;
}

/** Inserts one event unless (owner, event_id) exists; returns its seq, or the stored hash when it existed. */
export async function insertEvent(
  tx: Queryable,
  row: EventRow,
  now: number,
): Promise<{ inserted: true; seq: number } | { inserted: false; existingHash: string }> {
  const result = await tx.run(
    `INSERT INTO events (owner, event_id, session_id, task_id, kind, role, at, text, meta, content_hash, redactions, ingested_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (owner, event_id) DO NOTHING`,
    [
      row.owner,
      row.event_id,
      row.session_id,
      row.task_id,
      row.kind,
      row.role,
      row.at,
      row.text,
      row.meta,
      row.content_hash,
      row.redactions,
      now,
    ],
  );
  if (result.changes === 1) return { inserted: true, seq: result.lastInsertRowid };
  const existing = await tx.get<{ content_hash: string }>(
    'SELECT content_hash FROM events WHERE owner = ? AND event_id = ?',
    [row.owner, row.event_id],
  );
  return { inserted: false, existingHash: existing?.content_hash ?? '' };
}

interface RawEvent {
  seq: number;
  owner: string;
  event_id: string;
  session_id: string | null;
  task_id: string | null;
  kind: StoredEvent['kind'];
  role: StoredEvent['role'];
  at: number;
  text: string;
  meta: string | null;
  redactions: string | null;
}

const COLUMNS = 'seq, owner, event_id, session_id, task_id, kind, role, at, text, meta, redactions';

const toStored = (row: RawEvent): StoredEvent => ({
  seq: row.seq,
  owner: row.owner,
  event_id: row.event_id,
  session_id: row.session_id,
  task_id: row.task_id,
  kind: row.kind,
  role: row.role,
  at: row.at,
  text: row.text,
  meta: row.meta === null ? null : (JSON.parse(row.meta) as Record<string, unknown>),
  redacted: row.redactions !== null,
});

export async function getEventsByIds(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<StoredEvent[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<RawEvent>(
    `SELECT ${COLUMNS} FROM events WHERE owner = ? AND event_id IN (${ids.map(() => '?').join(', ')})`,
    [owner, ...ids],
  );
  return rows.map(toStored);
}

export interface EventPage {
  owner: string;
  after?: number;
  from?: number;
  to?: number;
  taskId?: string;
  limit: number;
}

function pageWhere(page: Omit<EventPage, 'limit'>, after: boolean) {
  const where = ['owner = ?'];
  const params: Array<string | number> = [page.owner];
  const add = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    where.push(clause);
    params.push(value);
  };
  if (after) add('seq > ?', page.after ?? 0);
  add('at >= ?', page.from);
  add('at <= ?', page.to);
  add('task_id = ?', page.taskId);
  return { where: where.join(' AND '), params };
}

/** Events in sequence order after a cursor. */
export async function pageEvents(db: Queryable, page: EventPage): Promise<StoredEvent[]> {
  const { where, params } = pageWhere(page, true);
  const rows = await db.query<RawEvent>(`SELECT ${COLUMNS} FROM events WHERE ${where} ORDER BY seq LIMIT ?`, [
    ...params,
    page.limit,
  ]);
  return rows.map(toStored);
}

/** How many of the owner's events pass the page's filters, whatever the cursor. */
export async function countPage(db: Queryable, page: Omit<EventPage, 'limit' | 'after'>): Promise<number> {
  const { where, params } = pageWhere(page, false);
  const row = await db.get<{ n: number }>(`SELECT count(*) AS n FROM events WHERE ${where}`, params);
  return Number(row?.n ?? 0);
}

export async function countEvents(db: Queryable): Promise<{ events: number; owners: number }> {
  const row = await db.get<{ events: number; owners: number }>(
    'SELECT count(*) AS events, count(DISTINCT owner) AS owners FROM events',
  );
  return row ?? { events: 0, owners: 0 };
}
