// Params and results of the facts methods: history, conflict resolution, revocation and the tick.
import { z } from 'zod';
import { OwnerSchema } from '../ingest/schema.js';
import { LIFECYCLES } from './lifecycle.js';

const IdSchema = z.string().trim().min(1, 'must not be empty').max(200, 'at most 200 characters');
const PartSchema = z.string().trim().min(1, 'must not be empty').max(500, 'at most 500 characters');
/** A lifecycle, or a coarse status for memories that have none. */
const StatusSchema = z.enum([...LIFECYCLES]);

export const FactsHistoryParamsSchema = z.object({
  owner: OwnerSchema,
  subject: PartSchema,
  predicate: PartSchema,
});

export const FactVersionSchema = z.object({
  id: z.string(),
  text: z.string(),
  value: z.string(),
  status: StatusSchema,
  current: z.boolean(),
  valid_from: z.string(),
  valid_to: z.string().nullable(),
  origin: z.string().nullable(),
  conflict_id: z.string().nullable(),
  sources: z.array(z.string()),
});

export const FactsHistoryResultSchema = z.object({
  subject: z.string(),
  predicate: z.string(),
  versions: z.array(FactVersionSchema),
});

export const FactsResolveParamsSchema = z.object({
  owner: OwnerSchema,
  conflict_id: IdSchema,
  keep: IdSchema,
});
export const FactsResolveResultSchema = z.object({
  conflict_id: z.string(),
  kept: z.string(),
  superseded: z.array(z.string()),
});

export const RevokeParamsSchema = z.object({
  owner: OwnerSchema,
  id: IdSchema,
  reason: z
    .string()
    .trim()
    .min(1, 'reason must not be empty')
    .max(2_000, 'reason is at most 2,000 characters'),
});
export const RevokeResultSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.literal('revoked'),
  reason: z.string(),
  revoked_at: z.string(),
});

export const TickParamsSchema = z.object({ owner: OwnerSchema.optional() });
export const TickResultSchema = z.object({ now: z.string(), retired: z.number().int() });
