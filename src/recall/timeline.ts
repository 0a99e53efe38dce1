// The seed's timeline reads: index heads by words or by sequence, and ranged reads of one event.
import { z } from 'zod';
import { MemoryError } from '../errors.js';
import { EVENT_KINDS, OwnerSchema, TimeSchema } from '../ingest/schema.js';
import { countPage, getEventsByIds, pageEvents } from '../ingest/store.js';
import type { StoredEvent } from '../ingest/schema.js';
import { DEFAULT_COLUMN_WEIGHTS, searchBm25, selectTerms } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { queryTerms, tokenize } from '../text/tokenize.js';

export const MAX_HEADS = 50;
export const HEAD_CHARS = 1_200;

export const TimelineQueryParamsSchema = z.object({
  owner: OwnerSchema,
  query: z.string().max(4000).optional(),
  from: TimeSchema.optional(),
  to: TimeSchema.optional(),
  after: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(MAX_HEADS).default(20),
  task_id: z.string().min(1).optional(),
});
export type TimelineQueryParams = z.output<typeof TimelineQueryParamsSchema>;

export const TimelineHeadSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  kind: z.enum(EVENT_KINDS),
  at: z.string(),
  head: z.string(),
  length: z.number().int(),
  truncated: z.boolean(),
  task_id: z.string().nullable(),
  hits: z.number().int().optional(),
});

export const TimelineQueryResultSchema = z.object({
  items: z.array(TimelineHeadSchema),
  total: z.number().int(),
  next_after: z.number().int().nullable(),
});

export const head = (e: StoredEvent, hits?: number) => ({
  id: e.event_id,
  seq: e.seq,
  kind: e.kind,
  at: new Date(e.at).toISOString(),
  head: e.text.slice(0, HEAD_CHARS),
  length: e.text.length,
  truncated: e.text.length > HEAD_CHARS,
  task_id: e.task_id,
  ...(hits === undefined ? {} : { hits }),
});

export async function queryTimeline(db: Queryable, p: TimelineQueryParams) {
  const terms = p.query ? queryTerms(p.query) : [];
  if (terms.length === 0) {
    const events = await pageEvents(db, {
      owner: p.owner,
      after: p.after,
      from: p.from,
      to: p.to,
      taskId: p.task_id,
      limit: p.limit,
    });
    const last = events.at(-1);
    return {
      items: events.map((e) => head(e)),
      total: await countPage(db, { owner: p.owner, from: p.from, to: p.to, taskId: p.task_id }),
      next_after: events.length === p.limit && last ? last.seq : null,
    };
  }
  const selection = await selectTerms(db, p.owner, terms);
  const { hits, matched } = await searchBm25(
    db,
    selection,
    { owner: p.owner, kinds: ['event'], from: p.from, to: p.to, taskId: p.task_id },
    // Only an event's own text: a match in its context (the turn before) is the other event's.
    { limit: 200, weights: { ...DEFAULT_COLUMN_WEIGHTS, context: 0 } },
  );
  const events = (
    await getEventsByIds(
      db,
      p.owner,
      hits.map((h) => h.ref),
    )
  ).filter((e) => e.seq > (p.after ?? 0));
  const wanted = new Set(terms);
  const scored = events.map((e) => {
    const own = new Set(tokenize(e.text));
    let n = 0;
    for (const t of wanted) if (own.has(t)) n++;
    return { e, n };
  });
  scored.sort((a, b) => b.n - a.n || b.e.at - a.e.at || b.e.seq - a.e.seq);
  return {
    items: scored.slice(0, p.limit).map(({ e, n }) => head(e, n)),
    // The number of matching events (the seed's 命中数), not of the items on this page.
    total: matched,
    next_after: null,
  };
}

export const TimelineReadParamsSchema = z.object({
  owner: OwnerSchema,
  id: z.string().min(1),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(32_000).default(4_000),
});
export type TimelineReadParams = z.output<typeof TimelineReadParamsSchema>;

export const TimelineReadResultSchema = z.object({
  id: z.string(),
  kind: z.enum(EVENT_KINDS),
  at: z.string(),
  offset: z.number().int(),
  text: z.string(),
  length: z.number().int(),
  next_offset: z.number().int().nullable(),
});

export async function readTimeline(db: Queryable, p: TimelineReadParams) {
  const [event] = await getEventsByIds(db, p.owner, [p.id]);
  if (!event) throw new MemoryError('NOT_FOUND', `no event ${p.id} for this owner`, { id: p.id });
  const end = Math.min(event.text.length, p.offset + p.limit);
  return {
    id: event.event_id,
    kind: event.kind,
    at: new Date(event.at).toISOString(),
    offset: Math.min(p.offset, event.text.length),
    text: event.text.slice(p.offset, end),
    length: event.text.length,
    next_offset: end < event.text.length ? end : null,
  };
}
