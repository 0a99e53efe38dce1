// Params and results of memory.snapshot (the bounded snapshot) and memory.context.fit (the host's budget).
import { z } from 'zod';
import { OwnerSchema } from '../ingest/schema.js';
import { SessionIdSchema } from './schema.js';

export const SnapshotParamsSchema = z.object({
  owner: OwnerSchema,
  /** The session asking: its write guard may add the backlog notice. */
  session_id: SessionIdSchema.optional(),
  /** The working directory: names the project (KEY's filter, Project Context's query). */
  cwd: z.string().trim().min(1).max(4_096).optional(),
});
export type SnapshotParams = z.output<typeof SnapshotParamsSchema>;

const SectionStatsSchema = z.object({
  key: z.enum(['user', 'memory', 'key', 'project_context', 'recent_daily']),
  title: z.string(),
  bytes: z.number().int(),
  entries: z.number().int(),
  excluded: z.number().int(),
  quoted: z.number().int(),
  cap_bytes: z.number().int(),
  cap_entries: z.number().int(),
  /** Why each entry looked at was left out: `unsafe` (the safety gate), `entries` or `budget` (the caps). */
  exclusions: z.array(z.object({ id: z.string(), reason: z.enum(['unsafe', 'entries', 'budget']) })),
});

export const SnapshotResultSchema = z.object({
  /** Markdown; the same state gives the same bytes. */
  text: z.string(),
  bytes: z.number().int(),
  /** The portable token estimate of text (text/tokens.ts). */
  tokens: z.number().int(),
  /** SHA-256 of text (hex). */
  digest: z.string(),
  project: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The write guard's notice is in text. */
  backlog: z.boolean(),
  sections: z.array(SectionStatsSchema),
});
export type SnapshotResult = z.input<typeof SnapshotResultSchema>;

export const DEFAULT_CONTEXT_BUDGET = 32_000;
const MAX_PART_ITEMS = 10_000;
const Text = z.string().max(4_000_000);
const Items = z.array(Text).max(MAX_PART_ITEMS);

export const ContextFitParamsSchema = z
  .object({
    /** The host's whole context, in UTF-8 bytes. */
    budget_bytes: z.number().int().min(1).max(100_000_000).default(DEFAULT_CONTEXT_BUDGET),
    /** The fixed prompt's size (system prompt, tool definitions), or the prompt itself to measure. */
    fixed_prompt_bytes: z.number().int().min(0).max(100_000_000).optional(),
    fixed_prompt: Text.optional(),
    /** Kept whole, or refused (REQUEST_TOO_LONG): never cut. */
    current_request: Text,
    /** Kept whole, like the request (what the agent is doing now: open files, plan, state). */
    live_state: Text.optional(),
    /** Oldest first; cut from the oldest. */
    logs: Items.default([]),
    /** Oldest first; cut from the oldest. */
    history: Items.default([]),
    /** Best ranked first; cut from the lowest ranked. */
    memory: Items.default([]),
  })
  .refine((p) => p.fixed_prompt_bytes === undefined || p.fixed_prompt === undefined, {
    message: 'give fixed_prompt_bytes or fixed_prompt, not both',
    path: ['fixed_prompt'],
  });
export type ContextFitParams = z.output<typeof ContextFitParamsSchema>;

const Size = z.object({ bytes: z.number().int(), tokens: z.number().int() });
const PartSchema = Size.extend({
  /** What stays, in the order given, and the marker (placed where the omitted items were), or null. */
  items: z.array(z.string()),
  omitted: z.number().int(),
  marker: z.string().nullable(),
  /** The bytes this part could use. */
  allowance: z.number().int(),
});

export const ContextFitResultSchema = z.object({
  budget_bytes: z.number().int(),
  fixed_prompt_bytes: z.number().int(),
  /** What the budget leaves after the fixed prompt. */
  available_bytes: z.number().int(),
  /** The kept parts, markers included (the fixed prompt not). */
  used: Size,
  /** The token estimator of every `tokens` (text/tokens.ts). */
  tokenizer: z.string(),
  current_request: Size,
  live_state: Size,
  logs: PartSchema,
  history: PartSchema,
  memory: PartSchema,
});
export type ContextFitResult = z.infer<typeof ContextFitResultSchema>;
