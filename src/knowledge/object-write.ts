// Writing objects and relations with duplicates merged: the one path by which hosts, people and observation
// create or change objects. Runs inside the caller's transaction, which holds the owner's lock.
import { MemoryError } from '../errors.js';
import { indexDocuments } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { addAliases, aliasesOf, cleanAliases, objectsWithAlias } from './aliases.js';
import { normName } from './names.js';
import { objectIndexDoc, reindexObject } from './object-index.js';
import {
  addObjectSources,
  getObject,
  getObjects,
  insertObject,
  MAX_BODY,
  newObjectId,
  objectByName,
  updateObject,
  type ObjectRow,
  type ObjectSource,
  type ObjectStatus,
  type ObjectType,
} from './objects.js';
import { upsertRelation } from './relations.js';
import { writeRevision } from './revisions.js';

export interface ObjectInput {
  /** Change this object (NOT_FOUND when the owner has none such); without it, a duplicate is merged. */
  id?: string | undefined;
  /** How the relations of the same write name this object. */
  ref?: string | undefined;
  type: ObjectType;
  name: string;
  aliases: readonly string[];
  body?: string | undefined;
  status?: ObjectStatus | undefined;
  /** Type-specific attributes (a todo's track, due, …), merged key by key into the stored ones. */
  attrs?: Readonly<Record<string, unknown>> | undefined;
  /** Never merged into an object of the same name: the caller decides its duplicates (todos). */
  distinct?: boolean | undefined;
  sources: readonly ObjectSource[];
}

export interface RelationInput {
  from: string;
  to: string;
  type: string;
  sources: readonly string[];
}

export interface WriteOptions {
  now: number;
  /** What a given body does to an existing one: a host's or person's write replaces it, observation adds to it. */
  body: 'replace' | 'append';
  /** Where the inputs sit in the caller's params, for error paths (`objects`, `relations`). */
  paths?: { objects: string; relations: string };
}

export interface ObjectOutcome {
  id: string;
  revision: number;
  created: boolean;
  merged: boolean;
}

export interface WriteOutcome {
  objects: ObjectOutcome[];
  relations: Array<{ id: string; created: boolean }>;
}

const invalid = (path: string, message: string): MemoryError =>
  new MemoryError('INVALID_PARAMS', message, { issues: [{ path, message }] });

/** An existing object the input restates: same type and normalised name, or a name that is the other's alias. */
async function duplicateOf(tx: Queryable, owner: string, input: ObjectInput): Promise<ObjectRow | undefined> {
  const norm = normName(input.name);
  const byName = await objectByName(tx, owner, input.type, norm);
  if (byName) return byName;
  const aliased = await objectsWithAlias(tx, owner, [norm]);
  const candidates = (
    await getObjects(
      tx,
      owner,
      aliased.map((a) => a.object_id),
    )
  ).filter((o) => o.type === input.type);
  candidates.sort((a, b) => a.created_at - b.created_at || a.object_id.localeCompare(b.object_id));
  if (candidates[0]) return candidates[0];
  // The other way round: one of the new aliases is an existing object's name.
  for (const alias of input.aliases) {
    const found = await objectByName(tx, owner, input.type, normName(alias));
    if (found) return found;
  }
  return undefined;
}

function nextBody(old: string, given: string | undefined, mode: WriteOptions['body'], path: string): string {
  if (given === undefined || given === old) return old;
  if (mode === 'replace') {
    if (given.length > MAX_BODY) throw invalid(path, `a body holds at most ${MAX_BODY} characters`);
    return given;
  }
  if (old.includes(given)) return old;
  const joined = old === '' ? given : `${old}\n${given}`;
  // Observation adds what it saw; past the limit the oldest lines give way.
  if (joined.length <= MAX_BODY) return joined;
  const tail = joined.slice(joined.length - MAX_BODY);
  const cut = tail.indexOf('\n');
  return cut >= 0 ? tail.slice(cut + 1) : tail;
}

async function createObject(
  tx: Queryable,
  owner: string,
  input: ObjectInput,
  options: WriteOptions,
  path: string,
): Promise<ObjectOutcome> {
  const o: ObjectRow = {
    object_id: newObjectId(),
    owner,
    type: input.type,
    name: input.name,
    norm_name: normName(input.name),
    body: nextBody('', input.body, options.body, `${path}.body`),
    // invariant: a new project is a candidate until the user confirms it, unless the write says otherwise
    // (test: src/knowledge/chain.test.ts "a new project is a candidate…").
    status: input.status ?? (input.type === 'project' ? 'candidate' : 'active'),
    revision: 1,
    attrs: input.attrs ? JSON.stringify(input.attrs) : null,
    created_at: options.now,
    updated_at: options.now,
  };
  await insertObject(tx, o);
  await addAliases(tx, owner, o.object_id, cleanAliases(o.name, input.aliases));
  await addObjectSources(tx, owner, o.object_id, input.sources);
  const aliases = (await aliasesOf(tx, owner, [o.object_id])).get(o.object_id) ?? [];
  await writeRevision(tx, o, aliases);
  await indexDocuments(tx, [objectIndexDoc(o, aliases)]);
  return { id: o.object_id, revision: 1, created: true, merged: false };
}

