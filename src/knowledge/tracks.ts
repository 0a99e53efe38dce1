// memory.track.add: an entry written into a track, as a memory citing a note event stored for it first
// (through ingest: redacted, validated). memory/key entries are facts without a subject, user entries the
// user's preferences (or the host's facts about the user), project entries facts about the project, daily
// entries episodes. A write that restates a live entry of its track adds nothing and says so.
import { MemoryError } from '../errors.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import type { DirectMemory, PublishDirect } from './direct.js';
import type { KnowledgeContext } from './facts.js';
import { writeState } from './memory-store.js';
import { normText } from './names.js';
import { writeNote, type NoteDeps } from './note.js';
import { projectScope, resolveProject } from './project-ref.js';
import { entryStatus, getEntry, liveDuplicate } from './track-view.js';
import type { Track } from './tracks-schema.js';

export interface TrackDeps extends NoteDeps {
  driver: Driver;
  redactor: Redactor;
  publish: PublishDirect;
  timeZone: string;
}

export interface EntryInput {
  owner: string;
  track: Track;
  text: string;
  project?: string | undefined;
  summary?: string | undefined;
  role: 'user' | 'system';
  /** Set when a person approved the entry (a suggestion): the only way into the key track. */
  approval?: { by: string; event_id?: string | undefined; of?: string | undefined } | undefined;
  /** Events the entry cites besides its note (a suggestion's sources). */
  sources?: readonly string[] | undefined;
}

export interface EntryOutcome {
  id: string;
  added: boolean;
  status: ReturnType<typeof entryStatus>;
}

const NOTE_HEADER = 'memory.track.add';

/** What the entry is as a memory: its kind follows its track and who wrote it. */
function shapeOf(
  input: EntryInput,
  projectName: string | null,
): Pick<DirectMemory, 'kind' | 'fact_kind' | 'subject'> {
  switch (input.track) {
    case 'daily':
      return { kind: 'episode', fact_kind: null, subject: null };
    case 'user':
      // Only the user's own words make a preference (they quote the user's note); the host's are facts.
      return input.role === 'user'
        ? { kind: 'preference', fact_kind: null, subject: null }
        : { kind: 'fact', fact_kind: null, subject: null };
    case 'project':
      return { kind: 'fact', fact_kind: 'project', subject: projectName };
    default:
      return { kind: 'fact', fact_kind: null, subject: null };
  }
}

/**
 * invariant: the key track takes entries only through an approved suggestion (test:
 * src/knowledge/tracks.test.ts "key entries only through an approved suggestion…").
 */
export async function addTrackEntry(deps: TrackDeps, input: EntryInput): Promise<EntryOutcome> {
  if (input.track === 'key' && !input.approval) {
    throw new MemoryError(
      'APPROVAL_REQUIRED',
      'a key entry is written only through an approved suggestion (memory.suggest, then memory.suggestions.decide)',
      { track: 'key' },
    );
  }
  if (input.track === 'project' && input.project === undefined) {
    const message = 'a project entry names its project';
    throw new MemoryError('INVALID_PARAMS', message, { issues: [{ path: 'project', message }] });
  }
  const redact = async (s: string | undefined) =>
    s === undefined ? undefined : (await deps.redactor.redact(s)).text;
  const [text = '', summary, project] = await Promise.all([
    redact(input.text),
    redact(input.summary),
    redact(input.project),
  ]);
  const db = deps.driver;
  // Nothing new: no note, no memory.
  const known = project === undefined ? undefined : await projectScope(db, input.owner, project);
  if (project === undefined || known) {
    const dup = await liveDuplicate(db, input.owner, input.track, known, normText(text));
    if (dup) return { id: dup.memory_id, added: false, status: entryStatus(dup) };
  }
  const heading = [
    NOTE_HEADER,
    input.track,
    ...(project === undefined ? [] : [`(project: ${project})`]),
    ...(input.approval
      ? [`(approved by ${input.approval.by}${input.approval.of ? `: ${input.approval.of}` : ''})`]
      : []),
  ];
  const noteId = await writeNote(deps, input.owner, `${heading.join(' ')}\n${text}`, input.role);
  const [note] = await getEventsByIds(db, input.owner, [noteId]);
  if (!note) throw new Error('a note just written is missing');
  const ctx: KnowledgeContext = { timeZone: deps.timeZone, now: deps.now() };
  const sources = [noteId, ...(input.sources ?? []).filter((id) => id !== noteId)];
  return db.transaction(async (tx) => {
    await tx.lockOwner(input.owner);
    const scope =
      project === undefined ? undefined : await resolveProject(tx, input.owner, project, [noteId], ctx.now);
    const dup = await liveDuplicate(tx, input.owner, input.track, scope, normText(text));
    if (dup) return { id: dup.memory_id, added: false, status: entryStatus(dup) };
    const shape = shapeOf(input, scope?.name ?? null);
    // The note holds the text verbatim after its heading: the quote a preference needs.
    const quoted = note.text.slice(note.text.indexOf('\n') + 1);
    const id = await deps.publish(
      tx,
      {
        owner: input.owner,
        ...shape,
        text,
        quotes: shape.kind === 'preference' ? [{ event_id: noteId, text: quoted }] : null,
        sources,
        at: note.at,
      },
      ctx,
    );
    // invariant: an entry written to a track is active at once (it is no inference to confirm), and an
    // approved one names its approver (test: src/knowledge/tracks.test.ts "adds an entry…").
    await writeState(tx, input.owner, id, {
      status: 'active',
      lifecycle: 'active',
      track: input.track,
      project_id: scope?.id ?? null,
      summary: summary ?? null,
      approved_by: input.approval?.by ?? null,
      approved_event: input.approval?.event_id ?? null,
      updated_at: ctx.now,
    });
    const stored = await getEntry(tx, input.owner, id);
    return { id, added: true, status: stored ? entryStatus(stored) : 'active' };
  });
}
