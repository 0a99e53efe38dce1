// A project named by a track entry or a todo: an object id of a project, or a name or alias of one; a write
// naming an unknown project creates it (a candidate until the user confirms it, as every new project).
import { MemoryError } from '../errors.js';
import type { Queryable } from '../storage/driver.js';
import { aliasesOf, objectsWithAlias } from './aliases.js';
import { normName } from './names.js';
import { writeObjects } from './object-write.js';
import { getObject, getObjects, objectByName, type ObjectRow } from './objects.js';
import type { ProjectScope } from './track-view.js';

const invalid = (path: string, message: string) =>
  new MemoryError('INVALID_PARAMS', message, { issues: [{ path, message }] });

/** The project `ref` names, if the owner has it. */
async function findProject(db: Queryable, owner: string, ref: string): Promise<ObjectRow | undefined> {
  const byId = await getObject(db, owner, ref);
  if (byId) {
    if (byId.type !== 'project') throw invalid('project', `${ref} is a ${byId.type}, not a project`);
    return byId;
  }
  const norm = normName(ref);
  const named = await objectByName(db, owner, 'project', norm);
  if (named) return named;
  const aliased = await objectsWithAlias(db, owner, [norm]);
  const projects = await getObjects(
    db,
    owner,
    aliased.map((a) => a.object_id),
  );
  return projects.filter((o) => o.type === 'project').sort((a, b) => a.created_at - b.created_at)[0];
}

async function scopeOf(db: Queryable, o: ObjectRow): Promise<ProjectScope & { name: string }> {
  const aliases = (await aliasesOf(db, o.owner, [o.object_id])).get(o.object_id) ?? [];
  return { id: o.object_id, name: o.name, norms: [...new Set([o.norm_name, ...aliases.map(normName)])] };
}

/** The scope of a read: undefined when the owner has no such project. */
export async function projectScope(
  db: Queryable,
  owner: string,
  ref: string | undefined,
): Promise<(ProjectScope & { name: string }) | undefined> {
  if (ref === undefined) return undefined;
  const o = await findProject(db, owner, ref);
  return o ? scopeOf(db, o) : undefined;
}

/** The project of a write, created when unknown; cites `sources`. Runs inside the caller's transaction. */
export async function resolveProject(
  tx: Queryable,
  owner: string,
  ref: string,
  sources: readonly string[],
  now: number,
): Promise<ProjectScope & { name: string }> {
  const found = await findProject(tx, owner, ref);
  if (found) return scopeOf(tx, found);
  const cited = sources.map((event_id) => ({ event_id, quote: null }));
  const written = await writeObjects(
    tx,
    owner,
    [{ type: 'project', name: ref, aliases: [], sources: cited }],
    [],
    { now, body: 'replace', paths: { objects: 'project', relations: 'project' } },
  );
  const o = await getObject(tx, owner, written.objects[0]?.id ?? '');
  if (!o) throw new Error('a project just written is missing');
  return scopeOf(tx, o);
}
