// memory.snapshot: the bounded, deterministic context a host puts in its system prompt. USER, MEMORY, KEY
// (global entries and the project's), Project Context (recall on the project, model-free) and Recent Daily,
// each entry through the safety gate, rendered within the seed's caps; the write guard's notice after them.
import { createHash } from 'node:crypto';
import { MEMORY_KINDS } from '../observe/schema.js';
import type { RecallParams, RecallResult } from '../recall/schema.js';
import { trackEntries, type EntryRow, type Track } from '../knowledge/knowledge.js';
import { coreDoc } from '../organize/organize.js';
import type { Driver } from '../storage/driver.js';
import { estimateTokens } from '../text/tokens.js';
import { scoreSafety } from './safety.js';
import type { SafetyKind } from './safety-schema.js';
import { cwdName, projectOfCwd, type SnapshotProject } from './snapshot-project.js';
import { renderSnapshot, SNAPSHOT_SECTIONS, type SectionKey, type SnapshotEntry } from './snapshot-render.js';
import type { SnapshotParams, SnapshotResult } from './snapshot-schema.js';
import type { SnapshotStats } from './snapshot-stats.js';
import { backlogNotice, readGuard, showsBacklog } from './write-guard.js';

export interface SnapshotDeps {
  driver: Driver;
  now(): number;
  timeZone: string;
  /** Recall without any model (no embedding call): the Project Context query. */
  recall(params: RecallParams): Promise<RecallResult>;
  stats: SnapshotStats;
  /** MNEMO_WRITE_GUARD_THRESHOLD; null: the guard is off. */
  writeGuardThreshold: number | null;
}

/** Entries looked at beyond a section's entry cap: what `excluded` can report. */
const LOOK_AHEAD = 32;
/** Key entries read before the project filter. */
const KEY_ROWS = 200;
/** Recent Daily covers the two newest days that hold entries (of the service's time zone). */
const DAILY_DAYS = 2;
const cap = (key: SectionKey) => SNAPSHOT_SECTIONS.find((s) => s.key === key)?.entries ?? 0;

interface Candidate {
  id: string;
  kind: string;
  text: string;
  summary: string | null;
  /** The user's own words (a core document they keep): scored as such. */
  own?: boolean;
}

/** The safety gate on one entry: suppressed → excluded; quoted → passed as quoted data, without its summary. */
function gated(c: Candidate): SnapshotEntry {
  const kind = (MEMORY_KINDS as readonly string[]).includes(c.kind) ? (c.kind as SafetyKind) : 'note';
  const text = c.summary === null ? c.text : `${c.text}\n${c.summary}`;
  const verdict = scoreSafety({
    text,
    kind,
    role: kind === 'preference' || c.own === true ? 'user' : 'agent',
  });
  if (verdict.action === 'suppress') return { id: c.id, text: '', summary: null, excluded: 'unsafe' };
  if (verdict.action === 'quote') return { id: c.id, text: c.text, summary: null, quoted: true };
  return { id: c.id, text: c.text, summary: c.summary };
}

const fromRow = (r: EntryRow): Candidate => ({
  id: r.memory_id,
  kind: r.kind,
  text: r.text,
  summary: r.summary,
});

export async function buildSnapshot(deps: SnapshotDeps, p: SnapshotParams): Promise<SnapshotResult> {
  const db = deps.driver;
  const project = await projectOfCwd(db, p.owner, p.cwd);
  const rows = (track: Track, limit: number) =>
    trackEntries(db, p.owner, track, undefined, { includeArchived: false, limit });
  const [userRows, profile, memory, keyRows, dailyRows] = await Promise.all([
    rows('user', cap('user') + LOOK_AHEAD),
    coreDoc(db, p.owner, 'USER'),
    rows('memory', cap('memory') + LOOK_AHEAD),
    rows('key', KEY_ROWS),
    rows('daily', cap('recent_daily') + LOOK_AHEAD),
  ]);
  // KEY: the entries of no project, and those of the directory's project.
  const key = keyRows
    .filter((r) => r.project_id === null || r.project_id === project?.id)
    .slice(0, cap('key') + LOOK_AHEAD);
  const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: deps.timeZone });
  const days = [...new Set(dailyRows.map((r) => dayOf.format(r.at)))].slice(0, DAILY_DAYS);
  const daily = dailyRows
    .filter((r) => days.includes(dayOf.format(r.at)))
    .map((r) => ({ ...fromRow(r), text: `${dayOf.format(r.at)}: ${r.text}` }));
  // USER: the user's core document (USER.md) among the user track's entries, by when each last changed.
  const user = [
    ...userRows.map((r) => ({ at: r.at, c: fromRow(r) })),
    ...(profile && profile.text.trim() !== ''
      ? [
          {
            at: profile.updated_at,
            c: {
              id: `core:USER@${profile.revision}`,
              kind: 'note',
              text: profile.text,
              summary: null,
              own: true,
            },
          },
        ]
      : []),
  ]
    .sort((a, b) => b.at - a.at)
    .map((x) => x.c);
  const shown = new Set([...userRows, ...memory, ...key, ...dailyRows].map((r) => r.memory_id));
  const context = await projectContext(deps, p, project, shown);
  const notice = await guardNotice(deps, p);
  const rendered = renderSnapshot(
    {
      user: user.map(gated),
      memory: memory.map((r) => gated(fromRow(r))),
      key: key.map((r) => gated(fromRow(r))),
      project_context: context.map(gated),
      recent_daily: daily.map(gated),
    },
    notice,
  );
  deps.stats.record(p.owner, {
    total: rendered.bytes,
    sections: Object.fromEntries(rendered.sections.map((s) => [s.key, s.bytes])) as Record<
      SectionKey,
      number
    >,
  });
  return {
    text: rendered.text,
    bytes: rendered.bytes,
    tokens: estimateTokens(rendered.text),
    digest: createHash('sha256').update(rendered.text).digest('hex'),
    project: project ? { id: project.id, name: project.name } : null,
    backlog: notice !== null,
    sections: rendered.sections,
  };
}

/** Recall on the project's name (or the directory's own name), best first, without what other sections hold. */
async function projectContext(
  deps: SnapshotDeps,
  p: SnapshotParams,
  project: SnapshotProject | undefined,
  shown: ReadonlySet<string>,
): Promise<Candidate[]> {
  const query = project?.name ?? (p.cwd === undefined ? undefined : cwdName(p.cwd));
  if (query === undefined) return [];
  const found = await deps.recall({ owner: p.owner, query, limit: 12, kinds: [...MEMORY_KINDS] });
  return found.items
    .filter((i) => !shown.has(i.id))
    .slice(0, cap('project_context') + LOOK_AHEAD)
    .map((i) => ({ id: i.id, kind: i.kind, text: i.text, summary: null }));
}

async function guardNotice(deps: SnapshotDeps, p: SnapshotParams): Promise<string | null> {
  const threshold = deps.writeGuardThreshold;
  const session = p.session_id;
  if (threshold === null || session === undefined) return null;
  const state = await deps.driver.transaction((tx) => readGuard(tx, p.owner, session, deps.now()));
  return showsBacklog(state, threshold) ? backlogNotice(threshold) : null;
}
