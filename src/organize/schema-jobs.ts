// Params and results of the organize job methods: request, claim, commit, fail, notices, inspect, tick.
import { z } from 'zod';
import { EVENT_KINDS, EVENT_ROLES, OwnerSchema } from '../ingest/schema.js';

export const JOB_KINDS = ['compact', 'organize', 'deep'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_TRIGGERS = ['threshold', 'request', 'hourly', 'nightly'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];
export const JOB_STATES = ['queued', 'leased', 'done', 'failed'] as const;
/** What an archive entry becomes; objects (part 2 of issue 12) add their own actions. */
export const ARCHIVE_ACTIONS = ['archive_only'] as const;

export const MIN_LEASE_MS = 1_000;
export const MAX_LEASE_MS = 1_800_000;
const IdSchema = z.string().trim().min(1).max(200);

export const UsageSchema = z.object({
  calls: z.number().int().min(0).max(1000).default(0),
  prompt_tokens: z.number().int().min(0).default(0),
  completion_tokens: z.number().int().min(0).default(0),
});
export type Usage = z.output<typeof UsageSchema>;

export const RequestParamsSchema = z.object({
  owner: OwnerSchema,
  kind: z.enum(JOB_KINDS).default('organize'),
  /** Leave the newest events worth this many tokens raw (default: the configured window; 0: none). */
  keep_recent_tokens: z.number().int().min(0).max(10_000_000).optional(),
});
export const RequestResultSchema = z.object({
  job_id: z.string(),
  kind: z.enum(JOB_KINDS),
  state: z.enum(JOB_STATES),
  /** false: a live job of this kind existed and was woken instead. */
  created: z.boolean(),
});

export const ClaimParamsSchema = z.object({
  owner: OwnerSchema.optional(),
  lease_ms: z.number().int().min(MIN_LEASE_MS).max(MAX_LEASE_MS).optional(),
});
export type ClaimParams = z.output<typeof ClaimParamsSchema>;

export const PieceSchema = z.object({
  /** `event:<event_id>` or `node:<node_id>`, as memory.organize.inspect reads it. */
  ref: z.string(),
  type: z.enum(['event', 'node']),
  id: z.string(),
  at: z.string(),
  /** Nodes: the last event's time, their level and how many events they cover. */
  last_at: z.string().optional(),
  level: z.number().int().optional(),
  events: z.number().int(),
  kind: z.enum(EVENT_KINDS).optional(),
  role: z.enum(EVENT_ROLES).optional(),
  session_id: z.string().nullable().optional(),
  /** At most 1,200 characters; `truncated` when the whole text is longer (read it with inspect). */
  text: z.string(),
  length: z.number().int(),
  truncated: z.boolean(),
});
export type Piece = z.infer<typeof PieceSchema>;

export const ArchiveEntrySchema = z.object({
  entry_id: z.number().int(),
  node_id: z.string(),
  first_event_id: z.string(),
  last_event_id: z.string(),
  events: z.number().int(),
  summary: z.string(),
});
export type ArchiveEntry = z.infer<typeof ArchiveEntrySchema>;

export const StepSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('compact'),
    /** The level of the node the summary becomes. */
    level: z.number().int(),
    pieces: z.array(PieceSchema),
    max_chars: z.number().int(),
  }),
  z.object({
    type: z.literal('archive'),
    entries: z.array(ArchiveEntrySchema),
    actions: z.array(z.string()),
  }),
]);
export type Step = z.infer<typeof StepSchema>;

export const ClaimedJobSchema = z.object({
  job_id: z.string(),
  owner: z.string(),
  kind: z.enum(JOB_KINDS),
  trigger: z.enum(JOB_TRIGGERS),
  token: z.string(),
  expires_at: z.string(),
  /** Steps committed before this one. */
  step_no: z.number().int(),
  batch_limit: z.number().int(),
  failures: z.number().int(),
  step: StepSchema,
});
export type ClaimedJob = z.infer<typeof ClaimedJobSchema>;
export const ClaimResultSchema = z.union([ClaimedJobSchema, z.object({ job_id: z.null() })]);

