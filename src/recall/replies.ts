// Replies: a turn that asks a question is answered by the next turn of its session. When a best hit asks
// ("How long have you had them?"), the reply after it holds the answer, often without the question's words.
import { getEventsByIds } from '../ingest/store.js';
import type { Bm25Hit, DocFilters } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { estimateTokens } from '../text/tokens.js';
import { findNeighbours } from './neighbours.js';

export interface ReplyOptions {
  /** Best BM25 hits whose replies are looked for. */
  pool: number;
  /** A reply's score as a share of its question's (unless it scores more itself). */
  share: number;
  /** Shorter replies ("yes", "交。") confirm rather than answer: they are not lifted. */
  minTokens: number;
}

export const REPLIES: ReplyOptions = { pool: 10, share: 1, minTokens: 10 };

// A question mark ends the text (closing quotes, brackets and emoji aside), or a Chinese question particle does.
const ENDS_ASKING =
  /(?:[?？]|[吗呢么][。.!！~～]*)(?:[\s"'”’)）\]】\p{Extended_Pictographic}]|\u200d|\ufe0f)*$/u;

/** Whether a turn asks something of the one it speaks to: its last sentence is a question. */
export const asksQuestion = (text: string): boolean => ENDS_ASKING.test(text.trim());

export interface Lifted {
  /** The hits with the replies in, re-ordered. */
  hits: Bm25Hit[];
  /** The lifted replies, in the order of the questions they answer. */
  replies: number[];
}

/**
 * Each of the best `pool` hits that asks a question lifts the next event of its session (a reply of at
 * least `minTokens`) to `share` of its own score, unless the reply scores more already.
 */
export async function liftReplies(
  db: Queryable,
  hits: readonly Bm25Hit[],
  filters: DocFilters,
  options: ReplyOptions = REPLIES,
): Promise<Lifted> {
  const best = hits.slice(0, options.pool).filter((h) => h.kind === 'event' && h.sessionId !== null);
  if (options.share <= 0 || best.length === 0) return { hits: [...hits], replies: [] };
  const asked = await textsOf(
    db,
    filters.owner,
    best.map((h) => h.ref),
  );
  const pairs: { question: Bm25Hit; reply: Bm25Hit }[] = [];
  for (const question of best) {
    if (!asksQuestion(asked.get(question.ref) ?? '')) continue;
    const [next] = await findNeighbours(db, [question], filters, { after: 1, before: 0 });
    if (!next || pairs.some((p) => p.reply.docId === next.docId)) continue;
    pairs.push({ question, reply: { ...next, sessionId: question.sessionId, role: null } });
  }
  const said = await textsOf(
    db,
    filters.owner,
    pairs.map((p) => p.reply.ref),
  );
  const byId = new Map(hits.map((h) => [h.docId, h]));
  const replies: number[] = [];
  for (const { question, reply } of pairs) {
    // Its opening is enough to tell a reply from a one-word confirmation.
    if (estimateTokens((said.get(reply.ref) ?? '').slice(0, 4 * options.minTokens)) < options.minTokens)
      continue;
    replies.push(reply.docId);
    const score = options.share * question.score;
    const own = byId.get(reply.docId);
    if (!own || own.score < score) byId.set(reply.docId, { ...(own ?? reply), score });
  }
  // Stable: a reply level with its question stays below it.
  return { hits: [...byId.values()].sort((a, b) => b.score - a.score), replies };
}

async function textsOf(db: Queryable, owner: string, refs: readonly string[]): Promise<Map<string, string>> {
  return new Map((await getEventsByIds(db, owner, refs)).map((e) => [e.event_id, e.text]));
}
