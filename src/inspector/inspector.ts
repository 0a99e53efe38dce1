// The web inspector: static files served at / (they hold no data, so no token is asked for them), and the
// rule for what the page may send to /rpc. The page reads mnemo only through the method table.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpPages } from '../protocol/http.js';
import type { MethodTable } from '../protocol/method.js';
import { pageMayCall } from './page-policy.js';

export interface InspectorOptions {
  /** The methods the page may light up its views with (it reads their names and access from the page). */
  table: MethodTable;
  /** `off`: the page calls without a token (MNEMO_HTTP_AUTH=off). */
  auth: 'token' | 'off';
}

const UI_DIR = fileURLToPath(new URL('./ui/', import.meta.url));
export const ASSET_PREFIX = '/inspector/';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * invariant: the page runs only mnemo's own scripts and styles, loads nothing from elsewhere, builds no
 * HTML from strings (Trusted Types), and cannot be framed (test: src/inspector/inspector.test.ts "serves
 * the page with a strict Content-Security-Policy").
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

const escapeAttribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Every file of the page is text. */
interface StaticFile {
  body: string;
  type: string;
}

function readAssets(): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(UI_DIR, { recursive: true, encoding: 'utf8' })) {
    const type = TYPES[extname(name)];
    if (type === undefined || name.endsWith('.test.js')) continue;
    files.set(ASSET_PREFIX + name.split(sep).join('/'), {
      body: readFileSync(join(UI_DIR, name), 'utf8'),
      type,
    });
  }
  return files;
}

export function createInspector(options: InspectorOptions): HttpPages {
  const files = readAssets();
  const page = files.get(`${ASSET_PREFIX}index.html`);
  if (!page) throw new Error(`the inspector's index.html is missing from ${UI_DIR}`);
  files.delete(`${ASSET_PREFIX}index.html`);
  const methods = [...options.table.values()].map((def) => `${def.name}:${def.access}`).join(' ');
  const html = page.body
    .replace('{{methods}}', () => escapeAttribute(methods))
    .replace('{{auth}}', () => options.auth);
  files.set('/', { body: html, type: page.type });
  return {
    has: (path) => files.has(path),
    serve(path) {
      const file = files.get(path);
      if (!file) return null;
      return new Response(file.body, { status: 200, headers: { ...HEADERS, 'content-type': file.type } });
    },
    mayCall: pageMayCall,
  };
}
