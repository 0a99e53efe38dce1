// Search: memory.recall with the reason for every item: its rank in each channel, the terms the query
// used and dropped, the object it came through, and its evidence one click away.
import { content, h, when } from '../dom.js';
import { badge, empty, evidence } from '../parts.js';
import { recall } from '../recall.js';

const KINDS = ['event', 'episode', 'fact', 'preference', 'procedure'];

/** What each channel's rank means. */
const CHANNELS = /** @type {Record<string, string>} */ ({
  bm25: 'the words of its text (BM25 over the selected terms)',
  id: 'an exact identifier: an order number, a file name, an event, session or task id',
  time: 'inside the time the query names',
  recency: 'the newest (or oldest) of the best matches, as the query asks',
  vector: 'nearest by embedding',
  neighbour: 'a turn of the same session beside a best hit',
  current: 'what is true now: no later statement on its subject supersedes it',
  alias: 'an object the query names, by its name or an alias',
  graph: 'related to an object the query names',
});

/** The objects an item came through, in whatever form recall gives them. @param {any} item */
function throughOf(item) {
  if (item.kind === 'object') return [{ id: item.id, name: item.text.split('\n')[0] ?? item.id }];
  const via = item.via ?? item.objects ?? item.through;
  if (!via) return [];
  return (Array.isArray(via) ? via : [via]).map((v) =>
    typeof v === 'string'
      ? { id: v, name: v }
      : { id: v.id ?? v.object_id, name: v.name ?? v.id ?? v.object_id },
  );
}

/** @param {any} item @param {number} index */
function why(item, index) {
  const ranks = Object.entries(item.channels ?? {}).filter(([, rank]) => typeof rank === 'number');
  const through = throughOf(item);
  return h(
    'details',
    { class: 'why', ...(index === 0 ? { open: true } : {}) },
    h('summary', {}, 'why was this recalled'),
    ranks.length === 0
      ? h(
          'p',
          { class: 'muted' },
          'No channel ranked it itself: it came in beside a best hit of its session.',
        )
      : null,
    h(
      'table',
      { class: 'channels', hidden: ranks.length === 0 },
      h('thead', {}, h('tr', {}, h('th', {}, 'channel'), h('th', {}, 'rank'), h('th', {}, 'found by'))),
      h(
        'tbody',
        {},
        ranks.map(([channel, rank]) =>
          h(
            'tr',
            { 'data-channel': channel },
            h('td', {}, h('code', {}, channel)),
            h('td', {}, `#${rank}`),
            h('td', {}, CHANNELS[channel] ?? ''),
          ),
        ),
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      `score ${item.score.toFixed(4)}: the ranks above fused (reciprocal rank fusion, k = 60)`,
      typeof item.match === 'number'
        ? `; holds ${Math.round(item.match * 100)}% of the query's term weight`
        : '',
    ),
    through.length
      ? h(
          'p',
          { class: 'through' },
          'came through ',
          through.map((o, i) => [
            i > 0 ? ', ' : '',
            h('a', { href: `#/objects?id=${encodeURIComponent(o.id)}` }, o.name),
          ]),
        )
      : null,
  );
}

/** @param {string} owner @param {any} item @param {number} index */
const resultCard = (owner, item, index) =>
  h(
    'article',
    { class: 'result', 'data-id': item.id },
    h(
      'header',
      {},
      h('span', { class: 'rank' }, `${index + 1}`),
      badge(item.kind, 'kind'),
      ' ',
      badge(item.status, 'status'),
      ' ',
      h('code', {}, item.id),
      ' ',
      when(item.at),
      item.session_id ? [' · session ', h('code', {}, item.session_id)] : null,
      item.task_id ? [' · task ', h('code', {}, item.task_id)] : null,
    ),
    content(item.text),
    item.truncated ? h('p', { class: 'muted' }, 'cut at 1,200 characters: the evidence holds it all') : null,
    why(item, index),
    evidence(owner, item.source_refs),
  );

/** @param {string[]} words @param {string} cls */
const chips = (words, cls) => words.map((w) => [h('span', { class: `chip ${cls}` }, w), ' ']);

/** @param {import('../app.js').ViewContext} ctx */
export async function searchView({ owner, params, go }) {
  const q = params.get('q') ?? '';
  const kinds = params.getAll('kind').filter((k) => KINDS.includes(k));
  const input = h('input', {
    type: 'search',
    name: 'q',
    value: q,
    placeholder: '发票报销, RB-2026-0917, last week…',
  });
  const boxes = KINDS.map((k) =>
    h('input', { type: 'checkbox', name: 'kind', value: k, ...(kinds.includes(k) ? { checked: true } : {}) }),
  );
  const form = h(
    'form',
    {
      class: 'query',
      role: 'search',
      on: {
        submit: (event) => {
          event.preventDefault();
          go('search', { q: input.value.trim(), kind: boxes.filter((b) => b.checked).map((b) => b.value) });
        },
      },
    },
    input,
    ' ',
    h('button', { type: 'submit' }, 'Recall'),
    h(
      'span',
      { class: 'kinds' },
      boxes.map((b, i) => h('label', {}, b, KINDS[i])),
    ),
  );
  if (!q) {
    return [
      form,
      empty(
        `Search what ${owner} remembers`,
        'Type words, an identifier or a time and press Recall, e.g. ',
        h('code', {}, '发票报销'),
        ', ',
        h('code', {}, 'RB-2026-0917'),
        ' or ',
        h('code', {}, 'what did I book last week'),
        '. Each result says which channels found it and why.',
      ),
    ];
  }
  const result = await recall({
    owner,
    query: q,
    limit: 20,
    ...(kinds.length ? { kinds } : {}),
  });
  return [
    form,
    h(
      'section',
      { class: 'terms' },
      h('span', {}, `${result.items.length} results in ${result.took_ms} ms · terms used `),
      chips(result.terms.selected, 'used'),
      result.terms.dropped.length
        ? [h('span', {}, ' dropped '), chips(result.terms.dropped, 'dropped')]
        : null,
    ),
    (result.degraded ?? []).map((/** @type {any} */ d) =>
      h('p', { class: 'error' }, `channel ${d.channel} did not answer (${d.code}): ${d.message}`),
    ),
    result.items.length
      ? h(
          'div',
          { class: 'results' },
          result.items.map((/** @type {any} */ item, /** @type {number} */ i) => resultCard(owner, item, i)),
        )
      : empty(
          'Nothing matched',
          `No event or memory of ${owner} holds these terms. Try fewer words, an identifier, another owner, `,
          'or the Timeline to see what is stored.',
        ),
  ];
}
