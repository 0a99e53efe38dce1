// memory.chain.browse: every object of an owner by stable id, archived ones included, a page at a time.
import type { Queryable } from '../storage/driver.js';
import type { ChainBrowseParams } from './chain-schema.js';
import { summariesOf, type ObjectSummary } from './object-view.js';
import { pageObjects } from './objects.js';

export async function browseObjects(
  db: Queryable,
  p: ChainBrowseParams,
): Promise<{ items: ObjectSummary[]; next_after: string | null }> {
  const rows = await pageObjects(db, p.owner, { after: p.after, limit: p.limit + 1, types: p.types });
  const page = rows.slice(0, p.limit);
  return {
    items: await summariesOf(db, p.owner, page),
    next_after: rows.length > p.limit ? (page.at(-1)?.object_id ?? null) : null,
  };
}
