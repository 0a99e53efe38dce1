// Objects and relations: every object (or those a search finds), and one object with its aliases, body,
// sources and neighbourhood drawn as a graph (memory.chain.read, depth 2).
import { content, h, when } from '../dom.js';
import { objectGraph } from '../graph.js';
import { badge, empty, evidence, facts } from '../parts.js';
import { call } from '../rpc.js';

/** @param {any} o @param {string | null} selected */
const listItem = (o, selected) =>
  h(
    'li',
    { 'data-object': o.id, ...(o.id === selected ? { 'aria-current': 'true' } : {}) },
    h('a', { href: `#/objects?id=${encodeURIComponent(o.id)}` }, content(o.name, 'span')),
    ' ',
    badge(o.type, 'type'),
    ' ',
    badge(o.status, 'status'),
    o.aliases.length ? h('span', { class: 'muted' }, ` (${o.aliases.join(', ')})`) : null,
  );

/** @param {string} owner @param {string} id @param {(view: string, params?: Record<string, string>) => void} go */
async function detail(owner, id, go) {
  const read = await call('memory.chain.read', { owner, id, depth: 2 });
  const o = read.object;
  const quotes = o.sources.filter((/** @type {any} */ s) => s.quote);
  return h(
    'section',
    { class: 'object', 'data-id': o.id },
    h('h2', {}, content(o.name, 'span'), ' ', badge(o.type, 'type'), ' ', badge(o.status, 'status')),
    facts([
      ['id', h('code', {}, o.id)],
      ['aliases', o.aliases.length ? content(o.aliases.join(', '), 'span') : null],
      ['revision', String(o.revision)],
      ['updated', when(o.updated_at)],
    ]),
    o.body ? content(o.body, 'div', { class: 'text body' }) : null,
    objectGraph({ id: o.id, name: o.name, type: o.type }, read.objects, read.relations, (next) =>
      go('objects', { id: next }),
    ),
    read.relations.length
      ? h(
          'ul',
          { class: 'relations' },
          read.relations.map((/** @type {any} */ r) =>
            h(
              'li',
              { 'data-relation': r.id },
              content(r.from_name, 'span'),
              ' —',
              h('code', {}, r.type),
              '→ ',
              content(r.to_name, 'span'),
              ' ',
              evidence(owner, r.sources, 'sources'),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No relations yet.'),
    quotes.length
      ? h(
          'ul',
          { class: 'quotes' },
          quotes.map((/** @type {any} */ s) =>
            h('li', {}, content(`“${s.quote}”`, 'span'), ' ', h('code', {}, s.event_id)),
          ),
        )
      : null,
    evidence(
      owner,
      o.sources.map((/** @type {any} */ s) => s.event_id),
      'evidence of this object',
    ),
  );
}

/** @param {import('../app.js').ViewContext} ctx */
export async function objectsView({ owner, params, go }) {
  const q = params.get('q') ?? '';
  const id = params.get('id');
  const input = h('input', {
    type: 'search',
    name: 'q',
    value: q,
    placeholder: 'a name or an alias: 老李, Apollo…',
  });
  const form = h(
    'form',
    {
      class: 'query',
      on: {
        submit: (event) => {
          event.preventDefault();
          go('objects', { q: input.value.trim() });
        },
      },
    },
    input,
    ' ',
    h('button', { type: 'submit' }, 'Find'),
  );
  const list = q
    ? (await call('memory.chain.find', { owner, query: q, include_archived: true, limit: 50 })).items
    : (await call('memory.chain.browse', { owner, limit: 100 })).items;
  if (list.length === 0 && !id) {
    return [
      form,
      q
        ? empty(
            'No object has this name or alias',
            'Try another name, or clear the search to list every object.',
          )
        : empty(
            `${owner} has no objects yet`,
            'Objects (people, projects, todos, assets…) and their relations come from observation of events, ',
            'or from memory.chain.upsert.',
          ),
    ];
  }
  return [
    form,
    h(
      'div',
      { class: 'split' },
      h(
        'ul',
        { class: 'objects' },
        list.map((/** @type {any} */ o) => listItem(o, id)),
      ),
      id
        ? await detail(owner, id, go)
        : h('p', { class: 'muted pick' }, 'Pick an object to see its relations, sources and graph.'),
    ),
  ];
}
