// What memory.forget deletes of the inject stage's stored answers: recall answers (pending results and the
// wait budget's cache, one table) that name a forgotten item, and inbox items that quote one or carry such
// an answer; and the requests whose search still runs, which may have read what is being forgotten.
import type { Queryable } from '../storage/driver.js';
import { row, str } from '../storage/rows.js';
import { chunksOf, containsSql } from './forget-docs.js';
import { inList } from './objects.js';

const IdRow = row({ id: str });

/** Texts shorter than this are not looked for in inbox items (a short text is in many). */
const MIN_QUOTE = 8;

export async function dropCachedAnswers(
  tx: Queryable,
  owner: string,
  ids: readonly string[],
  texts: readonly string[],
): Promise<{ answers: number; inbox: number }> {
  const requests = new Set<string>();
  for (const id of ids) {
    // An answer is JSON: every id in it is a JSON string.
    const rows = await tx.all(
      IdRow,
      `SELECT request_id AS id FROM recall_requests WHERE owner = ? AND ${containsSql(tx, 'result')}`,
      [owner, JSON.stringify(id)],
    );
    for (const r of rows) requests.add(r.id);
  }
  let inbox = 0;
  for (const part of chunksOf([...requests])) {
    inbox += (
      await tx.run(`DELETE FROM inbox_items WHERE owner = ? AND request_id IN ${inList(part)}`, [
        owner,
        ...part,
      ])
    ).changes;
    await tx.run(`DELETE FROM recall_requests WHERE owner = ? AND request_id IN ${inList(part)}`, [
      owner,
      ...part,
    ]);
  }
  for (const text of texts) {
    const quote = text.trim();
    if ([...quote].length < MIN_QUOTE) continue;
    inbox += (
      await tx.run(`DELETE FROM inbox_items WHERE owner = ? AND ${containsSql(tx, 'text')}`, [owner, quote])
    ).changes;
  }
  return { answers: requests.size, inbox };
}

/**
 * Fails the owner's requests still pending (`forgotten`): their search, running in some process, may have
 * read a forgotten item before this transaction, and a failed request takes no late answer (settle.ts).
 * invariant: no answer of a search that ran across a forget is stored (test:
 * src/knowledge/forget-bytes.test.ts "a search running across a forget…").
 */
export async function failPendingRequests(tx: Queryable, owner: string, now: number): Promise<number> {
  const error = JSON.stringify({
    code: 'forgotten',
    message: 'memory.forget ran during the search; ask again',
  });
  const { changes } = await tx.run(
    `UPDATE recall_requests SET status = 'failed', error = ?, finished_at = ? WHERE owner = ? AND status = 'pending'`,
    [error, now, owner],
  );
  return changes;
}
