// What memory.forget rewrites of the sessions' working memory (inject/working-memory.ts): a ring segment
// keeps index terms, id entities and a digest of what a host said, and a host says what it also stores, so
// the terms of a forgotten item stay in the rings after the item is gone. Each segment holding a term that
// only forgotten items had (no document of the owner holds it any more) loses it — with its `id:` entity —
// and gets a digest of what is left (its old one is of a text that quoted the forgotten item); a segment
// left with no term goes. A term still held elsewhere is no forgotten content and stays.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { segmentTerms } from '../inject/segment-terms.js';
import { indexOf } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { int, row, str } from '../storage/rows.js';

const SegmentRow = row({ session_id: str, context_cursor: int, kind: str, terms: str, entities: str });
const Strings = z.array(z.string());

/** Of these terms (the forgotten texts' that some ring holds), those no document of the owner holds now. */
async function goneTerms(tx: Queryable, owner: string, terms: ReadonlySet<string>): Promise<Set<string>> {
  const gone = new Set(terms);
  if (gone.size === 0) return gone;
  const index = indexOf(tx);
  const stats = await index.ownerStats(tx, owner);
  if (!stats || stats.docs <= 0) return gone;
  for (const s of await index.termStats(tx, stats, [...terms], 1)) if (s.df > 0) gone.delete(s.term);
  return gone;
}

/**
 * Inside the forget's transaction, after every row and index document of the forgotten items is deleted;
 * answers how many segments it rewrote or deleted.
 * invariant: after a forget no session's working memory holds a term or digest of a forgotten item's text
 * (the rings live in the store, so the forget's transaction is enough: no process keeps a copy) (test:
 * src/knowledge/forget-bytes.test.ts "takes forgotten words out of every session's working memory").
 */
export async function forgetFromRings(
  tx: Queryable,
  owner: string,
  texts: Iterable<string>,
): Promise<number> {
  const forgotten = new Set<string>();
  for (const text of texts) for (const t of segmentTerms(text)) forgotten.add(t);
  if (forgotten.size === 0) return 0;
  const segments = (
    await tx.all(
      SegmentRow,
      'SELECT session_id, context_cursor, kind, terms, entities FROM working_segments WHERE owner = ?',
      [owner],
    )
  ).map((s) => ({ ...s, terms: Strings.parse(JSON.parse(s.terms)) }));
  // Only the terms some ring holds are looked up in the index (a forget with events has many).
  const held = new Set(segments.flatMap((s) => s.terms).filter((t) => forgotten.has(t)));
  const gone = await goneTerms(tx, owner, held);
  if (gone.size === 0) return 0;
  let changed = 0;
  for (const s of segments) {
    const terms = s.terms;
    if (!terms.some((t) => gone.has(t))) continue;
    const left = terms.filter((t) => !gone.has(t));
    const key = [owner, s.session_id, s.context_cursor];
    changed++;
    if (left.length === 0) {
      await tx.run(
        'DELETE FROM working_segments WHERE owner = ? AND session_id = ? AND context_cursor = ?',
        key,
      );
      continue;
    }
    const entities = Strings.parse(JSON.parse(s.entities)).filter(
      (e) => !(e.startsWith('id:') && gone.has(e.slice(3))),
    );
    // Never equal to a segment's own digest (of a kind and a text): a restatement is not "repeated".
    const digest = createHash('sha256')
      .update(`forgotten\n${s.kind}\n${left.join(' ')}`)
      .digest('hex');
    await tx.run(
      `UPDATE working_segments SET terms = ?, entities = ?, digest = ?
        WHERE owner = ? AND session_id = ? AND context_cursor = ?`,
      [JSON.stringify(left), JSON.stringify(entities), digest, ...key],
    );
  }
  return changed;
}
