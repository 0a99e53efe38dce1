// Recall's items as packet candidates: each read again from the owner's store at build time (its lifecycle
// now, its source events' sequences and roles), so what changed since the search is seen.
import type { EVENT_ROLES } from '../ingest/schema.js';
import { assessRisk } from '../knowledge/risk.js';
import { bodyOf } from '../knowledge/skill-store.js';
import type { RecallItem } from '../recall/schema.js';
import type { Queryable } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import type { SafetyKind } from './safety-schema.js';
import { SAFETY_KINDS } from './safety-schema.js';

export type CandidateState = 'live' | 'revoked' | 'superseded' | 'expired' | 'missing';

export interface Candidate {
  id: string;
  kind: string;
  text: string;
  score: number;
  /** Share of the query the text holds (recall's `match`), when recall measured it. */
  match: number | undefined;
  at: string;
  /** `missing`: not the owner's (another owner's, or gone). */
  state: CandidateState;
  sources: string[];
  sourceSeqs: number[];
  /** What the safety scorer is told: the kind and who wrote it. */
  safetyKind: SafetyKind;
  role: (typeof EVENT_ROLES)[number];
  /** A procedure that deletes, deploys, sends, pays or opens a remote shell. */
  highRisk: boolean;
}

const EventRow = row({ event_id: str, seq: int, kind: str, role: str });
const MemoryRow = row({
  memory_id: str,
  kind: str,
  status: str,
  lifecycle: nstr,
  valid_to: nint,
  procedure: nstr,
});
const SourceRow = row({ memory_id: str, event_id: str, seq: int, kind: str, role: str });
const CitingRow = row({ event_id: str, status: str, lifecycle: nstr, valid_to: nint });

const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');
const safetyKind = (kind: string): SafetyKind => SAFETY_KINDS.find((k) => k === kind) ?? 'note';
type Role = Candidate['role'];
const roleOf = (role: string): Role =>
  role === 'user' || role === 'tool' || role === 'system' ? role : 'agent';

/** A memory is as trusted as its least trusted source: any tool source makes it tool text. */
function memoryRole(sources: ReadonlyArray<{ kind: string; role: string }>): Role {
  if (sources.some((s) => s.role === 'tool' || s.kind === 'tool_result')) return 'tool';
  if (sources.length > 0 && sources.every((s) => s.role === 'user')) return 'user';
  return 'agent';
}

type Lifecycle = { status: string; lifecycle: string | null; valid_to: number | null };

function stateOf(m: Lifecycle, now: number): CandidateState {
  const state = m.lifecycle ?? m.status;
  if (state === 'revoked') return 'revoked';
  if (state === 'superseded' || state === 'deprecated') return 'superseded';
  if (state === 'retired' || (m.valid_to !== null && m.valid_to <= now)) return 'expired';
  return 'live';
}

/**
 * An event as current as what was made of it: live unless every memory citing it was revoked, superseded
 * or retired (the event of a withdrawn fact would restate it).
 */
function eventState(citing: readonly Lifecycle[], now: number): CandidateState {
  const states = citing.map((m) => stateOf(m, now));
  if (states.length === 0 || states.includes('live')) return 'live';
  for (const s of ['revoked', 'superseded', 'expired'] as const) if (states.includes(s)) return s;
  return 'live';
}

export async function readCandidates(
  db: Queryable,
  owner: string,
  items: readonly RecallItem[],
  now: number,
): Promise<Candidate[]> {
  const eventIds = items.filter((i) => i.kind === 'event').map((i) => i.id);
  const memoryIds = items.filter((i) => i.kind !== 'event').map((i) => i.id);
  const events = eventIds.length
    ? await db.all(
        EventRow,
        `SELECT event_id, seq, kind, role FROM events WHERE owner = ? AND event_id IN (${marks(eventIds.length)})`,
        [owner, ...eventIds],
      )
    : [];
  const citing = eventIds.length
    ? await db.all(
        CitingRow,
        `SELECT s.event_id, m.status, m.lifecycle, m.valid_to FROM memory_sources s
           JOIN memories m ON m.owner = s.owner AND m.memory_id = s.memory_id
          WHERE s.owner = ? AND s.event_id IN (${marks(eventIds.length)})`,
        [owner, ...eventIds],
      )
    : [];
  const memories = memoryIds.length
    ? await db.all(
        MemoryRow,
        `SELECT memory_id, kind, status, lifecycle, valid_to, procedure FROM memories
          WHERE owner = ? AND memory_id IN (${marks(memoryIds.length)})`,
        [owner, ...memoryIds],
      )
    : [];
  const sources = memoryIds.length
    ? await db.all(
        SourceRow,
        `SELECT s.memory_id, s.event_id, e.seq, e.kind, e.role FROM memory_sources s
           JOIN events e ON e.owner = s.owner AND e.event_id = s.event_id
          WHERE s.owner = ? AND s.memory_id IN (${marks(memoryIds.length)}) ORDER BY s.memory_id, s.position`,
        [owner, ...memoryIds],
      )
    : [];
  const eventById = new Map(events.map((e) => [e.event_id, e]));
  const memoryById = new Map(memories.map((m) => [m.memory_id, m]));
  return items.map((item): Candidate => {
    const base = {
      id: item.id,
      kind: item.kind,
      text: item.text,
      score: item.score,
      match: item.match,
      at: item.at,
      highRisk: false,
    };
    if (item.kind === 'event') {
      const e = eventById.get(item.id);
      if (!e)
        return { ...base, state: 'missing', sources: [], sourceSeqs: [], safetyKind: 'note', role: 'tool' };
      const kind = safetyKind(e.kind);
      const cited = citing.filter((c) => c.event_id === e.event_id);
      return {
        ...base,
        state: eventState(cited, now),
        sources: [e.event_id],
        sourceSeqs: [e.seq],
        safetyKind: kind,
        role: roleOf(e.role),
      };
    }
    const m = memoryById.get(item.id);
    if (!m)
      return { ...base, state: 'missing', sources: [], sourceSeqs: [], safetyKind: 'note', role: 'tool' };
    const mine = sources.filter((s) => s.memory_id === m.memory_id);
    const highRisk = m.kind === 'procedure' && assessRisk({ text: item.text, ...bodyOf(m) }).risk === 'high';
    return {
      ...base,
      kind: m.kind,
      highRisk,
      state: stateOf(m, now),
      sources: mine.map((s) => s.event_id),
      sourceSeqs: mine.map((s) => s.seq),
      safetyKind: safetyKind(m.kind),
      role: memoryRole(mine),
    };
  });
}
