// Params and results of memory.packet.build and memory.packet.delivered: the MemoryPacket of the seed (C-06).
import { z } from 'zod';
import { OwnerSchema } from '../ingest/schema.js';
import { MAX_WAIT_MS, SessionIdSchema } from './schema.js';

export const PACKET_SCHEMA_VERSION = 1;
export const STRENGTHS = ['hint', 'context', 'checklist'] as const;
export type Strength = (typeof STRENGTHS)[number];
export const DROP_REASONS = [
  'duplicate',
  'budget',
  'scope',
  'expired',
  'revoked',
  'superseded',
  'injection',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];
/** Why no packet was built. */
export const NO_PACKET_REASONS = ['no_query', 'pending', 'nothing_found', 'all_dropped'] as const;
export type NoPacketReason = (typeof NO_PACKET_REASONS)[number];

export const PacketBuildParamsSchema = z.object({
  owner: OwnerSchema,
  session_id: SessionIdSchema,
  /** Default: the index terms of the session's latest working-memory segments. */
  query: z.string().trim().min(1).max(4_000, 'query is at most 4,000 characters').optional(),
  budget_bytes: z.number().int().min(64).max(65_536).optional(),
  budget_tokens: z.number().int().min(16).max(16_384).optional(),
  /** The recall's wait budget (default 75 ms); a late recall answers `{packet: null, reason: "pending"}`. */
  wait_ms: z.number().int().min(0).max(MAX_WAIT_MS).optional(),
  /** Built, stored and audited, never deliverable (also `config.inject.shadow`). */
  shadow: z.boolean().optional(),
});
export type PacketBuildParams = z.output<typeof PacketBuildParamsSchema>;

export const DroppedSchema = z.object({ id: z.string(), reason: z.enum(DROP_REASONS) });
export type Dropped = z.infer<typeof DroppedSchema>;

export const PacketItemSchema = z.object({
  id: z.string(),
  kind: z.string(),
  /** As it goes into the prompt: quoted data with its marker, or a checklist line. */
  text: z.string(),
  /** The safety gate said `quote`: the text is wrapped as data with a marker. */
  quoted: z.boolean(),
  /** A high-risk procedure: a question for the user, never an instruction. */
  ask_user: z.boolean(),
  score: z.number(),
  at: z.string(),
  /** Source event ids. */
  sources: z.array(z.string()),
  source_seqs: z.array(z.number().int()),
  exact_digest: z.string(),
  semantic_digest: z.string(),
});
export type PacketItem = z.infer<typeof PacketItemSchema>;

export const MemoryPacketSchema = z.object({
  packet_id: z.string(),
  schema_version: z.literal(PACKET_SCHEMA_VERSION),
  session_id: z.string(),
  /** The session's context cursor when it was built (memory.gate moves it). */
  context_cursor: z.number().int(),
  /** The owner's index mark: a packet is fresh while it is unchanged. */
  retrieval_version: z.string(),
  /** `query` (asked), a gate trigger, or `working_memory`. */
  trigger: z.string(),
  strength: z.enum(STRENGTHS),
  items: z.array(PacketItemSchema),
  /** The rendered packet, as it goes into the next request. */
  text: z.string(),
  exact_digest: z.string(),
  semantic_digest: z.string(),
  source_seqs: z.array(z.number().int()),
  bytes: z.number().int(),
  tokens: z.number().int(),
  budget: z.object({ candidates: z.number().int(), bytes: z.number().int(), tokens: z.number().int() }),
  shadow: z.boolean(),
  created_at: z.string(),
  expires_at: z.string(),
  audit_id: z.string(),
});
export type MemoryPacket = z.infer<typeof MemoryPacketSchema>;

export const PacketBuildResultSchema = z.object({
  packet: MemoryPacketSchema.nullable(),
  /** No packet: why. */
  reason: z.enum(NO_PACKET_REASONS).optional(),
  /** Every candidate left out, with its reason (ids only). */
  dropped: z.array(DroppedSchema),
  /** `pending`: the recall's request; build again (wait_ms 0 answers from it once ready). */
  request_id: z.string().optional(),
});
export type PacketBuildResult = z.infer<typeof PacketBuildResultSchema>;

export const PacketDeliveredParamsSchema = z.object({
  owner: OwnerSchema,
  packet_id: z.string().min(1).max(100),
});
export const PacketDeliveredResultSchema = z.object({
  packet_id: z.string(),
  session_id: z.string(),
  status: z.literal('delivered'),
  /** The session's delivered cursor after this packet: one more per packet delivered, never twice. */
  delivered_cursor: z.number().int(),
  delivered_at: z.string(),
});
