// memory.chain.upsert: a host's or person's direct write of objects and relations, redacted, citing its
// source events (given, or a note stored for it), duplicates merged, in one transaction.
import { MemoryError } from '../errors.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import type { ChainUpsertParams } from './chain-schema.js';
import { redactObjects } from './object-redact.js';
import { writeObjects, type WriteOutcome } from './object-write.js';
import { writeNote, type NoteDeps } from './note.js';

export interface ChainDeps extends NoteDeps {
  driver: Driver;
  redactor: Redactor;
}

/**
 * What the note of a write says: each object with its aliases, each relation. Not the bodies: they are in the
 * objects and their revisions, and a second copy in an event would compete with them in recall.
 */
export function noteText(p: Pick<ChainUpsertParams, 'objects' | 'relations'>): string {
  const lines = ['memory.chain.upsert'];
  for (const o of p.objects) {
    const aliases = o.aliases && o.aliases.length > 0 ? ` (${o.aliases.join(', ')})` : '';
    lines.push(`${o.type} ${o.name}${aliases}${o.body ? ` (body: ${o.body.length} characters)` : ''}`);
  }
  for (const r of p.relations) lines.push(`${r.from} ${r.type} ${r.to}`);
  return lines.join('\n');
}

async function checkedSources(deps: ChainDeps, owner: string, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = new Set((await getEventsByIds(deps.driver, owner, unique)).map((e) => e.event_id));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new MemoryError('NOT_FOUND', `no event ${missing.join(', ')} for this owner`, { missing });
  }
  return unique;
}

export async function upsertChain(
  deps: ChainDeps,
  p: ChainUpsertParams,
): Promise<WriteOutcome & { source_refs: string[] }> {
  const { objects, refused } = await redactObjects(
    deps.redactor,
    p.objects.map((o) => ({ ...o, aliases: o.aliases ?? [] })),
  );
  if (refused.length > 0) {
    throw new MemoryError('CREDENTIAL_VALUE_REFUSED', refused[0]?.message, { issues: refused });
  }
  const sources = p.source_refs
    ? await checkedSources(deps, p.owner, p.source_refs)
    : [await writeNote(deps, p.owner, noteText({ objects, relations: p.relations }))];
  const now = deps.now();
  const written = await deps.driver.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    return writeObjects(
      tx,
      p.owner,
      objects.map((o) => ({ ...o, sources: sources.map((event_id) => ({ event_id, quote: null })) })),
      p.relations.map((r) => ({ ...r, sources })),
      { now, body: 'replace' },
    );
  });
  return { ...written, source_refs: sources };
}
