// Suggestions await a person: a proposed track entry (redacted) stays pending until someone approves it,
// which publishes it into its track with the approver recorded (the only way into the key track), or rejects
// it. Each is decided once.
import type { z } from 'zod';
import { MemoryError } from '../errors.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import { newKnowledgeId } from './ids.js';
import { normText } from './names.js';
import type {
  SuggestionSchema,
  SuggestionsDecideParams,
  SuggestionsListParams,
  SuggestParams,
} from './suggestions-schema.js';
import { addTrackEntry, type TrackDeps } from './tracks.js';
import type { Track } from './tracks-schema.js';

const SuggestionRow = row({
  suggestion_id: str,
  owner: str,
  track: str,
  text: str,
  reason: nstr,
  project: nstr,
  source_refs: str,
  status: str,
  decided_by: nstr,
  decided_at: nint,
  memory_id: nstr,
  created_at: int,
});
type SuggestionRow = z.output<typeof SuggestionRow>;
const COLUMNS = Object.keys(SuggestionRow.shape).join(', ');

type Suggestion = z.input<typeof SuggestionSchema>;
const iso = (t: number) => new Date(t).toISOString();

const view = (r: SuggestionRow): Suggestion => ({
  id: r.suggestion_id,
  track: r.track as Track,
  text: r.text,
  reason: r.reason,
  project: r.project,
  source_refs: JSON.parse(r.source_refs) as string[],
  status: r.status as Suggestion['status'],
  created_at: iso(r.created_at),
  decided_by: r.decided_by,
  decided_at: r.decided_at === null ? null : iso(r.decided_at),
  memory_id: r.memory_id,
});

const getSuggestion = (db: Queryable, owner: string, id: string) =>
  db.one(SuggestionRow, `SELECT ${COLUMNS} FROM suggestions WHERE owner = ? AND suggestion_id = ?`, [
    owner,
    id,
  ]);

const invalid = (path: string, message: string) =>
  new MemoryError('INVALID_PARAMS', message, { issues: [{ path, message }] });

export async function suggest(deps: TrackDeps, p: SuggestParams): Promise<{ id: string; status: 'pending' }> {
  if (p.track === 'project' && p.project === undefined)
    throw invalid('project', 'a project entry names its project');
  const refs = [...new Set(p.source_refs ?? [])];
  const found = new Set((await getEventsByIds(deps.driver, p.owner, refs)).map((e) => e.event_id));
  const missing = refs.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw new MemoryError('NOT_FOUND', `no event ${missing.join(', ')} for this owner`, { missing });
  const [text = '', reason, project] = (
    await deps.redactor.redactMany([p.text, p.reason ?? '', p.project ?? ''])
  ).map((r, i) => (i > 0 && r.text === '' ? undefined : r.text));
  const norm = normText(text);
  const now = deps.now();
  return deps.driver.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    // The same suggestion again while one waits is that one.
    const waiting = await tx.one(
      SuggestionRow,
      `SELECT ${COLUMNS} FROM suggestions WHERE owner = ? AND status = 'pending' AND track = ? AND norm_text = ?
        AND coalesce(project, '') = ? ORDER BY created_at LIMIT 1`,
      [p.owner, p.track, norm, project ?? ''],
    );
    if (waiting) return { id: waiting.suggestion_id, status: 'pending' as const };
    const id = newKnowledgeId('sug');
    await tx.run(
      `INSERT INTO suggestions (suggestion_id, owner, track, text, norm_text, reason, project, source_refs, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
      [id, p.owner, p.track, text, norm, reason ?? null, project ?? null, JSON.stringify(refs), now],
    );
    return { id, status: 'pending' as const };
  });
}

export async function listSuggestions(
  db: Queryable,
  p: SuggestionsListParams,
): Promise<{ items: Suggestion[] }> {
  const where = ['owner = ?'];
  const params: SqlValue[] = [p.owner];
  if (p.status) {
    where.push('status = ?');
    params.push(p.status);
  }
  if (p.track) {
    where.push('track = ?');
    params.push(p.track);
  }
  const rows = await db.all(
    SuggestionRow,
    `SELECT ${COLUMNS} FROM suggestions WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, suggestion_id DESC LIMIT ?`,
    [...params, p.limit],
  );
  return { items: rows.map(view) };
}

const alreadyDecided = (r: SuggestionRow) =>
  new MemoryError('ALREADY_DECIDED', `suggestion ${r.suggestion_id} was ${r.status} already`, {
    id: r.suggestion_id,
    status: r.status,
    decided_by: r.decided_by,
  });

/**
 * invariant: a suggestion is decided once, and an approval publishes it with its approver (test:
 * src/knowledge/suggestions.test.ts "invariant: approve publishes…", "invariant: a second decision is
 * refused…").
 */
export async function decideSuggestion(
  deps: TrackDeps,
  p: SuggestionsDecideParams,
): Promise<Suggestion & { added: boolean | null }> {
  const by = (await deps.redactor.redact(p.by)).text;
  const status = p.decision === 'approve' ? 'approved' : 'rejected';
  const now = deps.now();
  // Taken first, so that two decisions at once cannot both win.
  const taken = await deps.driver.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    const r = await getSuggestion(tx, p.owner, p.id);
    if (!r) throw new MemoryError('NOT_FOUND', `no suggestion ${p.id}`, { id: p.id });
    if (r.status !== 'pending') throw alreadyDecided(r);
    await tx.run(
      `UPDATE suggestions SET status = ?, decided_by = ?, decided_at = ? WHERE owner = ? AND suggestion_id = ?`,
      [status, by, now, p.owner, p.id],
    );
    return r;
  });
  if (status === 'rejected') {
    return { ...view({ ...taken, status, decided_by: by, decided_at: now }), added: null };
  }
  let outcome;
  try {
    outcome = await addTrackEntry(deps, {
      owner: p.owner,
      track: taken.track as Track,
      text: taken.text,
      project: taken.project ?? undefined,
      role: 'system',
      approval: { by, of: taken.suggestion_id },
      sources: JSON.parse(taken.source_refs) as string[],
    });
  } catch (error) {
    // Nothing was published: the suggestion waits again.
    await deps.driver.run(
      `UPDATE suggestions SET status = 'pending', decided_by = NULL, decided_at = NULL
      WHERE owner = ? AND suggestion_id = ?`,
      [p.owner, p.id],
    );
    throw error;
  }
  await deps.driver.run('UPDATE suggestions SET memory_id = ? WHERE owner = ? AND suggestion_id = ?', [
    outcome.id,
    p.owner,
    p.id,
  ]);
  const decided = await getSuggestion(deps.driver, p.owner, p.id);
  if (!decided) throw new Error('a suggestion just decided is missing');
  return { ...view(decided), added: outcome.added };
}
