// Params and results of the chain methods: context, node, status, inspect's answer, and the core documents.
import { z } from 'zod';
import { EVENT_KINDS, EVENT_ROLES, OwnerSchema } from '../ingest/schema.js';
import { FailureSchema, JOB_KINDS, JOB_STATES, JOB_TRIGGERS } from './schema-jobs.js';

export const CORE_DOCS = ['SOUL', 'USER', 'AGENTS'] as const;
export type CoreDoc = (typeof CORE_DOCS)[number];
/** ARCHITECTURE.md §8: core doc size. */
export const CORE_DOC_CHARS = 2_400;
/** ARCHITECTURE.md §8: host context budget. */
export const DEFAULT_CONTEXT_BYTES = 32_000;

const IdSchema = z.string().trim().min(1).max(200);

export const ContextParamsSchema = z.object({
  owner: OwnerSchema,
  session_id: IdSchema.optional(),
  max_tokens: z.number().int().min(1).max(1_000_000),
  max_bytes: z.number().int().min(1).max(4_000_000).default(DEFAULT_CONTEXT_BYTES),
});
export type ContextParams = z.output<typeof ContextParamsSchema>;

export const ContextNodeSchema = z.object({
  node_id: z.string(),
  level: z.number().int(),
  first_at: z.string(),
  last_at: z.string(),
  events: z.number().int(),
  text: z.string(),
  truncated: z.boolean(),
});
export const ContextEventSchema = z.object({
  event_id: z.string(),
  seq: z.number().int(),
  kind: z.enum(EVENT_KINDS),
  role: z.enum(EVENT_ROLES),
  at: z.string(),
  session_id: z.string().nullable(),
  text: z.string(),
  truncated: z.boolean(),
});
export const ContextCoreSchema = z.object({
  doc: z.enum(CORE_DOCS),
  revision: z.number().int(),
  text: z.string(),
});

export const ContextResultSchema = z.object({
  owner: z.string(),
  /** false only while the owner's first sync (a backlog above the threshold) is not compacted yet. */
  ready: z.boolean(),
  /** Something was left out or cut to fit. */
  truncated: z.boolean(),
  core: z.array(ContextCoreSchema),
  nodes: z.array(ContextNodeSchema),
  events: z.array(ContextEventSchema),
  omitted_core: z.number().int(),
  omitted_nodes: z.number().int(),
  omitted_events: z.number().int(),
  /** `text` measured: tokens by `tokenizer`, bytes in UTF-8; two budgets, never added. */
  tokens: z.number().int(),
  bytes: z.number().int(),
  tokenizer: z.string(),
  /** The context as one block, oldest first: what `tokens` and `bytes` measure. */
  text: z.string(),
});
export type ContextResult = z.infer<typeof ContextResultSchema>;

export const NodeParamsSchema = z.object({ owner: OwnerSchema, node_id: IdSchema });
export const NodeViewSchema = z.object({
  node_id: z.string(),
  level: z.number().int(),
  first_at: z.string(),
  last_at: z.string(),
  first_event_id: z.string(),
  last_event_id: z.string(),
  events: z.number().int(),
  text: z.string(),
  summarizer: z.string(),
  job_id: z.string(),
  /** The node that covers this one; null while it is part of the active timeline. */
  parent_id: z.string().nullable(),
});
export type NodeView = z.infer<typeof NodeViewSchema>;
export const NodeChildSchema = z.object({
  type: z.enum(['event', 'node']),
  id: z.string(),
  at: z.string(),
  level: z.number().int().optional(),
  events: z.number().int(),
  kind: z.enum(EVENT_KINDS).optional(),
  role: z.enum(EVENT_ROLES).optional(),
  /** At most 1,200 characters; timeline.read or memory.evidence.get gives an event's whole text. */
  head: z.string(),
  length: z.number().int(),
  truncated: z.boolean(),
});
export const NodeResultSchema = z.object({ node: NodeViewSchema, children: z.array(NodeChildSchema) });

export const InspectResultSchema = z.object({
  events: z.array(
    z.object({
      event_id: z.string(),
      seq: z.number().int(),
      kind: z.enum(EVENT_KINDS),
      role: z.enum(EVENT_ROLES),
      at: z.string(),
      session_id: z.string().nullable(),
      task_id: z.string().nullable(),
      text: z.string(),
    }),
  ),
  nodes: z.array(NodeViewSchema.extend({ children: z.array(z.string()) })),
  memories: z.array(
    z.object({
      memory_id: z.string(),
      kind: z.string(),
      status: z.string(),
      text: z.string(),
      at: z.string(),
    }),
  ),
  missing: z.array(z.string()),
});

