// Params and results of the two read methods the inspector added: memory.browse and health.history.
import { z } from 'zod';
import { OwnerSchema } from '../ingest/schema.js';
import { LIFECYCLES } from '../knowledge/knowledge.js';
import { MEMORY_KINDS } from '../observe/schema.js';

export const MAX_BROWSE_PAGE = 100;

export const MemoryBrowseParamsSchema = z.object({
  owner: OwnerSchema,
  kinds: z
    .array(z.enum(MEMORY_KINDS))
    .min(1)
    .max(MEMORY_KINDS.length)
    .transform((kinds) => [...new Set(kinds)])
    .optional(),
  /** Lifecycles (`superseded`, `retired`, … as every answer reports them). */
  statuses: z
    .array(z.enum(LIFECYCLES))
    .min(1)
    .max(LIFECYCLES.length)
    .transform((statuses) => [...new Set(statuses)])
    .optional(),
  /** The previous page's next_after. */
  after: z
    .string()
    .regex(/^\d{1,16}:\S{1,200}$/, 'not a cursor of memory.browse')
    .optional(),
  limit: z.number().int().min(1).max(MAX_BROWSE_PAGE).default(50),
});
export type MemoryBrowseParams = z.output<typeof MemoryBrowseParamsSchema>;

export const ProcedureSchema = z.object({
  preconditions: z.array(z.string()).optional(),
  steps: z.array(z.string()).optional(),
  checks: z.array(z.string()).optional(),
  risk: z.string().optional(),
});

export const BrowsedMemorySchema = z.object({
  id: z.string(),
  kind: z.enum(MEMORY_KINDS),
  text: z.string(),
  status: z.enum(LIFECYCLES),
  /** Open and valid now: not superseded, retired or revoked. */
  current: z.boolean(),
  valid_from: z.string(),
  valid_to: z.string().nullable(),
  /** Facts: subject · predicate · value (memory.facts.history takes subject and predicate). */
  subject: z.string().nullable(),
  predicate: z.string().nullable(),
  value: z.string().nullable(),
  fact_kind: z.string().nullable(),
  origin: z.string().nullable(),
  conflict_id: z.string().nullable(),
  revoked_reason: z.string().nullable(),
  procedure: ProcedureSchema.nullable(),
  /** Source event ids, in citation order. */
  sources: z.array(z.string()),
  at: z.string(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
});
export type BrowsedMemory = z.infer<typeof BrowsedMemorySchema>;

export const MemoryBrowseResultSchema = z.object({
  /** Newest first. */
  items: z.array(BrowsedMemorySchema),
  next_after: z.string().nullable(),
});

export const MAX_HISTORY_DAYS = 365;

export const HealthHistoryParamsSchema = z.object({
  /** One owner; without it, every owner (principals allowed all owners only). */
  owner: OwnerSchema.optional(),
  days: z.number().int().min(1).max(MAX_HISTORY_DAYS).default(30),
});
export type HealthHistoryParams = z.output<typeof HealthHistoryParamsSchema>;

const CountsSchema = z.object({
  events: z.number().int(),
  memories: z.number().int(),
  objects: z.number().int(),
});

export const HealthHistoryResultSchema = z.object({
  now: z.string(),
  /** Every UTC day of the window, oldest first: what was stored that day. */
  days: z.array(CountsSchema.extend({ day: z.string() })),
  totals: CountsSchema,
  owners: z.array(CountsSchema.extend({ owner: z.string() })),
  /** Recalls answered by this process since it started (the newest samples, oldest first). */
  recall: z.object({
    count: z.number().int(),
    p50_ms: z.number().nullable(),
    p95_ms: z.number().nullable(),
    max_ms: z.number().nullable(),
    samples: z.array(z.object({ at: z.string(), took_ms: z.number(), items: z.number().int() })),
  }),
});
export type HealthHistory = z.infer<typeof HealthHistoryResultSchema>;