const LeaseParams = { owner: OwnerSchema, job_id: IdSchema, token: z.string().min(1).max(200) };

export const CommitParamsSchema = z.object({
  ...LeaseParams,
  /** A compact step: the summary of its pieces. */
  summary: z
    .object({ text: z.string(), summarizer: z.string().trim().min(1).max(100).optional() })
    .optional(),
  /** An archive step: one disposition per entry. */
  dispositions: z
    .array(z.object({ entry_id: z.number().int(), action: z.enum(ARCHIVE_ACTIONS) }))
    .max(100)
    .optional(),
  usage: UsageSchema.optional(),
});
export type CommitParams = z.output<typeof CommitParamsSchema>;

export const ReceiptSchema = z.object({
  job_id: z.string(),
  step: z.number().int(),
  type: z.enum(['compact', 'archive']),
  node_id: z.string().optional(),
  level: z.number().int().optional(),
  /** The events the new node covers, when they were raw before. */
  covered_events: z.number().int().optional(),
  archive_entry_id: z.number().int().optional(),
  disposed: z.number().int().optional(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;
export const CommitResultSchema = z.object({ receipt: ReceiptSchema });

export const FailParamsSchema = z.object({
  ...LeaseParams,
  reason: z.string().min(1).max(2_000),
  code: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]{0,63}$/)
    .optional(),
  usage: UsageSchema.optional(),
});
export type FailParams = z.output<typeof FailParamsSchema>;
export const FailResultSchema = z.object({
  job_id: z.string(),
  state: z.enum(['queued', 'failed']),
  failures: z.number().int(),
  batch_limit: z.number().int(),
  next_retry_at: z.string().nullable(),
  /** A notice waits for memory.organize.notices (an automatic job that ran out of attempts). */
  notice: z.boolean(),
});
export type FailResult = z.infer<typeof FailResultSchema>;

export const FailureSchema = z.object({
  at: z.string(),
  code: z.string(),
  reason: z.string(),
  batch_limit: z.number().int(),
});
export type Failure = z.infer<typeof FailureSchema>;

export const NoticesParamsSchema = z.object({ owner: OwnerSchema, ack: IdSchema.optional() });
export const NoticeSchema = z.object({
  job_id: z.string(),
  kind: z.enum(JOB_KINDS),
  trigger: z.enum(JOB_TRIGGERS),
  failed_at: z.string(),
  failures: z.number().int(),
  last_failures: z.array(FailureSchema),
  message: z.string(),
});
export type Notice = z.infer<typeof NoticeSchema>;
export const NoticesResultSchema = z.object({ notices: z.array(NoticeSchema), acked: z.string().nullable() });

export const InspectParamsSchema = z.object({
  owner: OwnerSchema,
  refs: z
    .array(z.string().regex(/^(event|node):.{1,200}$/, 'a ref is event:<event_id> or node:<node_id>'))
    .max(100)
    .default([]),
  /** The owner's memories, newest first: those before `before` (epoch ms), of these kinds. */
  memories: z
    .object({
      kinds: z
        .array(z.enum(['episode', 'fact', 'preference', 'procedure']))
        .max(4)
        .optional(),
      before: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(50).default(20),
    })
    .optional(),
});
export type InspectParams = z.output<typeof InspectParamsSchema>;

export const TickParamsSchema = z.object({ owner: OwnerSchema.optional() });
export const QueuedJobSchema = z.object({
  job_id: z.string(),
  owner: z.string(),
  kind: z.enum(JOB_KINDS),
  trigger: z.enum(JOB_TRIGGERS),
  workday: z.string().optional(),
});
export type QueuedJob = z.infer<typeof QueuedJobSchema>;
export const TickResultSchema = z.object({ owners: z.number().int(), queued: z.array(QueuedJobSchema) });