export const StatusParamsSchema = z.object({ owner: OwnerSchema.optional() });
const LevelSchema = z.object({ level: z.number().int(), active: z.number().int(), nodes: z.number().int() });
export const ChainOwnerSchema = z.object({
  owner: z.string(),
  ready: z.boolean(),
  /** Estimated tokens (portable-v1) of the events no node covers yet, and how many they are. */
  raw_tokens: z.number().int(),
  raw_events: z.number().int(),
  unscanned_events: z.number().int(),
  covered_events: z.number().int(),
  /** Estimated tokens of the whole active timeline: active nodes plus raw events. */
  timeline_tokens: z.number().int(),
  levels: z.array(LevelSchema),
  archive_pending: z.number().int(),
  deep_workday: z.string().nullable(),
});
export const JobViewSchema = z.object({
  job_id: z.string(),
  owner: z.string(),
  kind: z.enum(JOB_KINDS),
  trigger: z.enum(JOB_TRIGGERS),
  state: z.enum(JOB_STATES),
  workday: z.string().nullable(),
  steps: z.number().int(),
  batch_limit: z.number().int(),
  failures: z.number().int(),
  next_retry_at: z.string().nullable(),
  lease_expires_at: z.string().nullable(),
  notice: z.enum(['pending', 'acked']).nullable(),
  last_failures: z.array(FailureSchema),
});
export const ConflictSchema = z.object({
  conflict_id: z.number().int(),
  owner: z.string(),
  doc: z.enum(CORE_DOCS),
  base_revision: z.number().int().nullable(),
  current_revision: z.number().int(),
  reason: z.string(),
  /** The edit that was not applied (redacted), kept so nothing typed is lost. */
  text: z.string(),
  at: z.string(),
});
export const ChainStatusResultSchema = z.object({
  owners: z.array(ChainOwnerSchema),
  queue: z.object({
    queued: z.number().int(),
    leased: z.number().int(),
    retrying: z.number().int(),
    failed: z.number().int(),
    notices: z.number().int(),
  }),
  /** Live jobs, and failed ones whose notice is not acknowledged. */
  jobs: z.array(JobViewSchema),
  usage: z.object({
    model_calls: z.number().int(),
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
  }),
  capacity: z.object({
    threshold_tokens: z.number().int(),
    keep_recent_tokens: z.number().int(),
    nodes_per_level: z.number().int(),
    nodes_per_job: z.object({
      compact: z.number().int(),
      organize: z.number().int(),
      deep: z.number().int(),
    }),
    lease_ms: z.number().int(),
    max_failures: z.number().int(),
    core_doc_chars: z.number().int(),
    quiet_window: z.string(),
  }),
  core_conflicts: z.array(ConflictSchema),
  /** The Markdown projection: files current, objects whose file failed or is missing, the last failure. */
  projection: z
    .object({
      files: z.number().int(),
      stale: z.number().int(),
      last_error: z
        .object({ owner: z.string(), object_id: z.string(), error: z.string(), at: z.string() })
        .nullable(),
    })
    .optional(),
  organizer: z.enum(['builtin', 'external']).optional(),
  deferring_to_clients: z.boolean().optional(),
});
export type ChainStatus = z.infer<typeof ChainStatusResultSchema>;

const CoreTextSchema = z
  .string()
  .refine((t) => [...t].length <= CORE_DOC_CHARS, `a core document is at most ${CORE_DOC_CHARS} characters`);

export const CoreBootstrapParamsSchema = z.object({
  owner: OwnerSchema,
  docs: z.object({
    SOUL: CoreTextSchema.optional(),
    USER: CoreTextSchema.optional(),
    AGENTS: CoreTextSchema.optional(),
  }),
});
const CoreRevisionSchema = z.object({ doc: z.enum(CORE_DOCS), revision: z.number().int() });
export const CoreBootstrapResultSchema = z.object({
  imported: z.boolean(),
  docs: z.array(CoreRevisionSchema),
  message: z.string(),
});
export const CoreUpdateParamsSchema = z.object({
  owner: OwnerSchema,
  doc: z.enum(CORE_DOCS),
  text: CoreTextSchema,
  /** The revision this text replaces; 0 when the document does not exist yet. */
  expected_revision: z.number().int().min(0),
});
export const CoreUpdateResultSchema = CoreRevisionSchema.extend({ redacted: z.boolean() });
export const CoreGetParamsSchema = z.object({
  owner: OwnerSchema,
  doc: z.enum(CORE_DOCS).optional(),
  /** Every version, oldest first. */
  history: z.boolean().default(false),
});
export const CoreDocViewSchema = z.object({
  doc: z.enum(CORE_DOCS),
  revision: z.number().int(),
  text: z.string(),
  updated_at: z.string(),
  versions: z
    .array(z.object({ revision: z.number().int(), text: z.string(), source: z.string(), at: z.string() }))
    .optional(),
});
export type CoreDocView = z.infer<typeof CoreDocViewSchema>;
export const CoreGetResultSchema = z.object({
  docs: z.array(CoreDocViewSchema),
  conflicts: z.array(ConflictSchema),
});
