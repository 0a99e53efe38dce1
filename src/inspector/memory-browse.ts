// memory.browse: an owner's memories newest first, with status, validity and sources, a page at a time.
import { z } from 'zod';
import { reportedStatus } from '../knowledge/knowledge.js';
import { MEMORY_KINDS } from '../observe/schema.js';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import { ProcedureSchema, type BrowsedMemory, type MemoryBrowseParams } from './schema.js';

const MemoryRow = row({
  memory_id: str,
  kind: z.enum(MEMORY_KINDS),
  status: str,
  lifecycle: nstr,
  text: str,
  fact_kind: nstr,
  subject: nstr,
  predicate: nstr,
  object: nstr,
  procedure: nstr,
  at: int,
  valid_from: nint,
  valid_to: nint,
  origin: nstr,
  conflict_id: nstr,
  revoked_reason: nstr,
  created_at: int,
  updated_at: nint,
});
const SourceRow = row({ memory_id: str, event_id: str });

const iso = (t: number): string => new Date(t).toISOString();
/** Stages after which an item no longer holds (procedures and skills stay current while observed or drafted). */
const ENDED: readonly string[] = ['superseded', 'retired', 'revoked', 'deprecated'];
const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

function procedureOf(text: string | null): BrowsedMemory['procedure'] {
  if (text === null) return null;
  try {
    const parsed = ProcedureSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function browseMemories(
  db: Queryable,
  p: MemoryBrowseParams,
): Promise<{ items: BrowsedMemory[]; next_after: string | null }> {
  const where = ['owner = ?'];
  const params: SqlValue[] = [p.owner];
  if (p.kinds) {
    where.push(`kind IN (${placeholders(p.kinds.length)})`);
    params.push(...p.kinds);
  }
  if (p.statuses) {
    where.push(`coalesce(lifecycle, status) IN (${placeholders(p.statuses.length)})`);
    params.push(...p.statuses);
  }
  if (p.after) {
    const cut = p.after.indexOf(':');
    const createdAt = Number(p.after.slice(0, cut));
    where.push('(created_at < ? OR (created_at = ? AND memory_id < ?))');
    params.push(createdAt, createdAt, p.after.slice(cut + 1));
  }
  const rows = await db.all(
    MemoryRow,
    `SELECT ${Object.keys(MemoryRow.shape).join(', ')} FROM memories WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, memory_id DESC LIMIT ?`,
    [...params, p.limit + 1],
  );
  const page = rows.slice(0, p.limit);
  const sources = new Map<string, string[]>(page.map((r) => [r.memory_id, []]));
  if (page.length > 0) {
    const cited = await db.all(
      SourceRow,
      `SELECT memory_id, event_id FROM memory_sources
        WHERE owner = ? AND memory_id IN (${placeholders(page.length)}) ORDER BY memory_id, position`,
      [p.owner, ...page.map((r) => r.memory_id)],
    );
    for (const s of cited) sources.get(s.memory_id)?.push(s.event_id);
  }
  const items = page.map((r): BrowsedMemory => {
    const status = reportedStatus(r);
    return {
      id: r.memory_id,
      kind: r.kind,
      text: r.text,
      status,
      current: r.valid_to === null && !ENDED.includes(status),
      valid_from: iso(r.valid_from ?? r.at),
      valid_to: r.valid_to === null ? null : iso(r.valid_to),
      subject: r.subject,
      predicate: r.predicate,
      value: r.object,
      fact_kind: r.fact_kind,
      origin: r.origin,
      conflict_id: r.conflict_id,
      revoked_reason: r.revoked_reason,
      procedure: procedureOf(r.procedure),
      sources: sources.get(r.memory_id) ?? [],
      at: iso(r.at),
      created_at: iso(r.created_at),
      updated_at: r.updated_at === null ? null : iso(r.updated_at),
    };
  });
  const last = page.at(-1);
  return {
    items,
    next_after: rows.length > p.limit && last ? `${last.created_at}:${last.memory_id}` : null,
  };
}
