// Objects as the chain methods show them.
import type { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { aliasesOf } from './aliases.js';
import type { ObjectSummarySchema } from './chain-schema.js';
import type { ObjectRow } from './objects.js';

export type ObjectSummary = z.input<typeof ObjectSummarySchema>;

export const iso = (t: number): string => new Date(t).toISOString();

export const summaryOf = (o: ObjectRow, aliases: readonly string[]): ObjectSummary => ({
  id: o.object_id,
  type: o.type,
  name: o.name,
  aliases: [...aliases],
  status: o.status,
  revision: o.revision,
  updated_at: iso(o.updated_at),
});

/** Summaries of these objects of one owner, in the order given. */
export async function summariesOf(
  db: Queryable,
  owner: string,
  rows: readonly ObjectRow[],
): Promise<ObjectSummary[]> {
  const aliases = await aliasesOf(
    db,
    owner,
    rows.map((o) => o.object_id),
  );
  return rows.map((o) => summaryOf(o, aliases.get(o.object_id) ?? []));
}
