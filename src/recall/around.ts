// timeline.around: index heads before and after one event or a point in time, in time order.
import { z } from 'zod';
import { MemoryError } from '../errors.js';
import { OwnerSchema, TimeSchema } from '../ingest/schema.js';
import { eventsBeside, getEventsByIds } from '../ingest/store.js';
import type { Queryable } from '../storage/driver.js';
import { head, MAX_HEADS, TimelineHeadSchema } from './timeline.js';

export const TimelineAroundParamsSchema = z.object({
  owner: OwnerSchema,
  /** The event to look around; or `at`. */
  id: z.string().min(1).optional(),
  at: TimeSchema.optional(),
  before: z.number().int().min(0).max(MAX_HEADS).default(5),
  after: z.number().int().min(0).max(MAX_HEADS).default(5),
});
export type TimelineAroundParams = z.output<typeof TimelineAroundParamsSchema>;

export const TimelineAroundResultSchema = z.object({
  /** The event named by `id`; null around a time. */
  anchor: TimelineHeadSchema.nullable(),
  /** Oldest first, like `after`. */
  before: z.array(TimelineHeadSchema),
  after: z.array(TimelineHeadSchema),
});

const oneOf = (message: string) =>
  new MemoryError('INVALID_PARAMS', message, { issues: [{ path: 'id', message }] });

export async function timelineAround(db: Queryable, p: TimelineAroundParams) {
  if ((p.id === undefined) === (p.at === undefined)) throw oneOf('give either id or at, not both');
  let point = { at: p.at ?? 0, seq: 0 };
  let anchor = null;
  if (p.id !== undefined) {
    const [event] = await getEventsByIds(db, p.owner, [p.id]);
    if (!event) throw new MemoryError('NOT_FOUND', `no event ${p.id} for this owner`, { id: p.id });
    point = { at: event.at, seq: event.seq };
    anchor = head(event);
  }
  const side = (s: 'before' | 'after', limit: number) =>
    eventsBeside(db, { owner: p.owner, ...point, side: s, limit });
  const [before, after] = await Promise.all([side('before', p.before), side('after', p.after)]);
  return { anchor, before: before.reverse().map((e) => head(e)), after: after.map((e) => head(e)) };
}
