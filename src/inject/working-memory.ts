// The working memory of a session: a ring of its last segments (32 by default) that lives 15 minutes, kept
// as index terms and entity keys of the redacted text, never the text. What the gate compares a segment to.
import { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nint, row, str } from '../storage/rows.js';

export interface Segment {
  kind: string;
  ok: boolean | null;
  /** sha256 of the kind and the redacted text's normal form. */
  digest: string;
  /** Distinct index terms (stop words left out) of the redacted text. */
  terms: string[];
  /** `obj:<id>` for the objects it names (by name or alias), `id:<term>` for id-like terms. */
  entities: string[];
}

export interface RingSegment extends Segment {
  cursor: number;
  at: number;
}

const Strings = z.array(z.string());
const SegmentRow = row({
  context_cursor: int,
  kind: str,
  ok: nint,
  digest: str,
  terms: str,
  entities: str,
  at: int,
});

/**
 * The session's segments still in the ring at `now`, oldest first.
 * invariant: a session's state is keyed by (owner, session) in the store, never by the process: what one
 * session pushed is in no other's ring, signals or inbox (test: src/inject/session.test.ts "leaks nothing…").
 */
export async function readRing(
  db: Queryable,
  owner: string,
  sessionId: string,
  now: number,
  limits: { ringSize: number; segmentTtlMs: number },
): Promise<RingSegment[]> {
  const rows = await db.all(
    SegmentRow,
    `SELECT context_cursor, kind, ok, digest, terms, entities, at FROM working_segments
      WHERE owner = ? AND session_id = ? AND at > ? ORDER BY context_cursor DESC LIMIT ?`,
    [owner, sessionId, now - limits.segmentTtlMs, limits.ringSize],
  );
  return rows.reverse().map((r) => ({
    cursor: r.context_cursor,
    kind: r.kind,
    ok: r.ok === null ? null : r.ok === 1,
    digest: r.digest,
    terms: Strings.parse(JSON.parse(r.terms)),
    entities: Strings.parse(JSON.parse(r.entities)),
    at: r.at,
  }));
}

/** Adds a segment at `cursor` and drops what fell out of the ring: beyond its size, or past its time. */
export async function pushSegment(
  tx: Queryable,
  owner: string,
  sessionId: string,
  segment: Segment,
  cursor: number,
  now: number,
  limits: { ringSize: number; segmentTtlMs: number },
): Promise<void> {
  await tx.run(
    `INSERT INTO working_segments (owner, session_id, context_cursor, kind, ok, digest, terms, entities, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      owner,
      sessionId,
      cursor,
      segment.kind,
      segment.ok === null ? null : Number(segment.ok),
      segment.digest,
      JSON.stringify(segment.terms),
      JSON.stringify(segment.entities),
      now,
    ],
  );
  await tx.run(
    `DELETE FROM working_segments WHERE owner = ? AND session_id = ? AND (context_cursor <= ? OR at <= ?)`,
    [owner, sessionId, cursor - limits.ringSize, now - limits.segmentTtlMs],
  );
}

const PHASES: Readonly<Record<string, string>> = {
  task_started: 'start',
  tool_result: 'act',
  task_blocked: 'wait',
  needs_input: 'wait',
  task_result: 'end',
  task_failed: 'end',
};

/** A task's phase as a segment kind shows it; other kinds (messages, notes) have none. */
export const phaseOf = (kind: string): string | undefined => PHASES[kind];

/** The ring's signals for a segment: novelty, entities it does not hold, and a change of task phase. */
export function ringSignals(ring: readonly RingSegment[], segment: Segment) {
  const seen = new Set(ring.flatMap((s) => s.terms));
  const repeated = ring.some((s) => s.digest === segment.digest);
  const fresh = segment.terms.filter((t) => !seen.has(t)).length;
  const novelty = repeated || segment.terms.length === 0 ? 0 : fresh / segment.terms.length;
  const known = new Set(ring.flatMap((s) => s.entities));
  const unresolved = segment.entities.filter((e) => !known.has(e));
  const phase = phaseOf(segment.kind);
  const before = [...ring].reverse().find((s) => phaseOf(s.kind) !== undefined);
  const phaseChange = phase !== undefined && phase !== (before ? phaseOf(before.kind) : undefined);
  return { novelty: Number(novelty.toFixed(4)), unresolved, phaseChange };
}
