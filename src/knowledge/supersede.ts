// Supersession by time, as a pure function over the versions of one fact key (owner, subject, predicate):
// no model decides. Walking them oldest first, a newer version closes the open ones (they get valid_to and
// become superseded); a newer version of lower origin rank stays open beside a higher-ranked one; versions
// of one rank in the same minute with no source in common form a conflict set, none current over the others,
// until a person resolves it.
import { originRank, type Lifecycle } from './lifecycle.js';

export interface Version {
  id: string;
  validFrom: number;
  /** As stored; for a retired version, when it retired. */
  validTo: number | null;
  origin: string | null;
  sources: readonly string[];
  /** As stored: retired stays retired (never revived automatically), revoked versions take no part. */
  lifecycle: string | null;
  status: string;
  conflictId: string | null;
  /** Whether its evidence (or a person) made it active. */
  promoted: boolean;
}

export interface Placement {
  lifecycle: Lifecycle;
  validTo: number | null;
  conflictId: string | null;
}

const MINUTE = 60_000;
const minute = (t: number): number => Math.floor(t / MINUTE);
const shareSource = (a: Version, b: Version): boolean => a.sources.some((s) => b.sources.includes(s));
const isRetired = (v: Version): boolean => v.lifecycle === 'retired';
const order = (a: Version, b: Version): number =>
  a.validFrom - b.validFrom || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Where each version stands. `resolutions` maps a conflict id to the version a person kept; `newConflictId`
 * names a conflict set none of whose versions has an id yet.
 */
export function placeVersions(
  versions: readonly Version[],
  resolutions: ReadonlyMap<string, string>,
  newConflictId: () => string,
): Map<string, Placement> {
  const placed = new Map<string, Placement>();
  const conflictOf = new Map<string, string>();
  let open: Version[] = [];
  let head: Version[] = [];
  // A retired version was valid until it retired, or until a newer one came if that was earlier.
  const close = (v: Version, validTo: number) =>
    placed.set(v.id, {
      lifecycle: isRetired(v) ? 'retired' : 'superseded',
      validTo: isRetired(v) ? Math.min(validTo, v.validTo ?? validTo) : validTo,
      conflictId: conflictOf.get(v.id) ?? null,
    });

  // A head of several versions is a conflict set unless they share sources (one statement, several values).
  const settleHead = () => {
    const conflicted = head.some((a, i) => head.some((b, j) => j > i && !shareSource(a, b)));
    if (!conflicted) return;
    const id =
      head.map((h) => conflictOf.get(h.id) ?? h.conflictId).find((c) => c !== null) ?? newConflictId();
    for (const h of head) conflictOf.set(h.id, id);
    const kept = head.find((h) => h.id === resolutions.get(id));
    if (!kept) return;
    const losers = head.filter((h) => h !== kept);
    for (const l of losers) close(l, Math.max(l.validFrom, kept.validFrom));
    open = open.filter((o) => !losers.includes(o));
    head = [kept];
  };

  for (const v of [...versions]
    .filter((x) => x.status !== 'revoked' && x.lifecycle !== 'revoked')
    .sort(order)) {
    const first = head[0];
    if (!first) {
      head = [v];
      open.push(v);
      continue;
    }
    const top = Math.max(...head.map((h) => originRank(h.origin)));
    const rank = originRank(v.origin);
    if (rank < top) {
      // invariant: a newer statement of lower origin rank never supersedes a user's (test:
      // src/knowledge/facts.test.ts "an agent's newer value does not supersede the user's").
      open.push(v);
      continue;
    }
    if (rank === top && minute(v.validFrom) === minute(first.validFrom)) {
      head.push(v);
      open.push(v);
      continue;
    }
    settleHead();
    for (const o of open) close(o, v.validFrom);
    open = [v];
    head = [v];
  }
  settleHead();
  for (const o of open) {
    placed.set(o.id, {
      lifecycle: isRetired(o) ? 'retired' : o.promoted ? 'active' : 'candidate',
      validTo: isRetired(o) ? o.validTo : null,
      conflictId: conflictOf.get(o.id) ?? null,
    });
  }
  return placed;
}
