// Params and results of the memory.chain.* methods: objects, aliases and relations.
import { z } from 'zod';
import { EVENT_KINDS, EVENT_ROLES, OwnerSchema } from '../ingest/schema.js';
import { MAX_ALIASES, MAX_BODY, MAX_NAME, OBJECT_STATUSES, OBJECT_TYPES } from './objects.js';
import { RELATION_TYPE } from './relations.js';
import { WriterSessionSchema } from './tracks-schema.js';

const IdSchema = z.string().trim().min(1).max(200);
const NameSchema = z.string().trim().min(1, 'a name must not be empty').max(MAX_NAME);
export const ObjectTypeSchema = z.enum(OBJECT_TYPES);
const TypesSchema = z
  .array(ObjectTypeSchema)
  .max(OBJECT_TYPES.length)
  .transform((types) => [...new Set(types)])
  .optional();
export const BodySchema = z.string().max(MAX_BODY, `a body holds at most ${MAX_BODY} characters`);
export const RelationTypeSchema = z.string().regex(RELATION_TYPE, 'a relation type is a snake_case word');

export const UpsertObjectSchema = z.object({
  /** An existing object to change; without it a duplicate (same type and name or alias) is merged. */
  id: IdSchema.optional(),
  /** How this call's relations name the object. */
  ref: z.string().trim().min(1).max(64).optional(),
  type: ObjectTypeSchema,
  name: NameSchema,
  aliases: z.array(NameSchema).max(MAX_ALIASES).optional(),
  body: BodySchema.optional(),
  status: z.enum(OBJECT_STATUSES).optional(),
});

export const UpsertRelationSchema = z.object({
  /** An object id of this owner, or the `ref` of an object of this call. */
  from: IdSchema,
  to: IdSchema,
  type: RelationTypeSchema,
});

export const ChainUpsertParamsSchema = z
  .object({
    owner: OwnerSchema,
    objects: z.array(UpsertObjectSchema).max(50),
    relations: z.array(UpsertRelationSchema).max(100).default([]),
    /** Events of this owner the write cites; without them, the write is stored as a note event first. */
    source_refs: z.array(IdSchema).min(1).max(100).optional(),
    session_id: WriterSessionSchema.optional(),
  })
  .refine((p) => p.objects.length + p.relations.length > 0, {
    message: 'write at least one object or relation',
    path: ['objects'],
  })
  .refine(
    (p) => {
      const refs = p.objects.flatMap((o) => (o.ref === undefined ? [] : [o.ref]));
      return new Set(refs).size === refs.length;
    },
    { message: 'each ref names one object of the call', path: ['objects'] },
  );
export type ChainUpsertParams = z.output<typeof ChainUpsertParamsSchema>;

export const ChainUpsertResultSchema = z.object({
  objects: z.array(
    z.object({ id: z.string(), revision: z.number().int(), created: z.boolean(), merged: z.boolean() }),
  ),
  relations: z.array(z.object({ id: z.string(), created: z.boolean() })),
  /** The events the write cites (the note stored for it, or the source_refs). */
  source_refs: z.array(z.string()),
});

export const ObjectSummarySchema = z.object({
  id: z.string(),
  type: ObjectTypeSchema,
  name: z.string(),
  aliases: z.array(z.string()),
  status: z.enum(OBJECT_STATUSES),
  revision: z.number().int(),
  updated_at: z.string(),
});

export const ChainFindParamsSchema = z.object({
  owner: OwnerSchema,
  query: z.string().trim().min(1).max(500),
  types: TypesSchema,
  include_archived: z.boolean().default(false),
  limit: z.number().int().min(1).max(50).default(10),
});
export type ChainFindParams = z.output<typeof ChainFindParamsSchema>;

