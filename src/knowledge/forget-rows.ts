// The rows memory.forget deletes of memories and objects, with everything that cites them. invariant:
// memories are deleted only here (memory.forget), the one module with a DELETE on them (test:
// src/knowledge/migration.test.ts).
import type { Queryable } from '../storage/driver.js';
import { nstr, row, str } from '../storage/rows.js';
import { aliasesOf } from './aliases.js';
import { settleKey, type KnowledgeContext } from './facts.js';
import { chunksOf, containsSql, dropDocs, type Tally } from './forget-docs.js';
import { inList } from './objects.js';

export interface Forgotten extends Tally {
  memories: Set<string>;
  objects: Set<string>;
  events: Set<string>;
  /** Sequence numbers of the forgotten events (what covered them is rewritten). */
  seqs: Set<number>;
  relations: number;
  /** Texts of what was forgotten: an inbox item quoting one goes too. */
  texts: Set<string>;
}

const MemoryKeyRow = row({ memory_id: str, text: str, norm_subject: nstr, norm_predicate: nstr });
const IdRow = row({ id: str });
const ObjectTextRow = row({ id: str, name: str, body: str });

/** Deletes `ref IN ids` rows of each table, for one owner. */
async function deleteFrom(
  tx: Queryable,
  tables: ReadonlyArray<readonly [string, string]>,
  owner: string,
  ids: readonly string[],
): Promise<void> {
  for (const [table, col] of tables)
    await tx.run(`DELETE FROM ${table} WHERE owner = ? AND ${col} IN ${inList(ids)}`, [owner, ...ids]);
}

export async function deleteMemories(
  tx: Queryable,
  owner: string,
  ids: readonly string[],
  out: Forgotten,
  ctx: KnowledgeContext,
): Promise<void> {
  const keys = new Map<string, [string, string]>();
  for (const part of chunksOf(ids)) {
    const rows = await tx.all(
      MemoryKeyRow,
      `SELECT memory_id, text, norm_subject, norm_predicate FROM memories
        WHERE owner = ? AND memory_id IN ${inList(part)}`,
      [owner, ...part],
    );
    if (rows.length === 0) continue;
    const found = rows.map((r) => r.memory_id);
    await dropDocs(tx, owner, 'memory', found, out);
    await deleteFrom(
      tx,
      [
        ['procedure_evidence', 'memory_id'],
        ['procedure_follows', 'memory_id'],
        ['suggestions', 'memory_id'],
        ['fact_resolutions', 'keep_id'],
        ['memory_sources', 'memory_id'],
        ['memories', 'memory_id'],
      ],
      owner,
      found,
    );
    for (const r of rows) {
      out.memories.add(r.memory_id);
      out.texts.add(r.text);
      if (r.norm_subject !== null && r.norm_predicate !== null)
        keys.set(`${r.norm_subject}\u0000${r.norm_predicate}`, [r.norm_subject, r.norm_predicate]);
    }
  }
  // The version a forgotten fact had superseded is current again.
  for (const [subject, predicate] of keys.values()) await settleKey(tx, owner, subject, predicate, ctx);
}

/** Deletes relations of `owner` by id, with their sources. */
export async function deleteRelations(
  tx: Queryable,
  owner: string,
  ids: readonly string[],
  out: Forgotten,
): Promise<void> {
  for (const part of chunksOf(ids)) {
    await deleteFrom(
      tx,
      [
        ['relation_sources', 'relation_id'],
        ['object_relations', 'relation_id'],
      ],
      owner,
      part,
    );
    out.relations += part.length;
  }
}

export async function deleteObjects(
  tx: Queryable,
  owner: string,
  ids: readonly string[],
  out: Forgotten,
): Promise<void> {
  for (const part of chunksOf(ids)) {
    const rows = await tx.all(
      ObjectTextRow,
      `SELECT object_id AS id, name, body FROM objects WHERE owner = ? AND object_id IN ${inList(part)}`,
      [owner, ...part],
    );
    const found = rows.map((r) => r.id);
    if (found.length === 0) continue;
    const aliases = await aliasesOf(tx, owner, found);
    for (const r of rows) out.texts.add([r.name, ...(aliases.get(r.id) ?? []), r.body].join('\n'));
    await dropDocs(tx, owner, 'object', found, out);
    const relations = await tx.all(
      IdRow,
      `SELECT relation_id AS id FROM object_relations
        WHERE owner = ? AND (from_id IN ${inList(found)} OR to_id IN ${inList(found)})`,
      [owner, ...found, ...found],
    );
    await deleteRelations(
      tx,
      owner,
      relations.map((r) => r.id),
      out,
    );
    // A track entry of the project keeps its text, no longer its project.
    await tx.run(`UPDATE memories SET project_id = NULL WHERE owner = ? AND project_id IN ${inList(found)}`, [
      owner,
      ...found,
    ]);
    for (const id of found) {
      // The working-memory ring names the objects a segment mentions.
      await tx.run(`DELETE FROM working_segments WHERE owner = ? AND ${containsSql(tx, 'entities')}`, [
        owner,
        JSON.stringify(`obj:${id}`),
      ]);
      out.objects.add(id);
    }
    await deleteFrom(
      tx,
      [
        ['object_aliases', 'object_id'],
        ['object_sources', 'object_id'],
        ['object_revisions', 'object_id'],
        ['objects', 'object_id'],
      ],
      owner,
      found,
    );
  }
}
