// Params and result of memory.safety.check: what a text is, who wrote it, where it came from.
import { z } from 'zod';
import { EVENT_KINDS, EVENT_ROLES, MAX_EVENT_TEXT } from '../ingest/schema.js';
import { MEMORY_KINDS } from '../observe/schema.js';

export const SAFETY_KINDS = [...EVENT_KINDS, ...MEMORY_KINDS] as const;
export type SafetyKind = (typeof SAFETY_KINDS)[number];
export type SafetyRole = (typeof EVENT_ROLES)[number];

/** The channel a text arrived through when it is not its author's own words (a pasted e-mail, a web page). */
export const SAFETY_SOURCES = ['chat', 'tool', 'web', 'email', 'file'] as const;
export type SafetySource = (typeof SAFETY_SOURCES)[number];

export const SAFETY_ACTIONS = ['allow', 'quote', 'suppress'] as const;
export type SafetyAction = (typeof SAFETY_ACTIONS)[number];

/** Signals (what the text does) first, then context (why a signal weighed less). */
export const SAFETY_REASON_CODES = [
  'override',
  'role_tag',
  'persona',
  'directive',
  'addressee',
  'tool_call',
  'shell',
  'exfiltration',
  'authority',
  'secrecy',
  'obfuscation',
  'hidden_text',
  'high_risk_procedure',
  'reported',
  'code',
  'example',
  'elsewhere',
  'own_words',
  'learned',
] as const;
export type SafetyReasonCode = (typeof SAFETY_REASON_CODES)[number];

export const SafetyCheckParamsSchema = z.object({
  text: z.string().max(MAX_EVENT_TEXT, `text is at most ${MAX_EVENT_TEXT} characters`),
  kind: z.enum(SAFETY_KINDS),
  role: z.enum(EVENT_ROLES),
  source: z.enum(SAFETY_SOURCES).optional(),
});
export type SafetyInput = z.output<typeof SafetyCheckParamsSchema>;

export const SafetyReasonSchema = z.object({
  code: z.enum(SAFETY_REASON_CODES),
  /** [start, end) in UTF-16 code units of the text as sent. */
  span: z.tuple([z.number().int(), z.number().int()]).optional(),
});
export type SafetyReason = z.infer<typeof SafetyReasonSchema>;

export const SafetyCheckResultSchema = z.object({
  action: z.enum(SAFETY_ACTIONS),
  /** 0 (nothing found) to 1: what the rules found, after trust and framing. */
  score: z.number().min(0).max(1),
  /**
   * 0–1: how much the text reads like a planted instruction to the learned classifier (0 for the user's own
   * words). At `SAFETY_THRESHOLDS.learned` or above, a text the rules allow is quoted (reason `learned`).
   */
  learned: z.number().min(0).max(1).optional(),
  reasons: z.array(SafetyReasonSchema),
  /** Only with action `quote`: the text as quoted data with its marker, for the host to show instead. */
  quoted: z.string().optional(),
});
export type SafetyVerdict = z.infer<typeof SafetyCheckResultSchema>;
