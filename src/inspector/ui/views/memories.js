// Memories: every memory newest first with its status, validity (current or superseded) and sources; a
// fact opens its history, every version of its subject and predicate.
import { content, h, when } from '../dom.js';
import { badge, empty, evidence, facts, fill } from '../parts.js';
import { call } from '../rpc.js';

const KINDS = ['episode', 'fact', 'preference', 'procedure'];
/** Status filters: a label → the lifecycles it selects. */
const STATUSES = /** @type {Record<string, string[]>} */ ({
  current: ['candidate', 'active', 'observed', 'validated', 'draft'],
  superseded: ['superseded'],
  retired: ['retired'],
  revoked: ['revoked'],
  deprecated: ['deprecated'],
});

/** @param {any} m */
const validity = (m) =>
  m.valid_to
    ? h('span', { class: 'validity past' }, `valid ${when(m.valid_from)} – ${when(m.valid_to)}`)
    : h('span', { class: 'validity' }, `valid since ${when(m.valid_from)}`);

/** @param {string} owner @param {any} m */
function historyOf(owner, m) {
  const body = h('div', { class: 'history-body' });
  return h(
    'details',
    {
      class: 'history',
      on: {
        toggle: (event) => {
          const el = /** @type {HTMLDetailsElement} */ (event.currentTarget);
          if (!el.open || body.hasAttribute('data-ready')) return;
          void fill(body, async () => {
            const { versions } = await call('memory.facts.history', {
              owner,
              subject: m.subject,
              predicate: m.predicate,
            });
            return h(
              'table',
              { class: 'versions' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ['value', 'status', 'valid from', 'valid to', 'origin', 'sources'].map((t) =>
                    h('th', {}, t),
                  ),
                ),
              ),
              h(
                'tbody',
                {},
                versions.map((/** @type {any} */ v) =>
                  h(
                    'tr',
                    { class: v.current ? 'current' : 'past', 'data-id': v.id },
                    h('td', {}, content(v.value, 'span'), v.id === m.id ? ' (this one)' : ''),
                    h('td', {}, badge(v.status, 'status'), v.current ? ' current' : ''),
                    h('td', {}, when(v.valid_from)),
                    h('td', {}, when(v.valid_to)),
                    h('td', {}, v.origin ?? '—'),
                    h('td', {}, v.sources.join(', ')),
                  ),
                ),
              ),
            );
          });
        },
      },
    },
    h('summary', {}, `history of ${m.subject} · ${m.predicate}`),
    body,
  );
}

/** @param {string} owner @param {any} m */
export const memoryCard = (owner, m) =>
  h(
    'article',
    { class: `memory${m.current ? '' : ' not-current'}`, 'data-id': m.id },
    h(
      'header',
      {},
      badge(m.kind, 'kind'),
      ' ',
      badge(m.status, 'status'),
      ' ',
      h('span', { class: m.current ? 'current' : 'past' }, m.current ? 'current' : 'not current'),
      ' ',
      validity(m),
      ' ',
      h('code', {}, m.id),
    ),
    content(m.text),
    facts([
      ['fact', m.subject ? content(`${m.subject} · ${m.predicate} · ${m.value ?? ''}`, 'span') : null],
      ['kind of fact', m.fact_kind],
      ['stated by', m.origin],
      ['conflict set', m.conflict_id],
      ['revoked because', m.revoked_reason ? content(m.revoked_reason, 'span') : null],
      ['stored', when(m.created_at)],
    ]),
    m.kind === 'fact' && m.subject && m.predicate ? historyOf(owner, m) : null,
    evidence(owner, m.sources, 'sources'),
  );

/** @param {import('../app.js').ViewContext} ctx */
export async function memoriesView({ owner, params, go }) {
  const kind = params.get('kind') ?? '';
  const status = params.get('status') ?? '';
  const after = params.get('after') ?? '';
  /** @param {string} name @param {string} value @param {string[]} options */
  const select = (name, value, options) =>
    h(
      'select',
      { name, on: { change: () => go('memories', { ...current(), [name]: selectValue(name) }) } },
      h('option', { value: '' }, `every ${name}`),
      options.map((o) => h('option', { value: o, ...(o === value ? { selected: true } : {}) }, o)),
    );
  const filters = h(
    'form',
    { class: 'filters' },
    select('kind', kind, KINDS),
    ' ',
    select('status', status, Object.keys(STATUSES)),
  );
  /** @param {string} name */
  const selectValue = (name) =>
    /** @type {HTMLSelectElement} */ (filters.querySelector(`select[name=${name}]`)).value;
  const current = () => ({ kind, status });
  const result = await call('memory.browse', {
    owner,
    limit: 50,
    ...(KINDS.includes(kind) ? { kinds: [kind] } : {}),
    ...(STATUSES[status] ? { statuses: STATUSES[status] } : {}),
    ...(after ? { after } : {}),
  });
  if (result.items.length === 0) {
    return [
      filters,
      kind || status
        ? empty('No memory of this kind or status', 'Choose every kind and every status to see them all.')
        : empty(
            `${owner} has no memories yet`,
            'mnemo distills memories (episodes, facts, preferences, procedures) from events in the background: ',
            'ingest events, keep mnemo serve running, and see their progress under Jobs.',
          ),
    ];
  }
  return [
    filters,
    h(
      'div',
      { class: 'memories' },
      result.items.map((/** @type {any} */ m) => memoryCard(owner, m)),
    ),
    result.next_after
      ? h(
          'a',
          {
            class: 'more',
            href: `#/memories?${new URLSearchParams({ ...current(), after: result.next_after })}`,
          },
          'older memories',
        )
      : null,
  ];
}
