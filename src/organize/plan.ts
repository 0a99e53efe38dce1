// What a job's next step is, read from the owner's timeline: merge the oldest nodes of a full level, else
// compact the oldest raw events outside the recent window, else (organize, deep) dispose of archive entries.
import type { Queryable } from '../storage/driver.js';
import { estimateTokens } from '../text/tokens.js';
import type { OrganizeOptions } from './options.js';
import type { ArchiveEntry, Piece, Step } from './schema-jobs.js';
import { eventIdsAt, eventsAfter, newestEvents, type TimelineEvent } from './store-events.js';
import type { JobRow } from './store-jobs.js';
import { activeNodes, getNodes, pendingArchive, type NodeRow } from './store-nodes.js';
import type { OwnerState } from './store-owners.js';

export const HEAD_CHARS = 1_200;

/** What a lease covers, stored with it: a commit applies to exactly these. */
export type StepItems =
  | { type: 'events'; first: number; last: number; count: number }
  | { type: 'nodes'; ids: string[]; level: number }
  | { type: 'entries'; ids: number[] };

export interface PlannedStep {
  step: Step;
  items: StepItems;
}

const iso = (ms: number) => new Date(ms).toISOString();
const head = (text: string) => ({
  text: text.slice(0, HEAD_CHARS),
  length: text.length,
  truncated: text.length > HEAD_CHARS,
});

export const eventPiece = (e: TimelineEvent): Piece => ({
  ref: `event:${e.event_id}`,
  type: 'event',
  id: e.event_id,
  at: iso(e.at),
  events: 1,
  kind: e.kind,
  role: e.role,
  session_id: e.session_id,
  ...head(e.text),
});

export const nodePiece = (n: NodeRow): Piece => ({
  ref: `node:${n.node_id}`,
  type: 'node',
  id: n.node_id,
  at: iso(n.first_at),
  last_at: iso(n.last_at),
  level: n.level,
  events: n.events,
  ...head(n.text),
});

/** The oldest nodes of the lowest level holding more than `nodesPerLevel` active nodes. */
export function overflowingLevel(nodes: readonly NodeRow[], nodesPerLevel: number, limit: number): NodeRow[] {
  const byLevel = new Map<number, NodeRow[]>();
  for (const n of nodes) byLevel.set(n.level, [...(byLevel.get(n.level) ?? []), n]);
  for (const level of [...byLevel.keys()].sort((a, b) => a - b)) {
    const list = byLevel.get(level) ?? [];
    if (list.length > nodesPerLevel) return list.slice(0, Math.min(limit, list.length));
  }
  return [];
}

/**
 * The last sequence compaction may take: the newest events worth `keepTokens` stay raw. Reads back from
 * the newest scanned event until the window is full.
 */
export async function compactableUpTo(db: Queryable, state: OwnerState, keepTokens: number): Promise<number> {
  let kept = 0;
  let before: number | undefined;
  for (;;) {
    const page = await newestEvents(db, state.owner, {
      after: state.covered_seq,
      upTo: state.scanned_seq,
      ...(before === undefined ? {} : { before }),
      limit: 100,
    });
    for (const e of page) {
      kept += estimateTokens(e.text);
      if (kept > keepTokens) return e.seq;
    }
    const last = page.at(-1);
    if (!last || page.length < 100) return state.covered_seq;
    before = last.seq;
  }
}

export async function planStep(
  db: Queryable,
  job: JobRow,
  state: OwnerState,
  options: OrganizeOptions,
): Promise<PlannedStep | null> {
  const limit = job.batch_limit;
  const merge = overflowingLevel(await activeNodes(db, job.owner), options.nodesPerLevel, limit);
  const maxChars = options.nodeMaxChars;
  if (merge.length > 0) {
    const level = Math.max(...merge.map((n) => n.level)) + 1;
    return {
      step: { type: 'compact', level, pieces: merge.map(nodePiece), max_chars: maxChars },
      items: { type: 'nodes', ids: merge.map((n) => n.node_id), level },
    };
  }
  const upTo = await compactableUpTo(db, state, job.keep_tokens ?? options.keepRecentTokens);
  if (upTo > state.covered_seq) {
    const events = await eventsAfter(db, job.owner, { after: state.covered_seq, upTo, limit });
    const first = events[0];
    const last = events.at(-1);
    if (first && last) {
      return {
        step: { type: 'compact', level: 1, pieces: events.map(eventPiece), max_chars: maxChars },
        items: { type: 'events', first: first.seq, last: last.seq, count: events.length },
      };
    }
  }
  if (job.kind === 'compact') return null;
  const entries = await pendingArchive(db, job.owner, limit);
  if (entries.length === 0) return null;
  return {
    step: {
      type: 'archive',
      entries: await describeEntries(db, job.owner, entries),
      actions: ['archive_only'],
    },
    items: { type: 'entries', ids: entries.map((e) => e.entry_id) },
  };
}

async function describeEntries(
  db: Queryable,
  owner: string,
  entries: ReadonlyArray<{ entry_id: number; node_id: string; first_seq: number; last_seq: number }>,
): Promise<ArchiveEntry[]> {
  const ids = await eventIdsAt(
    db,
    owner,
    entries.flatMap((e) => [e.first_seq, e.last_seq]),
  );
  const nodes = new Map(
    (
      await getNodes(
        db,
        owner,
        entries.map((e) => e.node_id),
      )
    ).map((n) => [n.node_id, n]),
  );
  return entries.map((e) => ({
    entry_id: e.entry_id,
    node_id: e.node_id,
    first_event_id: ids.get(e.first_seq) ?? '',
    last_event_id: ids.get(e.last_seq) ?? '',
    events: nodes.get(e.node_id)?.events ?? 0,
    summary: nodes.get(e.node_id)?.text ?? '',
  }));
}
