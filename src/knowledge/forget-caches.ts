// What memory.forget deletes of the inject stage's stored answers: recall answers (pending results and the
// wait budget's cache, one table) that name a forgotten item, and inbox items that quote one or carry such
// an answer.
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
