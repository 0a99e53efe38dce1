// Objects as search documents of kind `object`: name, aliases and body, so recall and chain.find reach them.
import { indexDocuments, removeDocument, type IndexDoc } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { tokenize } from '../text/tokenize.js';
import { aliasesOf } from './aliases.js';
import { getObject, type ObjectRow } from './objects.js';
import { isRevokedObject } from './revoke-object.js';

export const OBJECT_DOC_KIND = 'object';

export function objectIndexDoc(o: ObjectRow, aliases: readonly string[]): IndexDoc {
  return {
    owner: o.owner,
    kind: OBJECT_DOC_KIND,
    ref: o.object_id,
    at: o.updated_at,
    sessionId: null,
    taskId: null,
    body: tokenize([o.name, ...aliases, o.body].join('\n')),
  };
}

/**
 * Replaces the object's document with one of its current name, aliases and body. The caller's transaction
 * holds the owner's lock (documents of one owner are written in order).
 */
export async function reindexObject(tx: Queryable, o: ObjectRow, aliases: readonly string[]): Promise<void> {
  await removeDocument(tx, o.owner, OBJECT_DOC_KIND, o.object_id);
  // A restatement merged into a revoked object: it stays out of the index.
  if (await isRevokedObject(tx, o.owner, o.object_id)) return;
  await indexDocuments(tx, [objectIndexDoc(o, aliases)]);
}

/** The document of a stored object, for a rebuild of the index; undefined when the object is gone. */
export async function storedObjectDoc(
  db: Queryable,
  owner: string,
  id: string,
): Promise<IndexDoc | undefined> {
  const o = await getObject(db, owner, id);
  if (!o) return undefined;
  return objectIndexDoc(o, (await aliasesOf(db, owner, [id])).get(id) ?? []);
}
