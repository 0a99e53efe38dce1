// Params and results of the memory.todo.* methods: todos are objects of type todo across four tracks.
import { z } from 'zod';
import { OwnerSchema } from '../ingest/schema.js';
import { ProjectRefSchema, WriterSessionSchema } from './tracks-schema.js';

export const TODO_TRACKS = ['life', 'work', 'project', 'daily'] as const;
export type TodoTrack = (typeof TODO_TRACKS)[number];
export const TODO_STATUSES = ['open', 'done', 'dropped'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];
/** The smart view shows at most this many. */
export const TODO_VIEW_SIZE = 8;

const IdSchema = z.string().trim().min(1).max(200);
const TitleSchema = z.string().trim().min(1, 'a title must not be empty').max(200);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
/** A day (`2026-11-20`: due by the end of that workday) or a time with its zone. */
export const DueSchema = z
  .string()
  .trim()
  .refine((s) => (DATE.test(s) || DATE_TIME.test(s)) && !Number.isNaN(Date.parse(s)), {
    message: 'due is a day (2026-11-20) or an ISO-8601 time with its zone (2026-11-20T18:00:00+08:00)',
  });

export const TodoAddParamsSchema = z.object({
  owner: OwnerSchema,
  track: z.enum(TODO_TRACKS),
  title: TitleSchema,
  due: DueSchema.optional(),
  /** A project object's id or name (needed for the project track). */
  project: ProjectRefSchema.optional(),
  session_id: WriterSessionSchema.optional(),
});
export type TodoAddParams = z.output<typeof TodoAddParamsSchema>;

export const TodoAddResultSchema = z.object({
  id: z.string(),
  /** False when an open todo of the track has the same title: that one is answered. */
  added: z.boolean(),
});

export const TodoUpdateParamsSchema = z
  .object({
    owner: OwnerSchema,
    id: IdSchema,
    status: z.enum(TODO_STATUSES).optional(),
    title: TitleSchema.optional(),
    /** null clears it. */
    due: DueSchema.nullable().optional(),
  })
  .refine((p) => p.status !== undefined || p.title !== undefined || p.due !== undefined, {
    message: 'change at least one of status, title, due',
    path: ['status'],
  });
export type TodoUpdateParams = z.output<typeof TodoUpdateParamsSchema>;

export const TodoSchema = z.object({
  id: z.string(),
  track: z.enum(TODO_TRACKS),
  title: z.string(),
  status: z.enum(TODO_STATUSES),
  due: z.string().nullable(),
  overdue: z.boolean(),
  project_id: z.string().nullable(),
  revision: z.number().int(),
  created_at: z.string(),
  touched_at: z.string(),
});

export const TodoUpdateResultSchema = TodoSchema;

export const TodoListParamsSchema = z.object({
  owner: OwnerSchema,
  track: z.enum(TODO_TRACKS).optional(),
  status: z.enum(TODO_STATUSES).optional(),
  limit: z.number().int().min(1).max(500).default(100),
});
export type TodoListParams = z.output<typeof TodoListParamsSchema>;

export const TodoListResultSchema = z.object({ items: z.array(TodoSchema) });

export const TodoViewParamsSchema = z.object({ owner: OwnerSchema });

export const TodoViewResultSchema = z.object({
  /** At most 8 open todos: overdue first, then due soonest, then most recently touched. */
  items: z.array(TodoSchema),
  open: z.number().int(),
  overdue: z.number().int(),
});
