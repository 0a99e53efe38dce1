// The final cut: the fused hits read back as events, memories and objects, in order, leaving out what
// the caller may not see (revoked always; superseded and retired facts unless asked; revoked or archived
// objects), until `limit` items are in.
import { aliasesOf } from '../knowledge/aliases.js';
import { reportedStatus } from '../knowledge/lifecycle.js';
import { OBJECT_DOC_KIND } from '../knowledge/object-index.js';
import { getObjects, objectSources, type ObjectRow } from '../knowledge/objects.js';
import {
  memoryVisibility,
  objectVisibility,
  visibilityOf,
  visibleMemory,
  visibleObject,
  type VisibilityRow,
} from '../knowledge/visibility.js';
import { getEventsByIds } from '../ingest/store.js';
import type { StoredEvent } from '../ingest/schema.js';
import { getMemoriesByIds, type MemoryWithSources } from '../observe/observe.js';
import type { DocHit, Fused } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import type { RecallItem, RecallParams, Via } from './schema.js';

export const RECALL_TEXT_LIMIT = 1_200;
/** An object item's text: its name, then the head of its body. */
export const OBJECT_HEAD = 280;

export interface Picked {
  fused: Fused<number>;
  hit: DocHit;
  event?: StoredEvent;
  memory?: MemoryWithSources & { visibility: VisibilityRow };
  object?: ObjectRow & { aliases: string[]; sources: string[] };
}

/** Fused hits read in chunks of this many times the limit, until `limit` visible ones are in. */
const CHUNK_FACTOR = 2;

/**
 * invariant: recall returns no revoked item, no superseded or retired memory unless asked for, and no revoked
 * or archived object unless asked for (test: src/recall/knowledge.test.ts "never returns a revoked memory…",
 * "returns the current fact by default…", "kinds selects objects alone…").
 */
export async function pickVisible(
  db: Queryable,
  params: RecallParams,
  fused: readonly Fused<number>[],
  docs: ReadonlyMap<number, DocHit>,
): Promise<Picked[]> {
  const out: Picked[] = [];
  const visibility = visibilityOf(params);
  const chunk = Math.max(10, params.limit * CHUNK_FACTOR);
  for (let start = 0; start < fused.length && out.length < params.limit; start += chunk) {
    const slice = fused.slice(start, start + chunk).flatMap((f) => {
      const hit = docs.get(f.key);
      return hit ? [{ fused: f, hit }] : [];
    });
    const refs = (pred: (h: DocHit) => boolean) => slice.filter((s) => pred(s.hit)).map((s) => s.hit.ref);
    const isMemory = (h: DocHit) => h.kind !== 'event' && h.kind !== OBJECT_DOC_KIND;
    const events = await getEventsByIds(
      db,
      params.owner,
      refs((h) => h.kind === 'event'),
    );
    const memoryRefs = refs(isMemory);
    const shown = await memoryVisibility(db, params.owner, memoryRefs);
    const visible = memoryRefs.filter((id) => {
      const v = shown.get(id);
      return v !== undefined && visibleMemory(v, visibility);
    });
    const memories = await getMemoriesByIds(db, params.owner, visible);
    const objects = await visibleObjects(
      db,
      params,
      refs((h) => h.kind === OBJECT_DOC_KIND),
    );
    const eventById = new Map(events.map((e) => [e.event_id, e]));
    const memoryById = new Map(memories.map((m) => [m.memory_id, m]));
    for (const s of slice) {
      if (out.length >= params.limit) break;
      const event = s.hit.kind === 'event' ? eventById.get(s.hit.ref) : undefined;
      const memory = isMemory(s.hit) ? memoryById.get(s.hit.ref) : undefined;
      const v = shown.get(s.hit.ref);
      const object = s.hit.kind === OBJECT_DOC_KIND ? objects.get(s.hit.ref) : undefined;
      if (event) out.push({ ...s, event });
      else if (memory && v) out.push({ ...s, memory: { ...memory, visibility: v } });
      else if (object) out.push({ ...s, object });
    }
  }
  return out;
}

const HIDDEN_OBJECTS: ReadonlySet<string> = new Set(['revoked', 'archived']);

async function visibleObjects(db: Queryable, params: RecallParams, ids: readonly string[]) {
  const revocation = await objectVisibility(db, params.owner, ids);
  const rows = (await getObjects(db, params.owner, ids)).filter((o) => {
    const v = revocation.get(o.object_id);
    if (!v || !visibleObject(v)) return false;
    return !HIDDEN_OBJECTS.has(o.status) || (params.include_archived === true && o.status === 'archived');
  });
  const keep = rows.map((o) => o.object_id);
  const aliases = await aliasesOf(db, params.owner, keep);
  const sources = await objectSources(db, params.owner, keep);
  return new Map(
    rows.map((o) => [
      o.object_id,
      {
        ...o,
        aliases: aliases.get(o.object_id) ?? [],
        sources: (sources.get(o.object_id) ?? []).map((s) => s.event_id),
      },
    ]),
  );
}

const common = (p: Picked, via: Via | undefined) => ({
  score: Number(p.fused.score.toFixed(6)),
  channels: p.fused.ranks,
  ...(via ? { via } : {}),
});

const clip = (text: string) => ({
  text: text.slice(0, RECALL_TEXT_LIMIT),
  truncated: text.length > RECALL_TEXT_LIMIT,
});

/** The item of a picked hit; `match` is the caller's (it reads the item's text). */
export function itemOf(p: Picked, via: Via | undefined): RecallItem | undefined {
  if (p.event) {
    const e = p.event;
    return {
      id: e.event_id,
      kind: 'event',
      ...clip(e.text),
      at: new Date(e.at).toISOString(),
      ...common(p, via),
      source_refs: [e.event_id],
      session_id: e.session_id,
      task_id: e.task_id,
    };
  }
  if (p.memory) {
    const m = p.memory;
    return {
      id: m.memory_id,
      kind: m.kind,
      ...clip(m.text),
      at: new Date(m.at).toISOString(),
      ...common(p, via),
      // The fine-grained lifecycle where it has one (superseded, retired, …).
      status: reportedStatus(m.visibility),
      source_refs: m.sources,
      session_id: m.session_id,
      task_id: m.task_id,
    };
  }
  if (p.object) {
    const o = p.object;
    const head = o.body.length > OBJECT_HEAD ? `${o.body.slice(0, OBJECT_HEAD)}…` : o.body;
    return {
      id: o.object_id,
      kind: OBJECT_DOC_KIND,
      text: head === '' ? o.name : `${o.name}\n${head}`,
      truncated: o.body.length > OBJECT_HEAD,
      at: new Date(o.updated_at).toISOString(),
      ...common(p, via),
      status: o.status,
      name: o.name,
      type: o.type,
      aliases: o.aliases,
      source_refs: o.sources,
      session_id: null,
      task_id: null,
    };
  }
  return undefined;
}

/** The text `match` reads of an item. */
export const textOf = (p: Picked): string =>
  p.event?.text ??
  p.memory?.text ??
  (p.object ? [p.object.name, ...p.object.aliases, p.object.body].join('\n') : '');
