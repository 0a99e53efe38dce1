// Owns organize_owners: per owner, how far nodes cover the events, the raw events' token count (kept
// incrementally by scans), the timeline's version and when the triggers last fired.
import type { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import { estimateTokens } from '../text/tokens.js';

const OwnerRow = row({
  owner: str,
  covered_seq: int,
  scanned_seq: int,
  raw_tokens: int,
  raw_events: int,
  version: int,
  synced_at: nint,
  organize_queued_at: nint,
  deep_workday: nstr,
});
export type OwnerState = z.output<typeof OwnerRow>;
const COLUMNS =
  'owner, covered_seq, scanned_seq, raw_tokens, raw_events, version, synced_at, organize_queued_at, deep_workday';

const forUpdate = (db: Queryable): string => (db.dialect === 'postgres' ? ' FOR UPDATE' : '');

export async function ownerState(
  db: Queryable,
  owner: string,
  lock = false,
): Promise<OwnerState | undefined> {
  return db.one(
    OwnerRow,
    `SELECT ${COLUMNS} FROM organize_owners WHERE owner = ?${lock ? forUpdate(db) : ''}`,
    [owner],
  );
}

export async function ownerStates(db: Queryable, owner?: string): Promise<OwnerState[]> {
  return db.all(
    OwnerRow,
    `SELECT ${COLUMNS} FROM organize_owners ${owner === undefined ? '' : 'WHERE owner = ?'} ORDER BY owner`,
    owner === undefined ? [] : [owner],
  );
}

const LastRow = row({ owner: str, last_seq: int, events: int });

/** Owners with events not scanned yet (ingest's per-owner last sequence, never a cursor over all owners). */
export async function ownersToScan(db: Queryable, owner?: string): Promise<Array<{ owner: string }>> {
  return db.all(
    LastRow,
    `SELECT e.owner, e.last_seq, e.events FROM event_owners e LEFT JOIN organize_owners o ON o.owner = e.owner
      WHERE (o.owner IS NULL OR o.scanned_seq < e.last_seq) ${owner === undefined ? '' : 'AND e.owner = ?'}
      ORDER BY e.owner`,
    owner === undefined ? [] : [owner],
  );
}

const ScanRow = row({ seq: int, text: str });

/**
 * Adds the tokens of up to `limit` events after the scan cursor to the raw count; the owner counts as
 * synced once everything is scanned and the raw tokens are within the threshold. Returns whether the scan
 * reached the owner's last event.
 */
export async function scanOwner(
  tx: Queryable,
  owner: string,
  options: { limit: number; thresholdTokens: number; now: number },
): Promise<boolean> {
  await tx.run('INSERT INTO organize_owners (owner) VALUES (?) ON CONFLICT (owner) DO NOTHING', [owner]);
  const state = await ownerState(tx, owner, true);
  if (!state) return false;
  const rows = await tx.all(
    ScanRow,
    'SELECT seq, text FROM events WHERE owner = ? AND seq > ? ORDER BY seq LIMIT ?',
    [owner, state.scanned_seq, options.limit],
  );
  const last = rows.at(-1);
  const tokens = rows.reduce((sum, r) => sum + estimateTokens(r.text), 0);
  if (last) {
    await tx.run(
      `UPDATE organize_owners SET scanned_seq = ?, raw_tokens = raw_tokens + ?, raw_events = raw_events + ?
        WHERE owner = ?`,
      [last.seq, tokens, rows.length, owner],
    );
  }
  const complete = rows.length < options.limit;
  if (complete) await noteSynced(tx, owner, options.thresholdTokens, options.now);
  return complete;
}

/** The first sync is done once the raw tokens of a fully scanned owner are within the threshold. */
export async function noteSynced(tx: Queryable, owner: string, thresholdTokens: number, now: number) {
  await tx.run(
    `UPDATE organize_owners SET synced_at = ?
      WHERE owner = ? AND synced_at IS NULL AND raw_tokens <= ?
        AND scanned_seq >= (SELECT coalesce(max(last_seq), 0) FROM event_owners WHERE owner = ?)`,
    [now, owner, thresholdTokens, owner],
  );
}

/** After a level-1 node: its events are covered and leave the raw count; the timeline has a new version. */
export async function coverEvents(
  tx: Queryable,
  owner: string,
  covered: { lastSeq: number; tokens: number; events: number },
) {
  await tx.run(
    `UPDATE organize_owners SET covered_seq = ?, raw_tokens = raw_tokens - ?, raw_events = raw_events - ?,
            version = version + 1 WHERE owner = ?`,
    [covered.lastSeq, covered.tokens, covered.events, owner],
  );
}

export async function bumpVersion(tx: Queryable, owner: string) {
  await tx.run('UPDATE organize_owners SET version = version + 1 WHERE owner = ?', [owner]);
}

export async function noteOrganizeQueued(tx: Queryable, owner: string, now: number) {
  await tx.run('UPDATE organize_owners SET organize_queued_at = ? WHERE owner = ?', [now, owner]);
}

export async function noteDeepWorkday(tx: Queryable, owner: string, workday: string) {
  await tx.run('UPDATE organize_owners SET deep_workday = ? WHERE owner = ?', [workday, owner]);
}

const IngestedRow = row({ ingested_at: int, events: int, last_seq: int });

/** When the owner's newest event was stored, how many events it has, and its last sequence. */
export async function ownerActivity(
  db: Queryable,
  owner: string,
): Promise<{ ingested_at: number; events: number; last_seq: number } | undefined> {
  return db.one(
    IngestedRow,
    `SELECT e.ingested_at, o.events, o.last_seq FROM event_owners o JOIN events e ON e.seq = o.last_seq
      WHERE o.owner = ?`,
    [owner],
  );
}
