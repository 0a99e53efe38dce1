// Params and results of the observation methods, and the proposal shape observers return.
import { z } from 'zod';
import { EVENT_KINDS, EVENT_ROLES, OwnerSchema } from '../ingest/schema.js';
import { MAX_ALIASES, MAX_BODY, MAX_NAME, RELATION_TYPE } from '../knowledge/knowledge.js';

export const MEMORY_KINDS = ['episode', 'fact', 'preference', 'procedure'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];
export const FACT_KINDS = ['profile', 'project', 'environment'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export const MEMORY_STATUSES = ['candidate', 'active', 'deprecated', 'revoked'] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

export const MIN_LEASE_MS = 1_000;
export const MAX_LEASE_MS = 600_000;

const IdSchema = z.string().trim().min(1).max(200);

export const UsageSchema = z.object({
  calls: z.number().int().min(0).max(1000).default(0),
  prompt_tokens: z.number().int().min(0).default(0),
  completion_tokens: z.number().int().min(0).default(0),
});
export type Usage = z.output<typeof UsageSchema>;

export const ClaimParamsSchema = z.object({
  owner: OwnerSchema.optional(),
  lease_ms: z
    .number()
    .int()
    .min(MIN_LEASE_MS, `lease_ms is at least ${MIN_LEASE_MS}`)
    .max(MAX_LEASE_MS, `lease_ms is at most ${MAX_LEASE_MS}`)
    .optional(),
});
export type ClaimParams = z.output<typeof ClaimParamsSchema>;

export const BatchEventSchema = z.object({
  event_id: z.string(),
  kind: z.enum(EVENT_KINDS),
  role: z.enum(EVENT_ROLES),
  at: z.string(),
  text: z.string(),
  session_id: z.string().nullable(),
  task_id: z.string().nullable(),
  /** Present when identical texts were merged: how many, and every event id. */
  count: z.number().int().optional(),
  event_ids: z.array(z.string()).optional(),
  /** Present when this is a byte range of a longer event. */
  part: z
    .object({ byte_start: z.number().int(), byte_end: z.number().int(), byte_length: z.number().int() })
    .optional(),
});
export type BatchEvent = z.infer<typeof BatchEventSchema>;

export const ClaimResultSchema = z.union([
  z.object({
    batch_id: z.string(),
    owner: z.string(),
    token: z.string(),
    expires_at: z.string(),
    events: z.array(BatchEventSchema),
  }),
  z.object({ batch_id: z.null() }),
]);
export type ClaimedBatch = {
  batch_id: string;
  owner: string;
  token: string;
  expires_at: string;
  events: BatchEvent[];
};

export const CommitParamsSchema = z.object({
  batch_id: IdSchema,
  token: IdSchema,
  /** Checked by validateProposal, so a malformed proposal is a refused proposal (a batch failure). */
  proposal: z.unknown(),
  usage: UsageSchema.optional(),
});
export type CommitParams = z.output<typeof CommitParamsSchema>;

export const ReceiptSchema = z.object({
  batch_id: z.string(),
  publish_seq: z.number().int(),
  memory_ids: z.array(z.string()),
  /** The objects the proposal created or merged into, when it had any. */
  object_ids: z.array(z.string()).optional(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;
export const CommitResultSchema = z.object({ receipt: ReceiptSchema });

export const FailParamsSchema = z.object({
  batch_id: IdSchema,
  token: IdSchema,
  reason: z.string().trim().min(1, 'reason must not be empty').max(2000),
  code: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'code is SCREAMING_SNAKE')
    .optional(),
  usage: UsageSchema.optional(),
});
export type FailParams = z.output<typeof FailParamsSchema>;

export const FailResultSchema = z.object({
  batch_id: z.string(),
  failures: z.number().int(),
  next_retry_at: z.string(),
});

export const StatusParamsSchema = z.object({ owner: OwnerSchema.optional() });

const FailureSchema = z.object({ at: z.string(), code: z.string(), reason: z.string() });

export const StatusResultSchema = z.object({
  now: z.string(),
  owners: z.array(
    z.object({
      owner: z.string(),
      pending_events: z.number().int(),
      publish_seq: z.number().int(),
      memories: z.number().int(),
      batches: z.object({
        queued: z.number().int(),
        leased: z.number().int(),
        failed: z.number().int(),
        published: z.number().int(),
      }),
    }),
  ),
  leased: z.array(
    z.object({ batch_id: z.string(), owner: z.string(), expires_at: z.string(), claims: z.number().int() }),
  ),
  failed: z.array(
    z.object({
      batch_id: z.string(),
      owner: z.string(),
      failures: z.number().int(),
      next_retry_at: z.string(),
      last_failures: z.array(FailureSchema),
    }),
  ),
  usage: z.object({
    batches: z.number().int(),
    model_calls: z.number().int(),
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
  }),
  /** Only while mnemo's own worker runs: true while it waits for client writes to pause. */
  deferring_to_clients: z.boolean().optional(),
});
export type ObservationStatus = z.infer<typeof StatusResultSchema>;

// Models often write null for an absent field: null reads as absent.
const opt = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

export const QuoteSchema = z.object({ event_id: IdSchema, text: z.string().min(1).max(2_000) });
export type Quote = z.infer<typeof QuoteSchema>;

export const ProposedMemorySchema = z.object({
  /** A plain string here, so an unknown kind is reported as `unknown_kind` by the validator. */
  kind: z.string(),
  text: z.string().trim().min(1, 'text must not be empty').max(4_000),
  sources: z.array(IdSchema).min(1, 'a memory cites at least one source event').max(100),
  quotes: opt(z.array(QuoteSchema).max(20)),
  cues: opt(z.array(z.string().trim().min(1).max(200)).max(20)),
  subject: opt(z.string().trim().min(1).max(500)),
  predicate: opt(z.string().trim().min(1).max(500)),
  object: opt(z.string().trim().min(1).max(2_000)),
  fact_kind: opt(z.enum(FACT_KINDS)),
  preconditions: opt(z.array(z.string().trim().min(1).max(1_000)).max(20)),
  steps: opt(z.array(z.string().trim().min(1).max(1_000)).max(50)),
  checks: opt(z.array(z.string().trim().min(1).max(1_000)).max(20)),
  risk: opt(z.enum(RISK_LEVELS)),
});
export type ProposedMemory = z.output<typeof ProposedMemorySchema>;

export const DispositionSchema = z.object({
  event_id: IdSchema,
  action: z.enum(['cited', 'discarded']),
  reason: opt(z.string().max(500)),
});

const ProposedNameSchema = z.string().trim().min(1, 'a name must not be empty').max(MAX_NAME);

export const ProposedObjectSchema = z.object({
  /** How this proposal's relations name the object. */
  ref: opt(z.string().trim().min(1).max(64)),
  /** A plain string here, so an unknown type is reported as `unknown_type` by the validator. */
  type: z.string(),
  name: ProposedNameSchema,
  aliases: opt(z.array(ProposedNameSchema).max(MAX_ALIASES)),
  body: opt(z.string().trim().min(1).max(MAX_BODY)),
  sources: z.array(IdSchema).min(1, 'an object cites at least one source event').max(100),
  quotes: opt(z.array(QuoteSchema).max(20)),
});
export type ProposedObject = z.output<typeof ProposedObjectSchema>;

export const ProposedRelationSchema = z.object({
  /** An object id of the batch's owner, or the ref of an object of this proposal. */
  from: IdSchema,
  to: IdSchema,
  type: z.string().regex(RELATION_TYPE, 'a relation type is a snake_case word'),
  sources: z.array(IdSchema).min(1, 'a relation cites at least one source event').max(100),
});
export type ProposedRelation = z.output<typeof ProposedRelationSchema>;

const orEmpty = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? []);

export const ProposalSchema = z.object({
  dispositions: z.array(DispositionSchema).max(2_000),
  memories: z.array(ProposedMemorySchema).max(50),
  objects: orEmpty(z.array(ProposedObjectSchema).max(50)),
  relations: orEmpty(z.array(ProposedRelationSchema).max(100)),
});
export type Proposal = z.output<typeof ProposalSchema>;
export type ProposalInput = z.input<typeof ProposalSchema>;
