// The inject stage's settings: one frozen defaults object, the schema of its config slice (`config.inject`).
import { z } from 'zod';

const ms = z.number().int().min(0);
const weight = z.number().min(0).max(1);

export const GateWeightsSchema = z.object({
  /** Share of the segment's terms that no segment of the working memory holds (0–1). */
  novelty: weight,
  /** Known objects and ids the segment names that the working memory does not (saturating). */
  unresolved: weight,
  /** The task moved to another phase (started, acting, waiting, ended). */
  phase_change: weight,
  /** A tool call failed (`ok: false`) or a task failed. */
  tool_failure: weight,
  /** An open conflict set among the owner's facts about something the segment names. */
  conflict: weight,
  /** BM25 hits over the owner's earlier documents (other sessions), saturating. */
  history: weight,
});
export type GateWeights = z.infer<typeof GateWeightsSchema>;

export const PacketConfigSchema = z.object({
  /** Candidates asked of recall, and the most items a packet holds: the first layer of the budget. */
  maxCandidates: z.number().int().min(1).max(50),
  maxItems: z.number().int().min(1).max(50),
  /** Default budgets of the rendered packet: UTF-8 bytes and estimated tokens (text/tokens.ts). */
  budgetBytes: z.number().int().min(64).max(65_536),
  budgetTokens: z.number().int().min(16).max(16_384),
  /** A packet not delivered this long after it was built is dropped (TTL only asks for a new retrieval). */
  ttlMs: ms,
  /** Near duplicates: item simhashes at most this many bits apart (of 64). */
  nearBits: z.number().int().min(0).max(16),
});
export type PacketConfig = z.infer<typeof PacketConfigSchema>;

/** The seed's MEMORY section size (2,048 B) as the packet's byte budget; the rest starting points. */
export const PACKET_DEFAULTS: PacketConfig = Object.freeze({
  maxCandidates: 12,
  maxItems: 6,
  budgetBytes: 2_048,
  budgetTokens: 600,
  ttlMs: 120_000,
  nearBits: 3,
});

export const InjectConfigSchema = z.object({
  recall: z.object({
    /** A background recall still pending this long after it began is failed (`timeout`, `abandoned`). */
    runLimitMs: ms,
    /** How long a finished request answers an identical `wait_ms: 0` recall while the index is unchanged. */
    cacheMs: ms,
  }),
  session: z.object({
    /** Segments kept per session (oldest first out). */
    ringSize: z.number().int().min(1).max(1_000),
    /** A segment older than this leaves the working memory. */
    segmentTtlMs: ms,
  }),
  gate: z.object({
    weights: GateWeightsSchema,
    /** Weighted score at or above which the gate says `retrieve`. */
    retrieveAt: z.number().min(0),
    /** At or above which (below retrieveAt) it says `prefetch`: a background recall, nothing injected. */
    prefetchAt: z.number().min(0),
    /** After a retrieve or prefetch, the same trigger is suppressed this long in the session. */
    cooldownMs: ms,
    /** Share of ignored or harmful feedback on a trigger, in a session, that suppresses it. */
    ignoredRate: weight,
    /** Feedback on a trigger in a session needed before its rate counts. */
    minFeedback: z.number().int().min(1),
    /** Unresolved entities that give the full `unresolved` weight. */
    unresolvedSaturation: z.number().int().min(1),
    /** History hits that give the full `history` weight. */
    historySaturation: z.number().int().min(1),
  }),
  packet: PacketConfigSchema.default(PACKET_DEFAULTS),
  /** Shadow mode: every packet is built, stored and audited, none can be delivered (replays, calibration). */
  shadow: z.boolean().default(false),
});
export type InjectConfig = z.infer<typeof InjectConfigSchema>;

/** The seeds give the ring (32 segments, 15 min); the rest are starting points to calibrate by replay. */
export const INJECT_DEFAULTS: InjectConfig = Object.freeze({
  recall: Object.freeze({ runLimitMs: 30_000, cacheMs: 60_000 }),
  session: Object.freeze({ ringSize: 32, segmentTtlMs: 15 * 60_000 }),
  gate: Object.freeze({
    weights: Object.freeze({
      novelty: 0.3,
      unresolved: 0.35,
      phase_change: 0.25,
      tool_failure: 0.45,
      conflict: 0.3,
      history: 0.25,
    }),
    retrieveAt: 0.6,
    prefetchAt: 0.4,
    cooldownMs: 60_000,
    ignoredRate: 0.6,
    minFeedback: 3,
    unresolvedSaturation: 2,
    historySaturation: 3,
  }),
  packet: PACKET_DEFAULTS,
  shadow: false,
});
