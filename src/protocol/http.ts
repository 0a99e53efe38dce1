// HTTP face: POST /rpc with the socket's envelope, GET /health; Host, Origin and the bearer token are
// checked before every route, and connections, time and answer sizes are bounded.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isLoopback } from '../config.js';
import { isMemoryError, MemoryError, type ErrorCode } from '../errors.js';
import type { Logger } from '../log.js';
import {
  errorResponse,
  handleEnvelope,
  type HandleOptions,
  type RequestId,
  type RpcResponse,
} from './envelope.js';
import {
  bearerToken,
  boundAuthorities,
  createHostCheck,
  isJsonMediaType,
  originAuthority,
  type Authenticate,
} from './http-guard.js';
import { parseJson } from './jsonl.js';
import type { MethodDef, MethodTable } from './method.js';
import { LOCAL_PRINCIPAL, type Principal } from './principal.js';
import { httpStatusOf } from './wire-errors.js';

export interface HttpAppOptions {
  table: MethodTable;
  /** How a bearer token becomes a principal; `off`: no token is asked and every call acts for all owners. */
  authenticate: Authenticate | 'off';
  /** The address the app answers as: `Host` and `Origin` must name it, localhost or an allowed host. */
  host: string;
  port: number;
  /** MNEMO_HTTP_ALLOWED_HOSTS: `name` (any port) or `name:port`, lower case. */
  allowedHosts?: readonly string[];
  maxBodyBytes: number;
  /** A larger answer is replaced by RESPONSE_TOO_LARGE. */
  maxResponseBytes: number;
  log: Logger;
  handleOptions?: HandleOptions;
  /** The MCP endpoint (`mcp/http.ts`), served at /mcp behind the same checks as every route. */
  mcp?: (request: Request, principal: Principal) => Promise<Response>;
  /** The web inspector's pages (`inspector/inspector.ts`). */
  pages?: HttpPages;
}

/** Static pages served by GET, and what a call sent from a page (a request with an Origin) may do. */
export interface HttpPages {
  /** Whether GET `path` is a static file: served without a token, so it must hold no data. */
  has(path: string): boolean;
  serve(path: string): Response | null;
  mayCall(def: MethodDef | undefined, params: unknown): boolean;
}

export interface HttpServerOptions extends HttpAppOptions {
  /** Beyond it a new connection is closed at once. */
  maxConnections: number;
  /** Node's headersTimeout, requestTimeout and keepAliveTimeout: a slow client gets 408 and is cut. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long close() waits for running requests before cutting connections. */
  closeGraceMs?: number;
}

export interface HttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

type HttpEnv = { Variables: { principal: Principal | null } };

/** Who calls /health without a token: no owner at all, so the answer says nothing about any. */
const ANONYMOUS: Principal = Object.freeze({ kind: 'scoped', name: 'anonymous', owners: [] });
const CLOSE_GRACE_MS = 10_000;

type Body = { ok: true; text: string } | { ok: false; why: 'too-large' | 'cut' };

/**
 * The body as text; `too-large` once it is known to exceed maxBytes (declared or counted); `cut` when the
 * connection ended first (the client left, or requestTimeout cut it).
 */
async function readBody(request: Request, maxBytes: number): Promise<Body> {
  if (Number(request.headers.get('content-length')) > maxBytes) return { ok: false, why: 'too-large' };
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: null, value: undefined }));
    if (done === null) return { ok: false, why: 'cut' };
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, why: 'too-large' };
    }
    chunks.push(value);
  }
  return { ok: true, text: new TextDecoder().decode(Buffer.concat(chunks)) };
}

/** Whether a page may send this parsed envelope (anything malformed is answered by the envelope). */
function pageMayCall(pages: HttpPages, table: MethodTable, raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return true;
  const { method, params } = raw as { method?: unknown; params?: unknown };
  return pages.mayCall(typeof method === 'string' ? table.get(method) : undefined, params);
}

interface AppState {
  closing(): boolean;
  /** The bound `host:port` names; known once the server listens. */
  authorities(): readonly string[];
}

