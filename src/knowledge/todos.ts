// Todos: objects of type todo (attrs: track, due, todo_status, project, touched_at), written like every
// object through writeObjects, citing a note event stored for each write. A todo restating an open one of its
// track (same title in normal form) is that one; every change is a new revision.
import type { z } from 'zod';
import { MemoryError } from '../errors.js';
import type { Queryable } from '../storage/driver.js';
import { dueAt } from './due.js';
import { normName } from './names.js';
import { writeNote } from './note.js';
import { writeObjects } from './object-write.js';
import { getObject, objectsOfType, type ObjectRow } from './objects.js';
import { resolveProject } from './project-ref.js';
import type { TrackDeps } from './tracks.js';
import {
  TODO_VIEW_SIZE,
  type TodoAddParams,
  type TodoListParams,
  type TodoSchema,
  type TodoStatus,
  type TodoTrack,
  type TodoUpdateParams,
} from './todos-schema.js';

type TodoDeps = Omit<TrackDeps, 'publish'>;
type Todo = z.input<typeof TodoSchema>;

interface TodoAttrs {
  track: TodoTrack;
  due: string | null;
  todo_status: TodoStatus;
  project: string | null;
  touched_at: number;
}

const attrsOf = (o: ObjectRow): TodoAttrs => {
  const a = (o.attrs === null ? {} : JSON.parse(o.attrs)) as Partial<TodoAttrs>;
  return {
    track: a.track ?? 'life',
    due: a.due ?? null,
    todo_status: a.todo_status ?? 'open',
    project: a.project ?? null,
    touched_at: a.touched_at ?? o.updated_at,
  };
};

const iso = (t: number) => new Date(t).toISOString();

function todoOf(o: ObjectRow, now: number, timeZone: string): Todo & { due_at: number | null } {
  const a = attrsOf(o);
  const due = a.due === null ? null : dueAt(a.due, timeZone);
  return {
    id: o.object_id,
    track: a.track,
    title: o.name,
    status: a.todo_status,
    due: a.due,
    due_at: due,
    overdue: a.todo_status === 'open' && due !== null && due <= now,
    project_id: a.project,
    revision: o.revision,
    created_at: iso(o.created_at),
    touched_at: iso(a.touched_at),
  };
}

const strip = ({ due_at: _, ...todo }: Todo & { due_at: number | null }): Todo => todo;
/** Done and dropped todos leave the owner's active objects (chain.find shows them with include_archived). */
const objectStatus = (s: TodoStatus) => (s === 'open' ? 'active' : 'archived');

async function openDuplicate(db: Queryable, owner: string, track: TodoTrack, title: string) {
  const norm = normName(title);
  return (await objectsOfType(db, owner, 'todo')).find(
    (o) => o.norm_name === norm && attrsOf(o).track === track && attrsOf(o).todo_status === 'open',
  );
}

const invalid = (path: string, message: string) =>
  new MemoryError('INVALID_PARAMS', message, { issues: [{ path, message }] });

/**
 * invariant: an open todo is never stored twice in its track: the same title again answers added: false
 * (test: src/knowledge/todos.test.ts "invariant: a duplicate open todo…").
 */
export async function addTodo(deps: TodoDeps, p: TodoAddParams): Promise<{ id: string; added: boolean }> {
  if (p.track === 'project' && p.project === undefined)
    throw invalid('project', 'a project todo names its project');
  const [title = '', project] = (await deps.redactor.redactMany([p.title, p.project ?? ''])).map(
    (r) => r.text,
  );
  const dup = await openDuplicate(deps.driver, p.owner, p.track, title);
  if (dup) return { id: dup.object_id, added: false };
  const due = p.due === undefined ? '' : ` (due ${p.due})`;
  const note = await writeNote(deps, p.owner, `memory.todo.add ${p.track}: ${title}${due}`);
  const now = deps.now();
  return deps.driver.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    const again = await openDuplicate(tx, p.owner, p.track, title);
    if (again) return { id: again.object_id, added: false };
    const scope = project ? await resolveProject(tx, p.owner, project, [note], now) : undefined;
    const attrs: TodoAttrs = {
      track: p.track,
      due: p.due ?? null,
      todo_status: 'open',
      project: scope?.id ?? null,
      touched_at: now,
    };
    const written = await writeObjects(
      tx,
      p.owner,
      [
        {
          ref: 'todo',
          type: 'todo',
          name: title,
          aliases: [],
          attrs: { ...attrs },
          distinct: true,
          sources: [{ event_id: note, quote: null }],
        },
      ],
      scope ? [{ from: 'todo', to: scope.id, type: 'belongs_to', sources: [note] }] : [],
      { now, body: 'replace', paths: { objects: 'title', relations: 'project' } },
    );
    return { id: written.objects[0]?.id ?? '', added: true };
  });
}

