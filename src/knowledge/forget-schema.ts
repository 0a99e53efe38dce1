// Params and result of memory.forget: real deletion of memories and objects (and, asked for, the events
// they cite with everything left without a source).
import { z } from 'zod';
import { OwnerSchema } from '../ingest/schema.js';

export const MAX_FORGET_IDS = 200;

export const ForgetParamsSchema = z.object({
  owner: OwnerSchema,
  /** Memory (`mem_…`) and object (`obj_…`) ids. */
  ids: z
    .array(z.string().trim().min(1, 'must not be empty').max(200, 'at most 200 characters'))
    .min(1, 'name at least one id')
    .max(MAX_FORGET_IDS, `at most ${MAX_FORGET_IDS} ids`),
  /** Also the raw events these items cite, then every memory or object left without a source. */
  with_events: z.boolean().default(false),
});
export type ForgetParams = z.output<typeof ForgetParamsSchema>;

const Count = z.number().int().nonnegative();

export const ForgetResultSchema = z.object({
  /** The ids deleted, those asked for and those the cascade took. */
  forgotten: z.object({
    memories: z.array(z.string()),
    objects: z.array(z.string()),
    events: z.array(z.string()),
  }),
  counts: z.object({
    memories: Count,
    objects: Count,
    events: Count,
    relations: Count,
    /** Full-text index documents deleted, and neighbours indexed again without the forgotten text. */
    index_entries: Count,
    reindexed: Count,
    vectors: Count,
    /** Cached recall answers and inbox items that named or quoted a forgotten item. */
    cached_answers: Count,
    inbox_items: Count,
    /** Timeline nodes whose summary was rebuilt from the events left under them. */
    nodes_rewritten: Count,
    /** Sessions' working-memory segments that held a word only forgotten items had (rewritten or deleted). */
    working_segments: Count,
  }),
});
export type ForgetResult = z.output<typeof ForgetResultSchema>;
