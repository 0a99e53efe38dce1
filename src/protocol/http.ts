// HTTP face: POST /rpc with the socket's envelope, GET /health; a bearer token guards every route when set.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONValue } from 'hono/utils/types';
import { isLoopback } from '../config.js';
import { isMemoryError, MemoryError, type ErrorCode } from '../errors.js';
import type { Logger } from '../log.js';
import { errorResponse, handleEnvelope, type HandleOptions, type RpcResponse } from './envelope.js';
import { parseJson } from './jsonl.js';
import type { CallContext, MethodTable } from './method.js';
import { LOCAL_PRINCIPAL } from './principal.js';
import { httpStatusOf } from './wire-errors.js';

export interface HttpAppOptions {
  token?: string;
  table: MethodTable;
  maxBodyBytes: number;
  log: Logger;
  handleOptions?: HandleOptions;
}

export interface HttpServerOptions extends HttpAppOptions {
  host: string;
  port: number;
  /** How long close() waits for running requests before cutting connections. */
  closeGraceMs?: number;
}

export interface HttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const CONTEXT: CallContext = { transport: 'http', principal: LOCAL_PRINCIPAL };
const CLOSE_GRACE_MS = 10_000;

const send = (c: Context, response: RpcResponse): Response =>
  c.json(response, (response.ok ? 200 : httpStatusOf(response.error.code)) as ContentfulStatusCode);

const fail = (c: Context, code: ErrorCode, message?: string, data?: Record<string, unknown>): Response =>
  send(c, errorResponse(null, new MemoryError(code, message, data)));

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Compares digests so the time taken says nothing about the token, not even its length. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const presented = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
  return timingSafeEqual(digest(presented ?? ''), expected) && presented !== undefined;
}

/** The body as text, or null once it is known to exceed maxBytes (declared or counted). */
async function readBody(request: Request, maxBytes: number): Promise<string | null> {
  if (Number(request.headers.get('content-length')) > maxBytes) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function buildApp(options: HttpAppOptions, isClosing: () => boolean): Hono {
  const { token, table, maxBodyBytes, log } = options;
  const handleOptions: HandleOptions = {
    ...options.handleOptions,
    onError: (error, method) => {
      options.handleOptions?.onError?.(error, method);
      if (!isMemoryError(error)) log.error({ err: error, method }, 'method failed');
    },
  };
  const app = new Hono();

  app.use('*', async (c, next) => {
    if (isClosing()) {
      c.header('Connection', 'close');
      return fail(c, 'SHUTTING_DOWN');
    }
    await next();
    // A request that was running when close() began must not keep its connection alive.
    if (isClosing()) c.header('Connection', 'close');
  });

  if (token) {
    const expected = digest(token);
    app.use('*', async (c, next) => {
      if (!bearerMatches(c.req.header('authorization'), expected)) {
        c.header('WWW-Authenticate', 'Bearer');
        return fail(c, 'UNAUTHORIZED');
      }
      await next();
    });
  }

  app.post('/rpc', async (c) => {
    const body = await readBody(c.req.raw, maxBodyBytes);
    if (body === null) {
      c.header('Connection', 'close');
      return fail(c, 'REQUEST_TOO_LARGE', `the request body exceeds ${maxBodyBytes} bytes`, { maxBodyBytes });
    }
    const parsed = parseJson(body);
    if (!parsed.ok) return fail(c, 'INVALID_JSON', `invalid JSON: ${parsed.message}`);
    return send(c, await handleEnvelope(table, parsed.value, CONTEXT, handleOptions));
  });

  app.get('/health', async (c) => {
    const response = await handleEnvelope(
      table,
      { id: null, method: 'health', params: {} },
      CONTEXT,
      handleOptions,
    );
    return response.ok ? c.json((response.result ?? null) as JSONValue, 200) : send(c, response);
  });

  app.notFound((c) => fail(c, 'NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`));
  app.onError((error, c) => {
    log.error({ err: error }, 'http request failed');
    return fail(c, 'INTERNAL');
  });
  return app;
}

/** The routes alone, for in-process `app.request()` calls. */
export const createHttpApp = (options: HttpAppOptions): Hono => buildApp(options, () => false);

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
  const { host, port, log } = options;
  // invariant: a non-loopback address is never served without a token (http.test.ts "refuses a public host").
  if (!options.token && !isLoopback(host)) {
    throw new MemoryError('HTTP_TOKEN_REQUIRED', `binding ${host} requires MNEMO_HTTP_TOKEN`, { host });
  }
  let closing = false;
  const app = buildApp(options, () => closing);
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await listen(server, port, host);
  const actual = (server.address() as AddressInfo).port;
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
