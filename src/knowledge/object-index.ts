// Objects as search documents of kind `object`: name, aliases and body, so recall and chain.find reach them
// (and, with the vector channel on, their vectors: embedded from the same text).
import { embedAgain } from '../embed/store.js';
import { indexDocuments, type IndexDoc } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { tokenize } from '../text/tokenize.js';
import { aliasesOf } from './aliases.js';
import { dropDocs } from './forget-docs.js';
import { getObject, getObjects, type ObjectRow } from './objects.js';
import { isRevokedObject } from './revoke-object.js';

export const OBJECT_DOC_KIND = 'object';

/** What an object's document says: its name, aliases and body (as stored, so redacted). */
const objectText = (o: ObjectRow, aliases: readonly string[]): string =>
  [o.name, ...aliases, o.body].join('\n');

export function objectIndexDoc(o: ObjectRow, aliases: readonly string[]): IndexDoc {
  return {
    owner: o.owner,
    kind: OBJECT_DOC_KIND,
    ref: o.object_id,
    at: o.updated_at,
    sessionId: null,
    taskId: null,
    body: tokenize(objectText(o, aliases)),
  };
}

/**
 * Replaces the object's document (and its vector) with one of its current name, aliases and body. The
 * caller's transaction holds the owner's lock (documents of one owner are written in order).
 * invariant: an object's old names leave the vector channel with its old document (test:
 * src/knowledge/object-vectors.test.ts).
 */
export async function reindexObject(tx: Queryable, o: ObjectRow, aliases: readonly string[]): Promise<void> {
  await dropDocs(tx, o.owner, 'object', [o.object_id], { index: 0, reindexed: 0, vectors: 0 });
  // A restatement merged into a revoked object: it stays out of the index.
  if (await isRevokedObject(tx, o.owner, o.object_id)) return;
  await indexDocuments(tx, [objectIndexDoc(o, aliases)]);
  await embedAgain(tx, o.owner, OBJECT_DOC_KIND, o.object_id);
}

/** The text each object's vector is made of, by id (the embedding worker); objects gone are left out. */
export async function objectTexts(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const objects = await getObjects(db, owner, ids);
  const aliases = await aliasesOf(
    db,
    owner,
    objects.map((o) => o.object_id),
  );
  return new Map(objects.map((o) => [o.object_id, objectText(o, aliases.get(o.object_id) ?? [])]));
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
