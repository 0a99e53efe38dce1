// The page's one way to mnemo: POST /rpc on its own origin with the bearer token, for the methods the
// server declared in the page (name and access). It sends reads, and the suggestion decisions; nothing else.

const TOKEN_KEY = 'mnemo.inspector.token';

/** The only writes the page sends (the server refuses any other from a page too). */
export const PAGE_WRITES = new Set(['memory.suggestions.decide']);

/** @param {string} name */
const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';

/** name → access (`read`, `write`, `background`) of every method this server has. */
const METHODS = new Map(
  meta('mnemo-methods')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => /** @type {[string, string]} */ (pair.split(':'))),
);

/** Whether the server calls with a token (`token`) or without (`off`). */
export const AUTH = meta('mnemo-auth') === 'off' ? 'off' : 'token';

/** @param {string} name */
export const has = (name) => METHODS.has(name);

/** The first of these methods the server has as a read, or null. @param {string[]} names */
export const firstRead = (names) => names.find((name) => METHODS.get(name) === 'read') ?? null;

/** @param {string} method @param {Record<string, unknown>} params */
export function mayCall(method, params) {
  const access = METHODS.get(method);
  if (access === 'read' || PAGE_WRITES.has(method)) return true;
  return method === 'memory.organize.notices' && params.ack === undefined;
}

export class RpcError extends Error {
  /** @param {string} code @param {string} message @param {unknown} [data] */
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export const token = {
  /** @returns {string | null} */
  get: () => sessionStorage.getItem(TOKEN_KEY),
  /** @param {string} value */
  set: (value) => sessionStorage.setItem(TOKEN_KEY, value.trim()),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
  needed: () => AUTH === 'token' && !sessionStorage.getItem(TOKEN_KEY),
};

/**
 * A token handed over in the address (`#token=…`, never sent to any server) is kept for this tab only, and
 * taken out of the address at once so that it is not bookmarked, shared or shown.
 */
export function takeTokenFromAddress() {
  const match = /^#token=([^&]+)/.exec(location.hash);
  if (!match || !match[1]) return;
  token.set(decodeURIComponent(match[1]));
  history.replaceState(null, '', `${location.pathname}#/search`);
}

let seq = 0;

/**
 * @param {string} method
 * @param {Record<string, unknown>} [params]
 * @returns {Promise<any>}
 */
export async function call(method, params = {}) {
  if (!mayCall(method, params)) throw new RpcError('PAGE_REFUSED', `the inspector does not call ${method}`);
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/json' };
  const bearer = token.get();
  if (AUTH === 'token' && bearer) headers.authorization = `Bearer ${bearer}`;
  const response = await fetch('/rpc', {
    method: 'POST',
    headers,
    body: JSON.stringify({ id: ++seq, method, params }),
    credentials: 'omit',
    cache: 'no-store',
  });
  const body = await response.json().catch(() => null);
  if (body && body.ok === true) return body.result;
  const error = body?.error ?? { code: 'INTERNAL', message: `HTTP ${response.status}` };
  if (error.code === 'UNAUTHORIZED') token.clear();
  throw new RpcError(error.code, error.message, error.data);
}