function buildApp(options: HttpAppOptions, state: AppState): Hono<HttpEnv> {
  const { table, authenticate, maxBodyBytes, maxResponseBytes, log } = options;
  const handleOptions: HandleOptions = {
    ...options.handleOptions,
    onError: (error, method) => {
      options.handleOptions?.onError?.(error, method);
      if (!isMemoryError(error)) log.error({ err: error, method }, 'method failed');
    },
  };
  const isOwnHost = createHostCheck(state.authorities, options.allowedHosts ?? []);

  // invariant: no answer is larger than maxResponseBytes (test: http.test.ts "replaces an answer over
  // maxResponseBytes").
  const reply = (c: Context, id: RequestId, value: unknown, status: number): Response => {
    let text = JSON.stringify(value);
    const bytes = Buffer.byteLength(text);
    if (bytes > maxResponseBytes) {
      log.warn({ bytes, maxResponseBytes }, 'http answer too large');
      const error = new MemoryError(
        'RESPONSE_TOO_LARGE',
        `the response would be ${bytes} bytes, over the limit of ${maxResponseBytes}`,
        { bytes, maxResponseBytes },
      );
      text = JSON.stringify(errorResponse(id, error));
      status = httpStatusOf('RESPONSE_TOO_LARGE');
    }
    return c.body(text, status as ContentfulStatusCode, { 'content-type': 'application/json' });
  };
  const send = (c: Context, response: RpcResponse): Response =>
    reply(c, response.id, response, response.ok ? 200 : httpStatusOf(response.error.code));
  const fail = (c: Context, code: ErrorCode, message?: string, data?: Record<string, unknown>): Response =>
    send(c, errorResponse(null, new MemoryError(code, message, data)));
  /** A refused request: its body is never read, so its connection is not reused. */
  const refuse = (c: Context, code: ErrorCode, message: string): Response => {
    c.header('Connection', 'close');
    return fail(c, code, message);
  };

  const app = new Hono<HttpEnv>();
  app.use('*', async (c, next) => {
    if (state.closing()) {
      c.header('Connection', 'close');
      return fail(c, 'SHUTTING_DOWN');
    }
    await next();
    // A request that was running when close() began must not keep its connection alive.
    if (state.closing()) c.header('Connection', 'close');
  });

  // invariant: a page of another site, or one reached through a rebound DNS name, is refused before any
  // route runs (test: http.test.ts "regression for issue 8: refuses what a web page can send").
  app.use('*', async (c, next) => {
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    if (!isOwnHost(host)) return refuse(c, 'FORBIDDEN', `this server does not answer to the host ${host}`);
    const origin = c.req.header('origin');
    const from = origin === undefined ? undefined : originAuthority(origin);
    if (from === null || (from !== undefined && !isOwnHost(from))) {
      return refuse(c, 'FORBIDDEN', 'requests from another origin are refused');
    }
    await next();
  });

  const { pages } = options;
  // invariant: with authentication on, only GET /health and the inspector's static files (which hold no
  // data) answer without a valid bearer token (tests: http.test.ts "requires the bearer token on every
  // route but a minimal /health", src/inspector/inspector.test.ts "serves its files without a token").
  app.use('*', async (c, next) => {
    if (authenticate === 'off') {
      c.set('principal', LOCAL_PRINCIPAL);
      return next();
    }
    const header = c.req.header('authorization');
    const token = header === undefined ? null : bearerToken(header);
    const principal = token === null ? null : await authenticate(token);
    const open =
      header === undefined &&
      c.req.method === 'GET' &&
      (c.req.path === '/health' || pages?.has(c.req.path) === true);
    if (principal === null && !open) {
      c.header('WWW-Authenticate', 'Bearer');
      return refuse(c, 'UNAUTHORIZED', 'a valid Authorization: Bearer <token> header is required');
    }
    c.set('principal', principal);
    await next();
  });

  const { mcp } = options;
  if (mcp) {
    // invariant: an MCP answer is bounded like any other (test: test/mcp-http.test.ts "…maxResponseBytes").
    app.all('/mcp', async (c) => {
      if (pages && c.req.header('origin') !== undefined) {
        return fail(c, 'FORBIDDEN', 'a web page may not call /mcp');
      }
      const response = await mcp(c.req.raw, c.get('principal') ?? ANONYMOUS);
      const text = await response.text();
      const bytes = Buffer.byteLength(text);
      if (bytes <= maxResponseBytes) return new Response(text, response);
      log.warn({ bytes, maxResponseBytes }, 'mcp answer too large');
      return fail(c, 'RESPONSE_TOO_LARGE', `the response would be ${bytes} bytes`, {
        bytes,
        maxResponseBytes,
      });
    });
  }

  app.post('/rpc', async (c) => {
    if (!isJsonMediaType(c.req.header('content-type'))) {
      return refuse(c, 'UNSUPPORTED_MEDIA_TYPE', 'the request body must be Content-Type: application/json');
    }
    const body = await readBody(c.req.raw, maxBodyBytes);
    if (!body.ok && body.why === 'cut') return refuse(c, 'INVALID_REQUEST', 'the request body was cut off');
    if (!body.ok) {
      c.header('Connection', 'close');
      return fail(c, 'REQUEST_TOO_LARGE', `the request body exceeds ${maxBodyBytes} bytes`, { maxBodyBytes });
    }
    const parsed = parseJson(body.text);
    if (!parsed.ok) return fail(c, 'INVALID_JSON', `invalid JSON: ${parsed.message}`);
    if (pages && c.req.header('origin') !== undefined && !pageMayCall(pages, table, parsed.value)) {
      return fail(c, 'FORBIDDEN', 'a web page may only read, and decide suggestions');
    }
    const principal = c.get('principal') ?? ANONYMOUS;
    return send(
      c,
      await handleEnvelope(table, parsed.value, { transport: 'http', principal }, handleOptions),
    );
  });

  // The catalog's own GET routes (GET /v2/attention, GET /v2/memory/requests/:id): params from the path and
  // the query string; a method with an owner param takes the token's owner when it has exactly one.
  for (const def of table.values()) {
    if (def.http?.method !== 'GET') continue;
    const { name, owner: rule } = def;
    app.get(def.http.path, async (c) => {
      const principal = c.get('principal') ?? ANONYMOUS;
      const params: Record<string, unknown> = { ...c.req.query(), ...c.req.param() };
      const sole =
        principal.kind === 'scoped' && principal.owners.length === 1 ? principal.owners[0] : undefined;
      if (params.owner === undefined && rule === 'param' && sole !== undefined && !sole.endsWith('/*')) {
        params.owner = sole;
      }
      const envelope = { id: null, method: name, params };
      return send(c, await handleEnvelope(table, envelope, { transport: 'http', principal }, handleOptions));
    });
  }

  app.get('/health', async (c) => {
    const principal = c.get('principal');
    const response = await handleEnvelope(
      table,
      { id: null, method: 'health', params: {} },
      { transport: 'http', principal: principal ?? ANONYMOUS },
      handleOptions,
    );
    if (!response.ok) return send(c, response);
    const health = response.result as { status?: unknown; version?: unknown };
    // Without a token: only that mnemo is up, and which version.
    return reply(c, null, principal ? health : { status: health.status, version: health.version }, 200);
  });

  if (pages) app.get('*', (c) => pages.serve(c.req.path) ?? fail(c, 'NOT_FOUND', `no page ${c.req.path}`));

  app.notFound((c) => fail(c, 'NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`));
  // A store fault while a token is looked up is STORAGE_UNAVAILABLE (retryable), not an internal error.
  app.onError((error, c) => {
    if (isMemoryError(error)) return send(c, errorResponse(null, error));
    log.error({ err: error }, 'http request failed');
    return fail(c, 'INTERNAL');
  });
  return app;
}

/** The routes alone, for in-process `app.request()` calls (answering as options.host:options.port). */
export const createHttpApp = (options: HttpAppOptions): Hono<HttpEnv> =>
  buildApp(options, {
    closing: () => false,
    authorities: () => boundAuthorities(options.host, options.port),
  });

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const known = ['EADDRINUSE', 'EADDRNOTAVAIL', 'EACCES', 'ENOTFOUND'].includes(error.code ?? '');
      reject(
        known
          ? new MemoryError(
              'CONFIG_INVALID',
              `cannot listen on ${host}:${port}: ${error.code}`,
              { host, port },
              {
                cause: error,
              },
            )
          : error,
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const { host, port, log, maxConnections } = options;
  // invariant: HTTP is never served without a bearer token unless auth is off on loopback (tests:
  // http.test.ts "refuses a public host without authentication", cli.test.ts "refuses MNEMO_HTTP_AUTH=off…").
  if (options.authenticate === 'off' && !isLoopback(host)) {
    throw new MemoryError('HTTP_TOKEN_REQUIRED', `serving ${host} requires a bearer token`, { host });
  }
  let closing = false;
  let authorities: readonly string[] = [];
  const app = buildApp(options, { closing: () => closing, authorities: () => authorities });
  const server = createAdaptorServer({
    fetch: app.fetch,
    serverOptions: {
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      keepAliveTimeout: options.keepAliveTimeoutMs,
      // Node checks the two timeouts only this often (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, options.headersTimeoutMs),
    },
  }) as Server;
  // invariant: at most maxConnections connections are open; more are closed on arrival (test: http.test.ts
  // "closes connections beyond maxConnections").
  server.maxConnections = maxConnections;
  server.on('drop', () => log.warn({ maxConnections }, 'http connection refused: too many connections'));
  await listen(server, port, host);
  const actual = (server.address() as AddressInfo).port;
  authorities = boundAuthorities(host, actual);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
  log.info({ url }, 'http listening');

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      closing = true;
      const force = setTimeout(() => server.closeAllConnections(), options.closeGraceMs ?? CLOSE_GRACE_MS);
      server.close(() => {
        clearTimeout(force);
        log.info({ url }, 'http closed');
        resolve();
      });
      server.closeIdleConnections();
    });
    return closed;
  };
  return { url, port: actual, close };
}
