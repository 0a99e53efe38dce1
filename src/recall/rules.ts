// Standing rules: a question about how something should be done ("座位应该怎么挑", "what should I order") is
// answered by a standing instruction ("以后高铁都给我选靠窗", "from now on book aisle seats"), so hits that state
// one weigh more for such a question.
import { getEventsByIds } from '../ingest/store.js';
import type { Bm25Hit } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';

const ASKS_RULE =
  /应该|该怎么|怎么挑|怎么选|怎么处理|要注意|注意什么|什么要求|啥要求|不要给我|别给我|偏好|习惯|规矩|规则|默认|\bshould\b|\bprefer|\bsupposed to\b|\busually\b|\bhabit|\brules?\b/u;
const STATES_RULE =
  /以后|今后|往后|记住|别再|不要再|一律|默认|每次都|规矩|\bfrom now on\b|\bgoing forward\b|\balways\b|\bnever\b|\bremember\b|\bby default\b/iu;

export const asksForRule = (query: string): boolean => ASKS_RULE.test(query.normalize('NFKC').toLowerCase());
export const statesRule = (text: string): boolean => STATES_RULE.test(text.normalize('NFKC'));

/** Multiplies the score of the event hits that state a standing rule; returns the hits in their new order. */
export async function boostRules(
  db: Queryable,
  owner: string,
  hits: readonly Bm25Hit[],
  factor: number,
): Promise<Bm25Hit[]> {
  if (factor === 1 || hits.length === 0) return [...hits];
  const events = await getEventsByIds(
    db,
    owner,
    hits.filter((h) => h.kind === 'event').map((h) => h.ref),
  );
  const rules = new Set(events.filter((e) => statesRule(e.text)).map((e) => e.event_id));
  return hits
    .map((h) => (h.kind === 'event' && rules.has(h.ref) ? { ...h, score: h.score * factor } : h))
    .sort((a, b) => b.score - a.score);
}