/** The stored attributes with the given ones set (as JSON; the stored text itself when nothing changes). */
function mergeAttrs(stored: string | null, given: ObjectInput['attrs']): string | null {
  if (!given) return stored;
  const old = stored === null ? {} : (JSON.parse(stored) as Record<string, unknown>);
  const next = JSON.stringify({ ...old, ...given });
  return next === JSON.stringify(old) && stored !== null ? stored : next;
}

/**
 * Folds the input into an existing object: aliases and sources are added, a given body and status applied.
 * By id, the input's name becomes the name (the old one stays as an alias); merged, the existing name stays
 * and the input's becomes an alias. A change is a new revision and a new index document.
 */
async function updateInto(
  tx: Queryable,
  existing: ObjectRow,
  input: ObjectInput,
  options: WriteOptions,
  path: string,
  byId: boolean,
): Promise<ObjectOutcome> {
  const owner = existing.owner;
  const id = existing.object_id;
  const norm = normName(input.name);
  let name = existing.name;
  const extra: string[] = [];
  if (byId && norm !== existing.norm_name) {
    const holder = input.distinct ? undefined : await objectByName(tx, owner, existing.type, norm);
    if (holder)
      throw invalid(`${path}.name`, `another ${existing.type} is named ${input.name}: ${holder.object_id}`);
    extra.push(existing.name);
    name = input.name;
  } else if (byId) name = input.name;
  else if (norm !== existing.norm_name) extra.push(input.name);
  let changed = name !== existing.name;
  // A former alias that is now the name is no alias any more.
  const { changes } = await tx.run(
    'DELETE FROM object_aliases WHERE owner = ? AND object_id = ? AND norm_alias = ?',
    [owner, id, normName(name)],
  );
  if (changes > 0) changed = true;
  const added = await addAliases(tx, owner, id, cleanAliases(name, [...extra, ...input.aliases]));
  const body = nextBody(existing.body, input.body, options.body, `${path}.body`);
  const status = input.status ?? existing.status;
  const attrs = mergeAttrs(existing.attrs, input.attrs);
  changed ||=
    added.length > 0 || body !== existing.body || status !== existing.status || attrs !== existing.attrs;
  await addObjectSources(tx, owner, id, input.sources);
  if (!changed) return { id, revision: existing.revision, created: false, merged: !byId };
  const o: ObjectRow = {
    ...existing,
    name,
    norm_name: normName(name),
    body,
    status,
    attrs,
    revision: existing.revision + 1,
    updated_at: options.now,
  };
  await updateObject(tx, o);
  const aliases = (await aliasesOf(tx, owner, [id])).get(id) ?? [];
  await writeRevision(tx, o, aliases);
  await reindexObject(tx, o, aliases);
  return { id, revision: o.revision, created: false, merged: !byId };
}

/**
 * Writes objects in order (a later one may merge into an earlier one), then relations between them.
 * invariant: an object restating an existing one (same type and normalised name, or its name an alias of
 * the other) is merged into it, never stored twice, unless its writer says it is distinct (a todo) (test:
 * src/knowledge/chain.test.ts "merges duplicates…").
 */
export async function writeObjects(
  tx: Queryable,
  owner: string,
  objects: readonly ObjectInput[],
  relations: readonly RelationInput[],
  options: WriteOptions,
): Promise<WriteOutcome> {
  const paths = options.paths ?? { objects: 'objects', relations: 'relations' };
  const refs = new Map<string, string>();
  const outcomes: ObjectOutcome[] = [];
  for (const [i, input] of objects.entries()) {
    const path = `${paths.objects}.${i}`;
    if (normName(input.name) === '') throw invalid(`${path}.name`, 'a name needs a letter or a digit');
    let outcome: ObjectOutcome;
    if (input.id !== undefined) {
      const existing = await getObject(tx, owner, input.id);
      if (!existing)
        throw new MemoryError('NOT_FOUND', `no object ${input.id} for this owner`, { id: input.id });
      if (existing.type !== input.type) {
        throw invalid(`${path}.type`, `object ${input.id} is a ${existing.type}; an object keeps its type`);
      }
      outcome = await updateInto(tx, existing, input, options, path, true);
    } else {
      const existing = input.distinct ? undefined : await duplicateOf(tx, owner, input);
      outcome = existing
        ? await updateInto(tx, existing, input, options, path, false)
        : await createObject(tx, owner, input, options, path);
    }
    if (input.ref !== undefined) refs.set(input.ref, outcome.id);
    outcomes.push(outcome);
  }
  const written: WriteOutcome['relations'] = [];
  for (const [i, r] of relations.entries()) {
    const path = `${paths.relations}.${i}`;
    const ends: string[] = [];
    for (const end of ['from', 'to'] as const) {
      const id = refs.get(r[end]) ?? r[end];
      if (!(await getObject(tx, owner, id))) {
        throw invalid(
          `${path}.${end}`,
          `${r[end]} is neither a ref of this write nor an object of this owner`,
        );
      }
      ends.push(id);
    }
    const [from = '', to = ''] = ends;
    if (from === to) throw invalid(path, 'a relation links two different objects');
    written.push(
      await upsertRelation(tx, owner, { from, to, type: r.type, sources: r.sources }, options.now),
    );
  }
  return { objects: outcomes, relations: written };
}
