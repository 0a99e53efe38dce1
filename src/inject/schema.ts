// Params and results of the inject methods: the wait budget's extension of memory.recall, requests,
// sessions, the gate, packet feedback, the inbox, attention and the audit.
import { z } from 'zod';
import { EVENT_KINDS, EVENT_ROLES, MAX_EVENT_TEXT, OwnerSchema } from '../ingest/schema.js';
import { RecallResultSchema } from '../recall/schema.js';
import { GateWeightsSchema } from './config.js';
import { SAFETY_ACTIONS, SAFETY_KINDS, SAFETY_SOURCES, SafetyReasonSchema } from './safety-schema.js';

/** Session and task ids are names like event ids: no spaces, quotes or brackets. */
export const SessionIdSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'at most 200 characters')
  .regex(/^[A-Za-z0-9._:@/#-]+$/, 'may hold only letters, digits and . _ : @ / # -');

export const MAX_WAIT_MS = 60_000;
const Seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** What memory.recall takes besides the search: spread into its params (`RecallParamsSchema.extend`). */
export const RECALL_WAIT_SHAPE = {
  /** How long to wait for the answer (default 75 ms); 0: at once (pending, unless a cached answer). */
  wait_ms: z.number().int().min(0).max(MAX_WAIT_MS).optional(),
  /** The session whose inbox receives a late answer (`session_id` stays the search's filter). */
  caller_session_id: SessionIdSchema.optional(),
  /** The caller's interaction: an answer that comes after the session moved past it is stale. */
  interaction_seq: Seq.optional(),
};

export const PendingRecallSchema = z.object({
  status: z.literal('pending'),
  request_id: z.string(),
  took_ms: z.number(),
});
export const RecallAnswerSchema = z.discriminatedUnion('status', [RecallResultSchema, PendingRecallSchema]);
export type RecallAnswer = z.infer<typeof RecallAnswerSchema>;

export const REQUEST_STATUSES = ['pending', 'ready', 'stale', 'failed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const RequestGetParamsSchema = z.object({
  owner: OwnerSchema,
  request_id: z.string().min(1).max(100),
});
export const RequestGetResultSchema = z.object({
  request_id: z.string(),
  status: z.enum(REQUEST_STATUSES),
  purpose: z.enum(['recall', 'prefetch']),
  session_id: z.string().nullable(),
  interaction_seq: z.number().int().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  finished_at: z.string().nullable(),
  /** Ready and stale requests: the answer, kept; a stale one is never delivered. */
  result: RecallResultSchema.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const SessionEndParamsSchema = z.object({ owner: OwnerSchema, session_id: SessionIdSchema });
export const SessionEndResultSchema = z.object({
  session_id: z.string(),
  ended: z.boolean(),
  removed: z.object({ segments: z.number().int(), inbox_items: z.number().int() }),
});

export const GATE_TRIGGERS = Object.keys(GateWeightsSchema.shape) as Array<
  keyof typeof GateWeightsSchema.shape
>;
export type GateTrigger = (typeof GATE_TRIGGERS)[number];
export const GATE_ACTIONS = ['retrieve', 'prefetch', 'suppress'] as const;
export const GATE_REASONS = [
  'above_threshold',
  'warm',
  'below_threshold',
  'cooldown',
  'user_ignored',
] as const;

export const SegmentSchema = z.object({
  kind: z.enum(EVENT_KINDS),
  text: z.string().max(MAX_EVENT_TEXT, `text is at most ${MAX_EVENT_TEXT} characters`),
  ok: z.boolean().optional(),
});
export const GateParamsSchema = z.object({
  owner: OwnerSchema,
  session_id: SessionIdSchema,
  segment: SegmentSchema,
  interaction_seq: Seq.optional(),
});
export const GateSignalsSchema = z.object({
  novelty: z.number(),
  unresolved: z.number().int(),
  phase_change: z.boolean(),
  tool_failure: z.boolean(),
  conflicts: z.number().int(),
  history: z.number().int(),
});
export type GateSignals = z.infer<typeof GateSignalsSchema>;
export const GateResultSchema = z.object({
  action: z.enum(GATE_ACTIONS),
  reason: z.enum(GATE_REASONS),
  /** The signal that weighed most, or null when none fired. */
  trigger: z.enum(GATE_TRIGGERS).nullable(),
  score: z.number(),
  signals: GateSignalsSchema,
  /** The session's context cursor after this segment. */
  cursor: z.number().int(),
  audit_id: z.string(),
  /** Prefetch only: the background recall, stored as a request (memory.requests.get). */
  request_id: z.string().optional(),
});
export type GateResult = z.infer<typeof GateResultSchema>;

export const FEEDBACK_OUTCOMES = ['used', 'ignored', 'harmful'] as const;
export const FeedbackParamsSchema = z.object({
  owner: OwnerSchema,
  packet_id: z.string().min(1).max(100),
  outcome: z.enum(FEEDBACK_OUTCOMES),
  /** Until packets carry their own: the session and trigger the packet was built for. */
  session_id: SessionIdSchema.optional(),
  trigger: z.enum(GATE_TRIGGERS).optional(),
});
export const FeedbackResultSchema = z.object({
  packet_id: z.string(),
  outcome: z.enum(FEEDBACK_OUTCOMES),
  session_id: z.string().nullable(),
  trigger: z.string().nullable(),
});

export const MAX_ITEM_TEXT = 8_000;
export const InboxItemSchema = z.object({
  text: z.string().min(1).max(MAX_ITEM_TEXT, `text is at most ${MAX_ITEM_TEXT} characters`),
  kind: z.enum(SAFETY_KINDS).default('note'),
  /** Who wrote it; steer takes only `user` and `system`. */
  source_role: z.enum(EVENT_ROLES),
  /** The channel it came through when it is not its author's own words (a page, an e-mail, a file). */
  source: z.enum(SAFETY_SOURCES).optional(),
  /** A blocking notice: a newer control revision of the task replaces an unclaimed older notice. */
  task_id: SessionIdSchema.optional(),
  control_revision: Seq.optional(),
});
export type InboxItemInput = z.output<typeof InboxItemSchema>;
export const InboxPutParamsSchema = z.object({
  owner: OwnerSchema,
  session_id: SessionIdSchema,
  item: InboxItemSchema,
});
export const INBOX_OUTCOMES = ['stored', 'merged', 'duplicate', 'superseded', 'refused'] as const;
export const InboxPutResultSchema = z.object({
  status: z.enum(INBOX_OUTCOMES),
  item_id: z.string().nullable(),
  seq: z.number().int().nullable(),
  wake: z.boolean(),
  /** Stored as quoted data with its marker (the safety gate said `quote`). */
  quoted: z.boolean(),
  /** Older notices of the task this one replaced. */
  replaced: z.array(z.string()),
  safety: z.object({
    action: z.enum(SAFETY_ACTIONS),
    score: z.number(),
    reasons: z.array(SafetyReasonSchema),
  }),
  /** Refused: why. */
  reason: z.string().optional(),
});

export const InboxEntrySchema = z.object({
  item_id: z.string(),
  seq: z.number().int(),
  kind: z.string(),
  wake: z.boolean(),
  source_role: z.string(),
  source: z.string().nullable(),
  text: z.string().nullable(),
  quoted: z.boolean(),
  task_id: z.string().nullable(),
  control_revision: z.number().int().nullable(),
  /** A late recall answer: fetch it with memory.requests.get. */
  request_id: z.string().nullable(),
  created_at: z.string(),
});
export type InboxEntry = z.infer<typeof InboxEntrySchema>;
export const InboxClaimParamsSchema = z.object({
  owner: OwnerSchema,
  session_id: SessionIdSchema,
  interaction_seq: Seq.optional(),
});
export const InboxClaimResultSchema = z.object({
  claim_id: z.string(),
  items: z.array(InboxEntrySchema),
  wake: z.boolean(),
  /** Late recall answers of past interactions, marked stale instead of handed out. */
  stale: z.number().int(),
});

export const AttentionParamsSchema = z.object({
  owner: OwnerSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const AttentionResultSchema = z.object({
  items: z.array(InboxEntrySchema.extend({ owner: z.string(), session_id: z.string() })),
});

export const AuditQueryParamsSchema = z.object({
  owner: OwnerSchema,
  session_id: SessionIdSchema.optional(),
  packet_id: z.string().min(1).max(100).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export const AuditRecordSchema = z.object({
  audit_id: z.string(),
  kind: z.enum(['gate', 'packet']),
  session_id: z.string().nullable(),
  packet_id: z.string().nullable(),
  at: z.string(),
  trigger: z.string().nullable(),
  action: z.string(),
  reason: z.string(),
  score: z.number().nullable(),
  signals: z.record(z.string(), z.union([z.number(), z.boolean()])),
  /** Ids only: objects, conflict sets, documents, requests. */
  sources: z.array(z.string()),
  /** The segment's (or packet's) exact digest: what, without its text. */
  digest: z.string().nullable(),
  cursor: z.number().int().nullable(),
  bytes: z.number().int(),
  tokens: z.number().int(),
  request_id: z.string().nullable(),
  outcome: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
export const AuditQueryResultSchema = z.object({ items: z.array(AuditRecordSchema) });
