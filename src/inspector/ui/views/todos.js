// Todos: memory.todo.list (every object of type todo, by track and status: overdue first, then due
// soonest), each linked to its object; without that method, the objects of type todo.
import { content, h, when } from '../dom.js';
import { badge, empty, facts } from '../parts.js';
import { call, firstRead } from '../rpc.js';

/** @param {any} t */
const todoCard = (t) =>
  h(
    'article',
    { class: `todo record${t.overdue ? ' overdue' : ''}`, 'data-id': t.id },
    h(
      'header',
      {},
      badge(t.status, 'status'),
      ' ',
      badge(t.track, 'track'),
      t.overdue ? [' ', badge('overdue', 'due')] : null,
      ' ',
      h('a', { href: `#/objects?id=${encodeURIComponent(t.id)}` }, h('code', {}, t.id)),
    ),
    content(t.title),
    facts([
      ['due', t.due],
      ['project', t.project_id],
      ['touched', when(t.touched_at)],
    ]),
  );

/** @param {any} o */
const objectItem = (o) =>
  h(
    'li',
    { 'data-object': o.id },
    h('a', { href: `#/objects?id=${encodeURIComponent(o.id)}` }, content(o.name, 'span')),
    ' ',
    badge(o.status, 'status'),
    ` updated ${when(o.updated_at)}`,
  );

/** @param {import('../app.js').ViewContext} ctx */
export async function todosView({ owner }) {
  const method = firstRead(['memory.todo.list']);
  if (method) {
    const { items } = await call(method, { owner, limit: 500 });
    return items.length
      ? h('div', { class: 'todos' }, items.map(todoCard))
      : empty(
          'No todos',
          'Agents add them with the todo tool (memory.todo.add); they show here by track, overdue first.',
        );
  }
  const objects = await call('memory.chain.browse', { owner, types: ['todo'], limit: 100 });
  return objects.items.length
    ? h('ul', { class: 'objects' }, objects.items.map(objectItem))
    : empty('No todo objects', 'Objects of type todo come from observation or memory.chain.upsert.');
}
