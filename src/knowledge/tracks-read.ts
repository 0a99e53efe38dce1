// memory.track.list and memory.track.expand: a track's entries newest first, a page at a time; one entry in
// full with the events it cites.
import type { z } from 'zod';
import { MemoryError } from '../errors.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Queryable } from '../storage/driver.js';
import { sourcesOf } from './memory-store.js';
import { projectScope } from './project-ref.js';
import { entryStatus, getEntry, trackEntries, trackOf, type EntryRow } from './track-view.js';
import type {
  TrackEntrySchema,
  TrackExpandResultSchema,
  TrackListParams,
  TrackListResultSchema,
} from './tracks-schema.js';

type Entry = z.input<typeof TrackEntrySchema>;
const iso = (t: number) => new Date(t).toISOString();
const isoOrNull = (t: number | null) => (t === null ? null : iso(t));

const entryOf = (m: EntryRow, sources: readonly string[]): Entry => ({
  id: m.memory_id,
  track: trackOf(m),
  kind: m.kind,
  text: m.text,
  summary: m.summary,
  status: entryStatus(m),
  project_id: m.project_id,
  at: iso(m.at),
  approved_by: m.approved_by,
  source_refs: [...sources],
});

async function withSources(db: Queryable, owner: string, rows: readonly EntryRow[]): Promise<Entry[]> {
  const sources = await sourcesOf(
    db,
    owner,
    rows.map((r) => r.memory_id),
  );
  return rows.map((r) =>
    entryOf(
      r,
      (sources.get(r.memory_id) ?? []).map((s) => s.event_id),
    ),
  );
}

export async function listTrack(
  db: Queryable,
  p: TrackListParams,
): Promise<z.input<typeof TrackListResultSchema>> {
  const project = await projectScope(db, p.owner, p.project);
  // A project the owner does not have holds nothing.
  if (p.project !== undefined && !project) return { items: [], next_cursor: null };
  const [at, ...id] = p.cursor?.split(':') ?? [];
  const before = at === undefined ? undefined : { at: Number(at), id: id.join(':') };
  const rows = await trackEntries(db, p.owner, p.track, project, {
    includeArchived: p.include_archived,
    limit: p.limit + 1,
    before,
  });
  const page = rows.slice(0, p.limit);
  const last = page.at(-1);
  return {
    items: await withSources(db, p.owner, page),
    next_cursor: rows.length > p.limit && last ? `${last.at}:${last.memory_id}` : null,
  };
}

export async function expandEntry(
  db: Queryable,
  owner: string,
  id: string,
): Promise<z.input<typeof TrackExpandResultSchema>> {
  const m = await getEntry(db, owner, id);
  if (!m) throw new MemoryError('NOT_FOUND', `no memory ${id}`, { id });
  const [entry] = await withSources(db, owner, [m]);
  const events = await getEventsByIds(db, owner, entry?.source_refs ?? []);
  return {
    ...(entry as Entry),
    subject: m.subject,
    predicate: m.predicate,
    object: m.object,
    valid_from: isoOrNull(m.valid_from),
    valid_to: isoOrNull(m.valid_to),
    approved_event: m.approved_event,
    archived_at: isoOrNull(m.archived_at),
    sources: events.map((e) => ({
      event_id: e.event_id,
      kind: e.kind,
      role: e.role,
      at: iso(e.at),
      text: e.text,
    })),
  };
}
