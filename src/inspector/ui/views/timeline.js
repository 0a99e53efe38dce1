// Timeline: the newest events (or those around one, or matching words), each expandable to its stored
// event in full (memory.evidence.get) and to what cites it (memory.chain.node).
import { content, h, replace, when } from '../dom.js';
import { badge, empty, eventCard, fill } from '../parts.js';
import { call, has } from '../rpc.js';

const PAGE = 30;
/** Later than any event: around it, `before` is the newest events. */
const END_OF_TIME = 8.64e15;

/** @param {string} owner @param {any} head */
function expanded(owner, head) {
  return async () => {
    const [{ items }, node] = await Promise.all([
      call('memory.evidence.get', { owner, ids: [head.id] }),
      has('memory.chain.node') ? call('memory.chain.node', { owner, id: head.id, limit: 1 }) : null,
    ]);
    const cited = node?.cited_by ?? { objects: [], relations: [] };
    return [
      items.map(eventCard),
      cited.objects.length
        ? h(
            'p',
            { class: 'cited' },
            'cited by ',
            cited.objects.map((/** @type {string} */ id, /** @type {number} */ i) => [
              i > 0 ? ', ' : '',
              h('a', { href: `#/objects?id=${encodeURIComponent(id)}` }, id),
            ]),
            cited.relations.length ? ` and ${cited.relations.length} relation(s)` : '',
          )
        : null,
    ];
  };
}

/** @param {string} owner @param {any} head @param {boolean} anchor */
function row(owner, head, anchor) {
  const detail = h('div', { class: 'detail' });
  let open = false;
  return h(
    'li',
    { class: `head${anchor ? ' anchor' : ''}`, 'data-id': head.id },
    h(
      'header',
      {},
      h('time', {}, when(head.at)),
      ' ',
      badge(head.kind, 'kind'),
      ' ',
      h('code', {}, head.id),
      head.task_id ? [' · task ', h('code', {}, head.task_id)] : null,
      ` · ${head.length.toLocaleString('en-US')} chars`,
      ' ',
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          'data-action': 'expand',
          on: {
            click: () => {
              open = !open;
              if (open) void fill(detail, expanded(owner, head));
              else replace(detail);
            },
          },
        },
        'evidence',
      ),
    ),
    content(head.head),
    detail,
  );
}

/** @param {import('../app.js').ViewContext} ctx */
export async function timelineView({ owner, params, go }) {
  const q = params.get('q') ?? '';
  const around = params.get('around');
  const older = params.get('older');
  const input = h('input', { type: 'search', name: 'q', value: q, placeholder: 'words in the timeline' });
  const form = h(
    'form',
    {
      class: 'query',
      on: {
        submit: (event) => {
          event.preventDefault();
          go('timeline', { q: input.value.trim() });
        },
      },
    },
    input,
    ' ',
    h('button', { type: 'submit' }, 'Find'),
    q || around || older ? [' ', h('a', { href: '#/timeline' }, 'newest')] : null,
  );
  /** @type {any[]} */
  let heads;
  let caption;
  let anchorId = null;
  if (q) {
    const result = await call('timeline.query', { owner, query: q, limit: 50 });
    heads = result.items;
    caption = `${result.total} events hold these words (best first)`;
  } else {
    const result = around
      ? await call('timeline.around', { owner, id: around, before: 10, after: 10 })
      : older
        ? await call('timeline.around', { owner, id: older, before: PAGE, after: 0 })
        : await call('timeline.around', { owner, at: END_OF_TIME, before: PAGE, after: 0 });
    anchorId = around ? result.anchor?.id : null;
    heads = [
      ...result.before,
      ...(around && result.anchor ? [result.anchor] : []),
      ...result.after,
    ].reverse();
    caption = around ? `around ${around}, newest first` : 'newest first';
  }
  if (heads.length === 0) {
    return [
      form,
      q
        ? empty(
            'No event holds these words',
            'Try other words, or clear the search to see the newest events.',
          )
        : empty(
            `No events for ${owner} yet`,
            'Events arrive through memory.events.ingest, e.g. ',
            h('code', {}, `npx mnemo ingest events.jsonl --owner ${owner}`),
            '.',
          ),
    ];
  }
  const oldest = heads.at(-1);
  return [
    form,
    h('p', { class: 'muted' }, caption),
    h(
      'ol',
      { class: 'timeline' },
      heads.map((head) => row(owner, head, head.id === anchorId)),
    ),
    !q && heads.length >= PAGE && oldest
      ? h('a', { class: 'more', href: `#/timeline?older=${encodeURIComponent(oldest.id)}` }, 'older events')
      : null,
  ];
}
