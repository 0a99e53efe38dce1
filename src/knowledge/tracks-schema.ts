// Params and results of the memory.track.* methods: the maestro tracks as views over memories.
import { z } from 'zod';
import { EVENT_KINDS, EVENT_ROLES, OwnerSchema } from '../ingest/schema.js';
import { TimeSchema } from '../ingest/schema.js';

export const TRACKS = ['memory', 'user', 'project', 'key', 'daily'] as const;
export type Track = (typeof TRACKS)[number];
export const TrackSchema = z.enum(TRACKS);

/** What a track view reports: the lifecycle, or `archived` for an entry moved out of its track. */
export const ENTRY_STATUSES = [
  'candidate',
  'active',
  'superseded',
  'retired',
  'revoked',
  'observed',
  'validated',
  'deprecated',
  'draft',
  'archived',
] as const;
const EntryStatusSchema = z.enum(ENTRY_STATUSES);

export const MAX_ENTRY_TEXT = 4_000;
export const EntryTextSchema = z
  .string()
  .trim()
  .min(1, 'text must not be empty')
  .max(MAX_ENTRY_TEXT, `text is at most ${MAX_ENTRY_TEXT} characters`);
const IdSchema = z.string().trim().min(1).max(200);
/** The session a write comes from: a write that adds something settles its write guard (inject/write-guard.ts). */
export const WriterSessionSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'at most 200 characters')
  .regex(/^[A-Za-z0-9._:@/#-]+$/, 'may hold only letters, digits and . _ : @ / # -');
/** A project object's id, or a project's name (an unknown name becomes a candidate project). */
export const ProjectRefSchema = z.string().trim().min(1).max(200);

export const TrackAddParamsSchema = z.object({
  owner: OwnerSchema,
  track: TrackSchema,
  text: EntryTextSchema,
  /** Needed for the project track. */
  project: ProjectRefSchema.optional(),
  /** A short form of a long entry. */
  summary: z.string().trim().min(1).max(500).optional(),
  /** Who wrote it: `user` when a person typed it (a user-track entry is then a preference), else the host. */
  role: z.enum(['user', 'system']).default('system'),
  session_id: WriterSessionSchema.optional(),
});
export type TrackAddParams = z.output<typeof TrackAddParamsSchema>;

export const TrackAddResultSchema = z.object({
  id: z.string(),
  /** False when the track holds the same text already: nothing was written. */
  added: z.boolean(),
  status: EntryStatusSchema,
});

export const TrackEntrySchema = z.object({
  id: z.string(),
  track: TrackSchema.nullable(),
  kind: z.string(),
  text: z.string(),
  summary: z.string().nullable(),
  status: EntryStatusSchema,
  project_id: z.string().nullable(),
  at: z.string(),
  approved_by: z.string().nullable(),
  source_refs: z.array(z.string()),
});

export const TrackListParamsSchema = z.object({
  owner: OwnerSchema,
  track: TrackSchema,
  project: ProjectRefSchema.optional(),
  /** Archived and superseded entries too (revoked ones never). */
  include_archived: z.boolean().default(false),
  limit: z.number().int().min(1).max(200).default(50),
  cursor: z
    .string()
    .regex(/^\d{1,16}:\S{1,200}$/, 'not a cursor of memory.track.list')
    .optional(),
});
export type TrackListParams = z.output<typeof TrackListParamsSchema>;

export const TrackListResultSchema = z.object({
  items: z.array(TrackEntrySchema),
  next_cursor: z.string().nullable(),
});

export const TrackExpandParamsSchema = z.object({ owner: OwnerSchema, id: IdSchema });

export const TrackExpandResultSchema = TrackEntrySchema.extend({
  subject: z.string().nullable(),
  predicate: z.string().nullable(),
  object: z.string().nullable(),
  valid_from: z.string().nullable(),
  valid_to: z.string().nullable(),
  approved_event: z.string().nullable(),
  archived_at: z.string().nullable(),
  sources: z.array(
    z.object({
      event_id: z.string(),
      kind: z.enum(EVENT_KINDS),
      role: z.enum(EVENT_ROLES),
      at: z.string(),
      text: z.string(),
    }),
  ),
});

export const TrackArchiveParamsSchema = z.object({
  owner: OwnerSchema,
  track: TrackSchema,
  project: ProjectRefSchema.optional(),
  /** The newest entries that stay (default: the track's budget). */
  keep: z.number().int().min(0).max(10_000).optional(),
  /** Entries older than this move too. */
  before: TimeSchema.optional(),
  /** Only report what would move (the default). */
  dry_run: z.boolean().default(true),
  /** Needed, with dry_run: false, to move anything. */
  confirm: z.boolean().default(false),
});
export type TrackArchiveParams = z.output<typeof TrackArchiveParamsSchema>;

export const TrackArchiveResultSchema = z.object({
  track: TrackSchema,
  dry_run: z.boolean(),
  /** How many moved (0 on a dry run). */
  moved: z.number().int(),
  /** The entries that move (or would), newest first. */
  entries: z.array(z.object({ id: z.string(), at: z.string(), head: z.string() })),
  /** Entries that stay in the track. */
  kept: z.number().int(),
});
