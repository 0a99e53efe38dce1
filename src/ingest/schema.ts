// The event shape hosts send, validated at the boundary.
import { z } from 'zod';

export const EVENT_KINDS = [
  'user_message',
  'agent_reply',
  'tool_result',
  'task_started',
  'task_result',
  'task_failed',
  'task_blocked',
  'needs_input',
  'schedule_run',
  'note',
] as const;
export const EVENT_ROLES = ['user', 'agent', 'tool', 'system'] as const;

export const MAX_EVENT_TEXT = 32_000;
export const MAX_EVENTS_PER_CALL = 1_000;
/** UTF-8 bytes of meta's JSON. */
export const MAX_META_BYTES = 65_536;
/** Nesting of meta, meta itself being level 1. */
export const MAX_META_DEPTH = 32;
/** The id fields of an event; each may hold only ID_CHARS. */
export const ID_FIELDS = ['event_id', 'session_id', 'task_id'] as const;

export const OwnerSchema = z
  .string({ error: 'owner is required (a string such as "user:alice")' })
  .trim()
  .min(1, 'owner must not be empty')
  .max(200, 'owner is at most 200 characters');

// Ids are names, not text: no spaces, quotes or brackets, so a marker can never stand in for one.
const ID_CHARS = /^[A-Za-z0-9._:@/#-]+$/;
const IdSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'at most 200 characters')
  .regex(ID_CHARS, 'may hold only letters, digits and . _ : @ / # -');

/**
 * Whether `value` nests arrays and objects deeper than `limit` (a scalar is level 0). Iterative, so a
 * nesting deep enough to overflow the stack of JSON.stringify or structured clone is answered too.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

// invariant: meta past MAX_META_DEPTH or MAX_META_BYTES is its event's EVENT_INVALID, found before anything
// recurses into it (test: "regression for issue 8: deep or large meta is that event's EVENT_INVALID").
const MetaSchema = z.record(z.string(), z.unknown()).superRefine((meta, ctx) => {
  if (nestsDeeperThan(meta, MAX_META_DEPTH)) {
    ctx.addIssue({ code: 'custom', message: `meta nests at most ${MAX_META_DEPTH} levels deep` });
  } else if (Buffer.byteLength(JSON.stringify(meta), 'utf8') > MAX_META_BYTES) {
    ctx.addIssue({ code: 'custom', message: `meta is at most ${MAX_META_BYTES} bytes of JSON (UTF-8)` });
  }
});

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** ISO-8601 text or epoch milliseconds → epoch milliseconds. */
export const TimeSchema = z
  .union([
    z.number().int('epoch milliseconds must be an integer').min(0).max(8.64e15),
    z.string().regex(ISO_DATE, 'expected ISO-8601 (e.g. 2026-09-17T10:00:00Z) or epoch milliseconds'),
  ])
  .transform((value, ctx) => {
    if (typeof value === 'number') return value;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: 'custom', message: `not a valid date: ${value}` });
      return z.NEVER;
    }
    return ms;
  });

export const EventSchema = z.object({
  event_id: IdSchema,
  session_id: IdSchema.optional(),
  task_id: IdSchema.optional(),
  kind: z.enum(EVENT_KINDS),
  role: z.enum(EVENT_ROLES),
  at: TimeSchema,
  text: z.string().max(MAX_EVENT_TEXT, `text is at most ${MAX_EVENT_TEXT} characters`),
  meta: MetaSchema.optional(),
});

export type EventInput = z.input<typeof EventSchema>;
export type EventData = z.output<typeof EventSchema>;

export const IngestParamsSchema = z.object({
  owner: OwnerSchema,
  events: z
    .array(z.unknown())
    .min(1, 'events must hold at least one event')
    .max(MAX_EVENTS_PER_CALL, `at most ${MAX_EVENTS_PER_CALL} events per call`),
});

export const RejectionSchema = z.object({
  event_id: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export type Rejection = z.infer<typeof RejectionSchema>;

export const IngestResultSchema = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(RejectionSchema),
});
export type IngestResult = z.infer<typeof IngestResultSchema>;

/** The stored form of an event, as every read returns it. */
export interface StoredEvent {
  seq: number;
  owner: string;
  event_id: string;
  session_id: string | null;
  task_id: string | null;
  kind: (typeof EVENT_KINDS)[number];
  role: (typeof EVENT_ROLES)[number];
  at: number;
  text: string;
  meta: Record<string, unknown> | null;
  redacted: boolean;
}

export const TimelineAppendParamsSchema = z.object({
  owner: OwnerSchema,
  id: IdSchema,
  kind: z.enum(EVENT_KINDS),
  role: z.enum(EVENT_ROLES).optional(),
  at: TimeSchema.optional(),
  text: z.string().max(MAX_EVENT_TEXT, `text is at most ${MAX_EVENT_TEXT} characters`),
  source: z
    .strictObject({
      source: z.string().max(200).optional(),
      session_id: IdSchema.optional(),
      task_id: IdSchema.optional(),
      file: z.string().max(1000).optional(),
      url: z.string().max(2000).optional(),
    })
    .optional(),
});

export const TimelineAppendResultSchema = z.object({
  id: z.string(),
  seq: z.number().int().nullable(),
  duplicate: z.boolean(),
});

/** The role an appended event gets when it names none. */
export const ROLE_OF_KIND: Record<(typeof EVENT_KINDS)[number], (typeof EVENT_ROLES)[number]> = {
  user_message: 'user',
  agent_reply: 'agent',
  tool_result: 'tool',
  task_started: 'system',
  task_result: 'system',
  task_failed: 'system',
  task_blocked: 'system',
  needs_input: 'system',
  schedule_run: 'system',
  note: 'system',
};
