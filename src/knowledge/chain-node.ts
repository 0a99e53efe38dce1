// memory.chain.node: the raw evidence behind an object or relation, a range of one source event's text
// (like timeline.read), with what cites it.
import { MemoryError } from '../errors.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Queryable } from '../storage/driver.js';
import { row, str } from '../storage/rows.js';
import type { ChainNodeParams } from './chain-schema.js';
import { iso } from './object-view.js';

const ObjectIdRow = row({ id: str });

export async function readNode(db: Queryable, p: ChainNodeParams) {
  const [event] = await getEventsByIds(db, p.owner, [p.id]);
  if (!event) throw new MemoryError('NOT_FOUND', `no event ${p.id} for this owner`, { id: p.id });
  const objects = await db.all(
    ObjectIdRow,
    // A revoked object is named nowhere.
    `SELECT s.object_id AS id FROM object_sources s
       JOIN objects o ON o.owner = s.owner AND o.object_id = s.object_id
      WHERE s.owner = ? AND s.event_id = ? AND o.revoked_at IS NULL ORDER BY s.object_id`,
    [p.owner, p.id],
  );
  const relations = await db.all(
    ObjectIdRow,
    'SELECT relation_id AS id FROM relation_sources WHERE owner = ? AND event_id = ? ORDER BY relation_id',
    [p.owner, p.id],
  );
  const offset = Math.min(p.offset, event.text.length);
  const end = Math.min(event.text.length, offset + p.limit);
  return {
    id: event.event_id,
    kind: event.kind,
    role: event.role,
    at: iso(event.at),
    session_id: event.session_id,
    task_id: event.task_id,
    offset,
    text: event.text.slice(offset, end),
    length: event.text.length,
    next_offset: end < event.text.length ? end : null,
    cited_by: { objects: objects.map((o) => o.id), relations: relations.map((r) => r.id) },
  };
}