export async function updateTodo(deps: TodoDeps, p: TodoUpdateParams): Promise<Todo> {
  const existing = await getObject(deps.driver, p.owner, p.id);
  if (!existing || existing.type !== 'todo')
    throw new MemoryError('NOT_FOUND', `no todo ${p.id}`, { id: p.id });
  const title = p.title === undefined ? undefined : (await deps.redactor.redact(p.title)).text;
  const changes = [
    p.status && `status ${p.status}`,
    title && `title ${title}`,
    p.due !== undefined && `due ${p.due ?? 'none'}`,
  ].filter(Boolean);
  const note = await writeNote(deps, p.owner, `memory.todo.update ${p.id}: ${changes.join(', ')}`);
  const now = deps.now();
  return deps.driver.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    const current = await getObject(tx, p.owner, p.id);
    if (!current) throw new MemoryError('NOT_FOUND', `no todo ${p.id}`, { id: p.id });
    const attrs = {
      ...(p.status ? { todo_status: p.status } : {}),
      ...(p.due !== undefined ? { due: p.due } : {}),
      touched_at: now,
    };
    await writeObjects(
      tx,
      p.owner,
      [
        {
          id: p.id,
          type: 'todo',
          name: title ?? current.name,
          aliases: [],
          attrs,
          distinct: true,
          ...(p.status ? { status: objectStatus(p.status) } : {}),
          sources: [{ event_id: note, quote: null }],
        },
      ],
      [],
      { now, body: 'replace', paths: { objects: 'title', relations: 'project' } },
    );
    const updated = await getObject(tx, p.owner, p.id);
    if (!updated) throw new Error('a todo just written is missing');
    return strip(todoOf(updated, now, deps.timeZone));
  });
}

/** Overdue first (most overdue first), then due soonest, then most recently touched. */
export function viewOrder(a: ReturnType<typeof todoOf>, b: ReturnType<typeof todoOf>): number {
  if (a.overdue !== b.overdue) return a.overdue ? -1 : 1;
  if ((a.due_at === null) !== (b.due_at === null)) return a.due_at === null ? 1 : -1;
  if (a.due_at !== null && b.due_at !== null && a.due_at !== b.due_at) return a.due_at - b.due_at;
  return b.touched_at.localeCompare(a.touched_at) || a.id.localeCompare(b.id);
}

export async function listTodos(
  db: Queryable,
  p: TodoListParams,
  now: number,
  timeZone: string,
): Promise<Todo[]> {
  const todos = (await objectsOfType(db, p.owner, 'todo'))
    .map((o) => todoOf(o, now, timeZone))
    .filter(
      (t) =>
        (p.track === undefined || t.track === p.track) && (p.status === undefined || t.status === p.status),
    );
  return todos.sort(viewOrder).slice(0, p.limit).map(strip);
}

/**
 * invariant: the smart view shows at most 8 open todos, overdue first, then due soonest, then most recently
 * touched (test: src/knowledge/todos.test.ts "invariant: the view shows at most 8…").
 */
export async function viewTodos(db: Queryable, owner: string, now: number, timeZone: string) {
  const open = (await objectsOfType(db, owner, 'todo'))
    .map((o) => todoOf(o, now, timeZone))
    .filter((t) => t.status === 'open')
    .sort(viewOrder);
  return {
    items: open.slice(0, TODO_VIEW_SIZE).map(strip),
    open: open.length,
    overdue: open.filter((t) => t.overdue).length,
  };
}
