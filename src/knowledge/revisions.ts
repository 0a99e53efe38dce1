// Every version of an object: revision 1 when it is created, one row per change after that, never rewritten.
import type { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nstr, row, str } from '../storage/rows.js';
import type { ObjectRow } from './objects.js';

export const RevisionRowSchema = row({
  revision: int,
  name: str,
  body: str,
  aliases: str,
  status: str,
  attrs: nstr,
  changed_at: int,
});
export type RevisionRow = z.output<typeof RevisionRowSchema>;

/** Records the object as it is now, under its current revision number. */
export async function writeRevision(tx: Queryable, o: ObjectRow, aliases: readonly string[]): Promise<void> {
  await tx.run(
    `INSERT INTO object_revisions (owner, object_id, revision, name, body, aliases, status, attrs, changed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      o.owner,
      o.object_id,
      o.revision,
      o.name,
      o.body,
      JSON.stringify(aliases),
      o.status,
      o.attrs,
      o.updated_at,
    ],
  );
}

/** An object's revisions, oldest first. */
export async function revisionsOf(db: Queryable, owner: string, id: string): Promise<RevisionRow[]> {
  return db.all(
    RevisionRowSchema,
    `SELECT revision, name, body, aliases, status, attrs, changed_at FROM object_revisions
      WHERE owner = ? AND object_id = ? ORDER BY revision`,
    [owner, id],
  );
}
