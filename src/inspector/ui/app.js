// The inspector's shell: the token gate, the owner, the navigation and the router (`#/view?params`).
import { h, replace } from './dom.js';
import { empty, failure, loading } from './parts.js';
import { AUTH, call, RpcError, takeTokenFromAddress, token } from './rpc.js';
import { auditView } from './views/audit.js';
import { healthView } from './views/health.js';
import { jobsView } from './views/jobs.js';
import { memoriesView } from './views/memories.js';
import { objectsView } from './views/objects.js';
import { searchView } from './views/search.js';
import { skillsView } from './views/skills.js';
import { suggestionsView } from './views/suggestions.js';
import { timelineView } from './views/timeline.js';
import { todosView } from './views/todos.js';

/**
 * @typedef {{owner: string, params: URLSearchParams, go: (view: string, params?: Record<string, string | string[]>) => void, scoped: boolean}} ViewContext
 * @typedef {{name: string, label: string, render: (ctx: ViewContext) => Promise<import('./dom.js').Child>, perOwner: boolean}} View
 */

/** @type {View[]} */
const VIEWS = [
  { name: 'search', label: 'Search', render: searchView, perOwner: true },
  { name: 'timeline', label: 'Timeline', render: timelineView, perOwner: true },
  { name: 'memories', label: 'Memories', render: memoriesView, perOwner: true },
  { name: 'objects', label: 'Objects', render: objectsView, perOwner: true },
  { name: 'jobs', label: 'Jobs', render: jobsView, perOwner: false },
  { name: 'todos', label: 'Todos', render: todosView, perOwner: true },
  { name: 'skills', label: 'Skills', render: skillsView, perOwner: true },
  { name: 'suggestions', label: 'Suggestions', render: suggestionsView, perOwner: true },
  { name: 'audit', label: 'Packets & audit', render: auditView, perOwner: true },
  { name: 'health', label: 'Health', render: healthView, perOwner: false },
];

const OWNER_KEY = 'mnemo.inspector.owner';
const state = {
  owner: sessionStorage.getItem(OWNER_KEY) ?? '',
  /** A token scoped to some owners: calls always name one. */
  scoped: false,
  /** @type {Array<{owner: string, events: number}>} */
  owners: [],
};

const main = /** @type {HTMLElement} */ (document.getElementById('view'));
const nav = /** @type {HTMLElement} */ (document.getElementById('nav'));
const ownerInput = /** @type {HTMLInputElement} */ (document.getElementById('owner'));
const ownerList = /** @type {HTMLDataListElement} */ (document.getElementById('owners'));
const forget = /** @type {HTMLButtonElement} */ (document.getElementById('forget'));

/** @returns {{view: View, params: URLSearchParams}} */
function route() {
  const [path = '', query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const view = VIEWS.find((v) => v.name === path) ?? VIEWS[0];
  return { view: /** @type {View} */ (view), params: new URLSearchParams(query) };
}

/** @param {string} view @param {Record<string, string | string[]>} [params] */
function go(view, params = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== '') query.append(key, v);
  }
  const next = `#/${view}${query.size ? `?${query}` : ''}`;
  if (location.hash === next) void render();
  else location.hash = next;
}

function tokenForm() {
  const input = h('input', {
    type: 'password',
    id: 'token',
    name: 'token',
    autocomplete: 'off',
    placeholder: 'the HTTP token',
  });
  return h(
    'form',
    {
      class: 'token-form',
      on: {
        submit: (event) => {
          event.preventDefault();
          if (!input.value.trim()) return;
          token.set(input.value);
          void start();
        },
      },
    },
    h('h1', {}, 'Open the inspector'),
    h(
      'p',
      {},
      'This mnemo answers only with its HTTP token. Paste it here (it stays in this tab: session storage, ',
      'sent only to this server), or open the inspector with it in the address: ',
      h('code', {}, `${location.origin}/#token=$(cat ~/.mnemo/http-token)`),
      ' — the file is the one on the ',
      h('code', {}, 'token:'),
      ' line that ',
      h('code', {}, 'mnemo serve'),
      ' prints.',
    ),
    h('label', { for: 'token' }, 'Token '),
    input,
    ' ',
    h('button', { type: 'submit' }, 'Open'),
  );
}

function drawNav() {
  const current = route().view.name;
  replace(
    nav,
    VIEWS.map((v) =>
      h('a', { href: `#/${v.name}`, ...(v.name === current ? { 'aria-current': 'page' } : {}) }, v.label),
    ),
  );
}

let rendering = 0;
async function render() {
  const mine = ++rendering;
  drawNav();
  if (token.needed()) return void replace(main, tokenForm());
  const { view, params } = route();
  const owner = params.get('owner') || state.owner;
  main.removeAttribute('data-ready');
  main.setAttribute('data-view', view.name);
  replace(main, loading());
  /** @type {import('./dom.js').Child} */
  let body;
  if (view.perOwner && !owner) {
    body = empty(
      'Choose an owner',
      state.owners.length || state.scoped
        ? 'Type the owner whose memory you want to see (e.g. user:alice) in the owner box above.'
        : 'No owner has stored anything yet. Ingest events first, e.g. ',
      state.owners.length || state.scoped
        ? null
        : h('code', {}, 'npx mnemo ingest events.jsonl --owner user:alice'),
    );
  } else {
    try {
      body = await view.render({ owner, params, go, scoped: state.scoped });
    } catch (error) {
      if (error instanceof RpcError && error.code === 'UNAUTHORIZED') return void replace(main, tokenForm());
      body = failure(error);
    }
  }
  if (mine !== rendering) return;
  replace(main, h('h1', {}, view.label), body);
  main.setAttribute('data-ready', '');
}

/** The owners this token may see, for the owner box; a scoped token lists none. */
async function loadOwners() {
  try {
    const history = await call('health.history', { days: 1 });
    state.owners = [...history.owners].sort((a, b) => b.events - a.events);
  } catch (error) {
    if (!(error instanceof RpcError) || error.code !== 'FORBIDDEN') throw error;
    state.scoped = true;
  }
  replace(
    ownerList,
    state.owners.map((o) => h('option', { value: o.owner })),
  );
  if (!state.owner && state.owners[0]) state.owner = state.owners[0].owner;
  ownerInput.value = state.owner;
}

async function start() {
  forget.hidden = AUTH === 'off';
  if (token.needed()) return render();
  try {
    await loadOwners();
  } catch (error) {
    if (error instanceof RpcError && error.code === 'UNAUTHORIZED') return render();
    replace(main, failure(error));
    return;
  }
  await render();
}

ownerInput.addEventListener('change', () => {
  state.owner = ownerInput.value.trim();
  sessionStorage.setItem(OWNER_KEY, state.owner);
  const { view, params } = route();
  params.delete('owner');
  go(view.name, Object.fromEntries(params));
});
forget.addEventListener('click', () => {
  token.clear();
  void render();
});
window.addEventListener('hashchange', () => void render());

takeTokenFromAddress();
void start();
