// Pieces every view uses: empty states that say what to do, errors, badges, evidence, generic records.
import { content, h, replace, when } from './dom.js';
import { call, RpcError } from './rpc.js';

/** @typedef {import('./dom.js').Child} Child */

/** What is missing, and what to do next. @param {string} title @param {...Child} next */
export const empty = (title, ...next) =>
  h('div', { class: 'empty', 'data-empty': '' }, h('strong', {}, title), h('p', {}, ...next));

/** A method a later mnemo brings: the view says which and how it will fill. */
/** @param {string} what @param {string[]} methods @param {string} then */
export const notYet = (what, methods, then) =>
  empty(
    `${what}: not in this mnemo yet`,
    'This server has no ',
    methods.map((m, i) => [i > 0 ? ' or ' : '', h('code', {}, m)]),
    `. ${then}`,
  );

/** @param {unknown} error */
export function failure(error) {
  const code = error instanceof RpcError ? error.code : 'ERROR';
  const message = error instanceof Error ? error.message : String(error);
  return h('div', { class: 'error', role: 'alert' }, h('code', {}, code), ' ', message);
}

export const loading = () => h('p', { class: 'loading' }, 'Loading…');

/** @param {string | null | undefined} value @param {string} [kind] */
export const badge = (value, kind = '') =>
  value ? h('span', { class: `badge ${kind} ${kind}-${value}`.trim() }, value) : null;

/** Runs `load` into `target`: a loading line first, the error if it fails. */
/** @param {Element} target @param {() => Promise<Child>} load */
export async function fill(target, load) {
  replace(target, loading());
  try {
    replace(target, await load());
  } catch (error) {
    replace(target, failure(error));
  }
  target.setAttribute('data-ready', '');
}

/** A list of label → value rows. @param {Array<[string, Child]>} rows */
export const facts = (rows) =>
  h(
    'dl',
    { class: 'facts' },
    rows
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
  );

/** JSON for a reader, as text. @param {unknown} value */
export const json = (value) => h('pre', { class: 'json' }, JSON.stringify(value, null, 2));

/** One stored event in full: who, when, where, whether redacted, its text and meta. */
/** @param {any} e */
export const eventCard = (e) =>
  h(
    'article',
    { class: 'event', 'data-event': e.id },
    h(
      'header',
      {},
      badge(e.kind, 'kind'),
      ' ',
      badge(e.role, 'role'),
      ' ',
      h('code', {}, e.id),
      ' ',
      when(e.at),
    ),
    facts([
      ['session', e.session_id],
      ['task', e.task_id],
      ['redacted', e.redacted ? 'yes: secrets were replaced by markers before storage' : null],
    ]),
    content(e.text, 'div', { class: 'text full' }),
    e.meta ? h('details', {}, h('summary', {}, 'meta'), json(e.meta)) : null,
    h(
      'a',
      { href: `#/timeline?around=${encodeURIComponent(e.id)}`, class: 'more' },
      'around it in the timeline',
    ),
  );

/**
 * A toggle that loads the stored events behind ids and shows them in place.
 * @param {string} owner @param {string[]} ids @param {string} [label]
 */
export function evidence(owner, ids, label = 'evidence') {
  const body = h('div', { class: 'evidence-body' });
  let open = false;
  const button = h(
    'button',
    {
      type: 'button',
      class: 'link',
      'data-action': 'evidence',
      on: {
        click: () => {
          open = !open;
          if (!open) return void replace(body);
          void fill(body, async () => {
            const { items, missing } = await call('memory.evidence.get', { owner, ids: ids.slice(0, 200) });
            return [
              items.map(eventCard),
              missing.length ? h('p', { class: 'muted' }, `not stored: ${missing.join(', ')}`) : null,
            ];
          });
        },
      },
    },
    `${label} (${ids.length})`,
  );
  return h('div', { class: 'evidence' }, ids.length ? button : null, body);
}

const TITLE_KEYS = ['title', 'text', 'name', 'summary', 'body', 'content', 'message', 'reason'];
const BADGE_KEYS = ['status', 'kind', 'type', 'action', 'trigger', 'decision'];

/** The first array in a result (`items`, `suggestions`, …), or the result when it is one. @param {any} result */
export function recordsOf(result) {
  if (Array.isArray(result)) return result;
  if (result && typeof result === 'object') {
    if (Array.isArray(result.items)) return result.items;
    const first = Object.values(result).find(Array.isArray);
    if (first) return first;
  }
  return [];
}

const ID_KEYS = ['id', 'suggestion_id', 'todo_id', 'skill_id', 'job_id', 'audit_id', 'packet_id'];

/** The id a record goes by. @param {any} r */
export const idOf = (r) => {
  const key = ID_KEYS.find((k) => typeof r[k] === 'string' || typeof r[k] === 'number');
  return key === undefined ? null : r[key];
};

/**
 * A record of a method this page does not know the shape of: a title, badges, the other fields.
 * @param {any} r @param {Child} [actions]
 */
export function record(r, actions) {
  const titleKey = TITLE_KEYS.find((k) => typeof r[k] === 'string' && r[k]);
  const idKey = ID_KEYS.find((k) => r[k] === idOf(r));
  const rest = Object.entries(r).filter(([k]) => k !== titleKey && k !== idKey && !BADGE_KEYS.includes(k));
  const id = idOf(r);
  return h(
    'article',
    { class: 'record', ...(id ? { 'data-id': String(id) } : {}) },
    h(
      'header',
      {},
      BADGE_KEYS.map((k) => (typeof r[k] === 'string' ? [badge(r[k], k), ' '] : null)),
      id ? h('code', {}, String(id)) : null,
    ),
    titleKey ? content(r[titleKey]) : null,
    facts(
      rest.map(([k, v]) => [
        k,
        v !== null && typeof v === 'object'
          ? json(v)
          : typeof v === 'string' && /_at$|^at$/.test(k)
            ? when(v)
            : content(String(v), 'span'),
      ]),
    ),
    actions,
  );
}
