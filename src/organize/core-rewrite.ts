// The core documents' files written again from the database (`mnemo projection rebuild`): the stored text
// at its revision, whatever the file holds; an edit not yet picked up is overwritten.
import type { Queryable } from '../storage/driver.js';
import { row, str } from '../storage/rows.js';
import { createCoreFiles } from './core-files.js';
import { coreDocs } from './store-core.js';

const OwnerRow = row({ owner: str });

/** Rewrites every core file of `owner` (or of every owner); answers how many. */
export async function rewriteCoreFiles(db: Queryable, dataDir: string, owner?: string): Promise<number> {
  const files = createCoreFiles(dataDir);
  const owners =
    owner !== undefined
      ? [owner]
      : (await db.all(OwnerRow, 'SELECT DISTINCT owner FROM core_docs ORDER BY owner')).map((r) => r.owner);
  let written = 0;
  for (const who of owners) {
    const docs = await coreDocs(db, who);
    await files.exclusive(who, async () => {
      for (const d of docs) files.write(who, d.doc, d.revision, d.text);
    });
    written += docs.length;
  }
  return written;
}