export const FIND_MATCHES = ['name', 'alias', 'mention', 'text'] as const;
export const ChainFindResultSchema = z.object({
  items: z.array(
    ObjectSummarySchema.extend({
      /** name/alias: the whole query is it; mention: the query holds it; text: BM25 over the object. */
      match: z.enum(FIND_MATCHES),
      /** The name or alias that matched (null for a text match). */
      matched: z.string().nullable(),
    }),
  ),
});

export const MAX_READ_PAGE = 50;
export const ChainReadParamsSchema = z.object({
  owner: OwnerSchema,
  id: IdSchema,
  depth: z.number().int().min(0).max(2).default(1),
  /** The previous page's next_cursor. */
  cursor: z
    .string()
    .regex(/^[12]:\S{1,200}$/, 'not a cursor of memory.chain.read')
    .optional(),
  limit: z.number().int().min(1).max(MAX_READ_PAGE).default(MAX_READ_PAGE),
});
export type ChainReadParams = z.output<typeof ChainReadParamsSchema>;

const SourceRefSchema = z.object({ event_id: z.string(), quote: z.string().nullable() });

export const ChainReadResultSchema = z.object({
  object: ObjectSummarySchema.extend({
    body: z.string(),
    attrs: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
    sources: z.array(SourceRefSchema),
  }),
  /** The expansion, breadth first: depth 1 the neighbours, 2 theirs; a page at a time. */
  objects: z.array(ObjectSummarySchema.extend({ depth: z.number().int(), head: z.string() })),
  relations: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      from: z.string(),
      to: z.string(),
      from_name: z.string(),
      to_name: z.string(),
      created_at: z.string(),
      sources: z.array(z.string()),
    }),
  ),
  /** Current facts about the object (filled by the facts layer). */
  facts: z.array(z.unknown()),
  /** The events the object and the page's relations cite. */
  sources: z.array(
    z.object({
      event_id: z.string(),
      kind: z.enum(EVENT_KINDS),
      role: z.enum(EVENT_ROLES),
      at: z.string(),
      head: z.string(),
      length: z.number().int(),
    }),
  ),
  next_cursor: z.string().nullable(),
});
export type ChainReadResult = z.input<typeof ChainReadResultSchema>;

export const ChainNodeParamsSchema = z.object({
  owner: OwnerSchema,
  /** A source event's id. */
  id: IdSchema,
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(32_000).default(4_000),
});
export type ChainNodeParams = z.output<typeof ChainNodeParamsSchema>;

export const ChainNodeResultSchema = z.object({
  id: z.string(),
  kind: z.enum(EVENT_KINDS),
  role: z.enum(EVENT_ROLES),
  at: z.string(),
  session_id: z.string().nullable(),
  task_id: z.string().nullable(),
  offset: z.number().int(),
  text: z.string(),
  length: z.number().int(),
  next_offset: z.number().int().nullable(),
  /** The objects and relations that cite this event. */
  cited_by: z.object({ objects: z.array(z.string()), relations: z.array(z.string()) }),
});

export const ChainBrowseParamsSchema = z.object({
  owner: OwnerSchema,
  after: IdSchema.optional(),
  limit: z.number().int().min(1).max(100).default(50),
  types: TypesSchema,
});
export type ChainBrowseParams = z.output<typeof ChainBrowseParamsSchema>;

export const ChainBrowseResultSchema = z.object({
  items: z.array(ObjectSummarySchema),
  next_after: z.string().nullable(),
});

export const ProjectDecisionParamsSchema = z.object({
  owner: OwnerSchema,
  id: IdSchema,
  decision: z.enum(['confirm', 'reject']),
  /** A user event of this owner holding the quote verbatim. */
  event_id: IdSchema,
  quote: z.string().trim().min(1, 'a quote must not be empty').max(2_000),
});
export type ProjectDecisionParams = z.output<typeof ProjectDecisionParamsSchema>;

export const ProjectDecisionResultSchema = z.object({
  id: z.string(),
  status: z.enum(OBJECT_STATUSES),
  revision: z.number().int(),
});
