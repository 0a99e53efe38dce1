// memory.forget with events: the raw events the forgotten items cite go too (rows, index documents,
// vectors, batch membership, the context they gave the next turn), then every memory, object and relation
// that lost its last source with them.
import type { Queryable } from '../storage/driver.js';
import { int, row, str } from '../storage/rows.js';
import type { KnowledgeContext } from './facts.js';
import { chunksOf, containsSql, dropDocs, reindexNeighbours, turnsOf } from './forget-docs.js';
import { deleteMemories, deleteObjects, deleteRelations, type Forgotten } from './forget-rows.js';
import { inList } from './objects.js';

const IdRow = row({ id: str });
const EventRow = row({ seq: int, event_id: str, text: str });

/** The events these memories and objects cite. */
export async function citedEvents(
  tx: Queryable,
  owner: string,
  memories: readonly string[],
  objects: readonly string[],
): Promise<string[]> {
  const cited = new Set<string>();
  const read = async (sql: string, ids: readonly string[]) => {
    for (const part of chunksOf(ids))
      for (const r of await tx.all(IdRow, `${sql} ${inList(part)}`, [owner, ...part])) cited.add(r.id);
  };
  await read('SELECT event_id AS id FROM memory_sources WHERE owner = ? AND memory_id IN', memories);
  await read('SELECT event_id AS id FROM object_sources WHERE owner = ? AND object_id IN', objects);
  for (const part of chunksOf(objects)) {
    const rows = await tx.all(
      IdRow,
      `SELECT s.event_id AS id FROM relation_sources s JOIN object_relations r
          ON r.owner = s.owner AND r.relation_id = s.relation_id
        WHERE s.owner = ? AND (r.from_id IN ${inList(part)} OR r.to_id IN ${inList(part)})`,
      [owner, ...part, ...part],
    );
    for (const r of rows) cited.add(r.id);
  }
  return [...cited];
}

/** Ids in `col` of `table` for rows citing these events (read before their sources are deleted). */
async function citing(
  tx: Queryable,
  table: string,
  col: string,
  owner: string,
  events: readonly string[],
): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of chunksOf(events))
    for (const r of await tx.all(
      IdRow,
      `SELECT DISTINCT ${col} AS id FROM ${table} WHERE owner = ? AND event_id IN ${inList(part)}`,
      [owner, ...part],
    ))
      out.add(r.id);
  return out;
}

/** Of these items (still there), those with no source left. */
async function unsourced(
  tx: Queryable,
  item: { table: string; sources: string; col: string },
  owner: string,
  ids: ReadonlySet<string>,
): Promise<string[]> {
  const left: string[] = [];
  for (const id of ids) {
    const found = await tx.one(
      row({ present: int, sourced: int }),
      `SELECT (SELECT count(*) FROM ${item.table} WHERE owner = ? AND ${item.col} = ?) AS present,
              (SELECT count(*) FROM ${item.sources} WHERE owner = ? AND ${item.col} = ?) AS sourced`,
      [owner, id, owner, id],
    );
    if (found && found.present > 0 && found.sourced === 0) left.push(id);
  }
  return left;
}

const MEMORY = { table: 'memories', sources: 'memory_sources', col: 'memory_id' };
const OBJECT = { table: 'objects', sources: 'object_sources', col: 'object_id' };
const RELATION = { table: 'object_relations', sources: 'relation_sources', col: 'relation_id' };

export async function deleteEvents(
  tx: Queryable,
  owner: string,
  eventIds: readonly string[],
  out: Forgotten,
  ctx: KnowledgeContext,
): Promise<void> {
  const memories = await citing(tx, 'memory_sources', 'memory_id', owner, eventIds);
  const objects = await citing(tx, 'object_sources', 'object_id', owner, eventIds);
  const relations = await citing(tx, 'relation_sources', 'relation_id', owner, eventIds);
  const turns = await turnsOf(tx, owner, eventIds);
  let deleted = 0;
  for (const part of chunksOf(eventIds)) {
    const rows = await tx.all(
      EventRow,
      `SELECT seq, event_id, text FROM events WHERE owner = ? AND event_id IN ${inList(part)}`,
      [owner, ...part],
    );
    if (rows.length === 0) continue;
    const ids = rows.map((r) => r.event_id);
    const seqs = rows.map((r) => r.seq);
    await dropDocs(tx, owner, 'event', ids, out);
    for (const table of ['memory_sources', 'object_sources', 'relation_sources', 'procedure_evidence'])
      await tx.run(`DELETE FROM ${table} WHERE owner = ? AND event_id IN ${inList(ids)}`, [owner, ...ids]);
    await tx.run(`DELETE FROM observation_items WHERE seq IN ${inList(seqs)}`, seqs);
    await tx.run(`DELETE FROM observation_consumed WHERE owner = ? AND seq IN ${inList(seqs)}`, [
      owner,
      ...seqs,
    ]);
    for (const id of ids)
      await tx.run(`DELETE FROM suggestions WHERE owner = ? AND ${containsSql(tx, 'source_refs')}`, [
        owner,
        JSON.stringify(id),
      ]);
    await tx.run(`DELETE FROM events WHERE owner = ? AND event_id IN ${inList(ids)}`, [owner, ...ids]);
    for (const r of rows) {
      out.events.add(r.event_id);
      out.seqs.add(r.seq);
      out.texts.add(r.text);
    }
    deleted += rows.length;
  }
  await tx.run('UPDATE event_owners SET events = events - ? WHERE owner = ?', [deleted, owner]);
  await reindexNeighbours(tx, owner, turns, out);
  // Deleting derived items removes no further source, so one pass leaves the store stable.
  await deleteMemories(tx, owner, await unsourced(tx, MEMORY, owner, memories), out, ctx);
  await deleteObjects(tx, owner, await unsourced(tx, OBJECT, owner, objects), out);
  await deleteRelations(tx, owner, await unsourced(tx, RELATION, owner, relations), out);
}
