// Params and results of the read methods.
import { z } from 'zod';
import { EVENT_KINDS, EVENT_ROLES, OwnerSchema, TimeSchema } from '../ingest/schema.js';
import { LIFECYCLES } from '../knowledge/lifecycle.js';
import { OBJECT_DOC_KIND } from '../knowledge/object-index.js';
import { OBJECT_TYPES } from '../knowledge/objects.js';
import { RECALL_VISIBILITY_PARAMS } from '../knowledge/visibility.js';
import { MEMORY_KINDS } from '../observe/observe.js';

/** What recall returns: events, memories (facts among them: the current ones by default), objects. */
export const RECALL_KINDS = ['event', ...MEMORY_KINDS, OBJECT_DOC_KIND] as const;

export const RecallParamsSchema = z.object({
  owner: OwnerSchema,
  query: z.string().trim().min(1, 'query must not be empty').max(4000, 'query is at most 4,000 characters'),
  limit: z.number().int().min(1).max(50).default(10),
  kinds: z
    .array(z.enum(RECALL_KINDS))
    .min(1)
    .max(RECALL_KINDS.length, `kinds holds at most ${RECALL_KINDS.length} kinds`)
    .transform((kinds) => [...new Set(kinds)])
    .optional(),
  from: TimeSchema.optional(),
  to: TimeSchema.optional(),
  session_id: z.string().min(1).optional(),
  task_id: z.string().min(1).optional(),
  /** Reference time of the query (default: now), for relative time expressions. */
  at: TimeSchema.optional(),
  ...RECALL_VISIBILITY_PARAMS,
  /** Archived objects too (a rejected project); revoked ones never. */
  include_archived: z.boolean().optional(),
});
export type RecallParams = z.output<typeof RecallParamsSchema>;

export const ChannelRanksSchema = z.object({
  bm25: z.number().int().optional(),
  id: z.number().int().optional(),
  /** Rank among the matches inside the time the query names ("last week", "上周三"). */
  time: z.number().int().optional(),
  /** Rank by time among the best matches, when the query asks for the latest (or the earliest). */
  recency: z.number().int().optional(),
  /** Rank among the nearest documents by embedding (only with an embedding provider configured). */
  vector: z.number().int().optional(),
  /** Rank among the session neighbours of the best hits (the reply after a matched turn, its tool result). */
  neighbour: z.number().int().optional(),
  /** For a question about the present: rank among the best hits no later one on their subject supersedes. */
  current: z.number().int().optional(),
  /** Rank among the hits of the query with the other names of the objects it names ("老李" → 李卫东). */
  alias: z.number().int().optional(),
  /** Rank among what the named objects link to, one hop: their sources, relations' sources, memories. */
  graph: z.number().int().optional(),
  /** A question that describes its subject by a clause (老郑批的那笔招待费，…): rank among the hits of the rest
   * of the question asked with the terms the clause's best matches bridge to. */
  hop: z.number().int().optional(),
});

/** The object an alias or graph hit came through. */
export const ViaSchema = z.object({ object_id: z.string(), name: z.string() });
export type Via = z.infer<typeof ViaSchema>;

export const RecallItemSchema = z.object({
  id: z.string(),
  kind: z.string(),
  text: z.string(),
  truncated: z.boolean(),
  at: z.string(),
  score: z.number(),
  /** Share (0–1) of the query's selected term weight the item's text holds (the first ten items): low for
   * every item when nothing answers the query. */
  match: z.number().optional(),
  source_refs: z.array(z.string()),
  /** Memories: their lifecycle (a candidate is not yet a confirmed fact or an approved rule); objects: theirs. */
  status: z.enum([...LIFECYCLES, 'archived']).optional(),
  channels: ChannelRanksSchema,
  /** Alias and graph hits: the object the query named that led here. */
  via: ViaSchema.optional(),
  /** Objects only: what the object is called and what else it goes by. */
  name: z.string().optional(),
  type: z.enum(OBJECT_TYPES).optional(),
  aliases: z.array(z.string()).optional(),
  session_id: z.string().nullable(),
  task_id: z.string().nullable(),
});
export type RecallItem = z.infer<typeof RecallItemSchema>;

export const RecallResultSchema = z.object({
  status: z.literal('ready'),
  request_id: z.string(),
  took_ms: z.number(),
  items: z.array(RecallItemSchema),
  terms: z.object({ selected: z.array(z.string()), dropped: z.array(z.string()) }),
  /** Channels that could not answer this time (e.g. the embedding call failed); the others did. */
  degraded: z
    .array(z.object({ channel: z.enum(['vector']), code: z.string(), message: z.string() }))
    .optional(),
});
export type RecallResult = z.infer<typeof RecallResultSchema>;

export const EvidenceParamsSchema = z.object({
  owner: OwnerSchema,
  ids: z.array(z.string().min(1)).min(1, 'ids must hold at least one id').max(200, 'at most 200 ids'),
});

export const StoredEventSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  kind: z.enum(EVENT_KINDS),
  role: z.enum(EVENT_ROLES),
  at: z.string(),
  text: z.string(),
  session_id: z.string().nullable(),
  task_id: z.string().nullable(),
  meta: z.record(z.string(), z.unknown()).nullable(),
  redacted: z.boolean(),
});

export const EvidenceResultSchema = z.object({
  items: z.array(StoredEventSchema),
  missing: z.array(z.string()),
});
