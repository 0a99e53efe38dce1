// Todos: the todo list once this mnemo has memory.todo.*, and the objects of type todo it holds now.
import { content, h, when } from '../dom.js';
import { badge, empty, fill, notYet, record, recordsOf } from '../parts.js';
import { call, firstRead } from '../rpc.js';

/** @param {import('../app.js').ViewContext} ctx */
export async function todosView({ owner }) {
  const method = firstRead(['memory.todo.list']);
  const list = h('div', { class: 'todos' });
  const objects = await call('memory.chain.browse', { owner, types: ['todo'], limit: 100 });
  void fill(list, async () => {
    if (!method) {
      return notYet(
        'The todo list',
        ['memory.todo.list'],
        'Todos added by agents and people (memory.todo.add) will show here with their track and due date.',
      );
    }
    const todos = recordsOf(await call(method, { owner }));
    return todos.length
      ? todos.map((t) => record(t))
      : empty(
          'No todos',
          'Agents add them with the todo tool (memory.todo.add); they show here with their status.',
        );
  });
  return [
    list,
    h('h2', {}, 'Todo objects'),
    objects.items.length
      ? h(
          'ul',
          { class: 'objects' },
          objects.items.map((/** @type {any} */ o) =>
            h(
              'li',
              { 'data-object': o.id },
              h('a', { href: `#/objects?id=${encodeURIComponent(o.id)}` }, content(o.name, 'span')),
              ' ',
              badge(o.status, 'status'),
              ` updated ${when(o.updated_at)}`,
            ),
          ),
        )
      : empty('No todo objects', 'Objects of type todo come from observation or memory.chain.upsert.'),
  ];
}
