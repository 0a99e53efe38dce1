// Params and results of memory.suggest and memory.suggestions.*: entries proposed for a track, awaiting a person.
import { z } from 'zod';
import { OwnerSchema } from '../ingest/schema.js';
import { EntryTextSchema, ProjectRefSchema, TrackSchema } from './tracks-schema.js';

export const SUGGESTION_STATUSES = ['pending', 'approved', 'rejected'] as const;
const StatusSchema = z.enum(SUGGESTION_STATUSES);
const IdSchema = z.string().trim().min(1).max(200);
const NameSchema = z.string().trim().min(1, 'say who decides').max(200);

export const SuggestParamsSchema = z.object({
  owner: OwnerSchema,
  track: TrackSchema,
  text: EntryTextSchema,
  reason: z.string().trim().min(1).max(1_000).optional(),
  /** Needed for the project track. */
  project: ProjectRefSchema.optional(),
  /** Events of this owner the suggestion rests on; the published entry cites them. */
  source_refs: z.array(IdSchema).max(100).optional(),
});
export type SuggestParams = z.output<typeof SuggestParamsSchema>;

export const SuggestResultSchema = z.object({ id: z.string(), status: z.literal('pending') });

export const SuggestionSchema = z.object({
  id: z.string(),
  track: TrackSchema,
  text: z.string(),
  reason: z.string().nullable(),
  project: z.string().nullable(),
  source_refs: z.array(z.string()),
  status: StatusSchema,
  created_at: z.string(),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** The entry an approval published. */
  memory_id: z.string().nullable(),
});

export const SuggestionsListParamsSchema = z.object({
  owner: OwnerSchema,
  status: StatusSchema.optional(),
  track: TrackSchema.optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export type SuggestionsListParams = z.output<typeof SuggestionsListParamsSchema>;

export const SuggestionsListResultSchema = z.object({ items: z.array(SuggestionSchema) });

export const SuggestionsDecideParamsSchema = z.object({
  owner: OwnerSchema,
  id: IdSchema,
  decision: z.enum(['approve', 'reject']),
  /** The person who decides: recorded as the entry's approver. */
  by: NameSchema,
});
export type SuggestionsDecideParams = z.output<typeof SuggestionsDecideParamsSchema>;

export const SuggestionsDecideResultSchema = SuggestionSchema.extend({
  /** False when the approved text was in its track already (the entry named is that one). */
  added: z.boolean().nullable(),
});
