// A running mnemo: the service, its socket and HTTP faces and background workers, with graceful shutdown.
import {
  createClientActivity,
  createTurnGate,
  OBSERVATION_WORKER,
  trackClientWrites,
  type ClientActivity,
} from './activity.js';
import type { Config } from './config.js';
import { createEmbeddingWorker } from './embed/embed.js';
import type { Logger } from './log.js';
import { createInspector } from './inspector/inspector.js';
import { createInjectRuntime } from './inject/runtime.js';
import { createMcpHttpHandler } from './mcp/http.js';
import type { HandleOptions } from './protocol/envelope.js';
import { tokenAuthenticator, type Authenticate } from './protocol/http-guard.js';
import { ensureHttpToken } from './protocol/http-token.js';
import { startHttpServer, type HttpServer } from './protocol/http.js';
import type { MethodTable } from './protocol/method.js';
import { createMethodTable } from './protocol/methods.js';
import { startSocketServer, type SocketServer } from './protocol/socket.js';
import { loadDictionary } from './recall/recall.js';
import { ORGANIZE_WORKER, startOrganizeWorker } from './organize/worker.js';
import { createProjectionWorker, PROJECTION_WORKER } from './projection/projection.js';
import { openMemory, type MemoryService } from './service.js';
import { tenantAuthenticator } from './tokens/tokens.js';
import { createObservationWorker } from './worker.js';

export interface RunningServer {
  service: MemoryService;
  table: MethodTable;
  /** Client writes in flight; the background workers yield to them. */
  activity: ClientActivity;
  socket: SocketServer;
  http: HttpServer | null;
  /** Where the HTTP token is kept, when it is the data directory's `http-token` file. */
  httpTokenFile: string | null;
  close(): Promise<void>;
}

/**
 * Who a bearer token is: the server's own token (MNEMO_HTTP_TOKEN, else the data directory's file, created
 * on first start) acts for every owner; any other is looked up among the tenant tokens on each request.
 */
async function httpAuthentication(
  config: Config,
  service: MemoryService,
): Promise<{ authenticate: Authenticate | 'off'; file: string | null }> {
  if (config.httpAuth === 'off') return { authenticate: 'off', file: null };
  const own = config.httpToken
    ? { token: config.httpToken, path: null }
    : await ensureHttpToken(config.dataDir);
  const server = tokenAuthenticator(own.token);
  const tenant = tenantAuthenticator(service.driver, () => service.now());
  return {
    authenticate: async (token) => (await server(token)) ?? tenant(token),
    file: own.path,
  };
}

export async function startServer(
  config: Config,
  log: Logger,
  handleOptions?: HandleOptions,
): Promise<RunningServer> {
  const service = await openMemory({ config, log });
  const activity = createClientActivity();
  const inject = createInjectRuntime(service);
  // Requests a stopped process left pending past their run limit are failed, never left pending for ever.
  const abandoned = await inject.recover();
  if (abandoned > 0)
    log.info({ requests: abandoned }, 'recall requests left pending by a stopped process failed');
  const table = trackClientWrites(
    createMethodTable(service, { activity, inject, projection: true }),
    activity,
  );
  const options: HandleOptions = {
    ...handleOptions,
    onError: (error, method) => {
      if (!(error instanceof Error && error.name === 'MemoryError'))
        log.error({ err: error, method }, 'method failed');
    },
  };
  let socket: SocketServer | undefined;
  let http: HttpServer | null = null;
  let httpTokenFile: string | null = null;
  try {
    socket = await startSocketServer({
      path: config.socketPath,
      table,
      maxLineBytes: config.limits.maxLineBytes,
      idleMs: config.limits.idleMs,
      maxConnections: config.limits.maxConnections,
      log,
      handleOptions: options,
    });
    if (config.http) {
      const { authenticate, file } = await httpAuthentication(config, service);
      httpTokenFile = file;
      http = await startHttpServer({
        host: config.http.host,
        port: config.http.port,
        authenticate,
        allowedHosts: config.httpAllowedHosts,
        table,
        maxBodyBytes: config.limits.maxLineBytes,
        maxConnections: config.limits.maxConnections,
        ...config.httpLimits,
        log,
        handleOptions: options,
        mcp: createMcpHttpHandler({
          table,
          defaultOwner: config.defaultOwner,
          maxBodyBytes: config.limits.maxLineBytes,
          log,
          handleOptions: options,
        }),
        pages: createInspector({ table, auth: config.httpAuth === 'off' ? 'off' : 'token' }),
      });
    }
  } catch (error) {
    await socket?.close();
    await service.close();
    throw error;
  }
  const openSocket = socket;
  // invariant: with --observer external no batch is claimed here; the worker stops before the store closes
  // (tests: test/observe/server.test.ts).
  const worker =
    config.observer === 'external'
      ? null
      : createObservationWorker(service, config.model, {
          gate: createTurnGate({ activity, name: OBSERVATION_WORKER }),
        });
  worker?.start();
  // invariant: the embedding worker runs only with a provider configured and stops before the store
  // closes (test: test/embed/server.test.ts).
  const embedder = service.embedding
    ? createEmbeddingWorker({
        driver: service.driver,
        provider: service.embedding.provider,
        log,
        gate: createTurnGate({ activity, name: 'embedding' }),
      })
    : null;
  if (embedder) log.info({ model: service.embedding?.model }, 'embedding worker started');
  embedder?.start();
  // The bilingual dictionary is read on the first recall that needs it; read it now instead, once the
  // faces listen, so that no client waits for it (recall/dictionary.ts).
  const warm = setTimeout(() => {
    try {
      loadDictionary();
    } catch (error) {
      log.warn({ err: error }, 'bilingual dictionary not loaded; recall translates no terms until it is');
    }
  }, 0);
  warm.unref();
  // invariant: with --organizer external no organize job is claimed here; the worker stops before the store
  // closes (test: test/organize/server.test.ts).
  const organizer =
    config.organizer === 'external'
      ? null
      : startOrganizeWorker(service, config, { gate: createTurnGate({ activity, name: ORGANIZE_WORKER }) });
  // Objects' Markdown files follow the database: after each write, and every few seconds for what other
  // processes and the workers changed (projection/sweep.ts).
  const projection = createProjectionWorker(
    { driver: service.driver, dataDir: config.dataDir, now: service.now },
    { log, gate: createTurnGate({ activity, name: PROJECTION_WORKER }) },
  );
  projection.start();
  let closing: Promise<void> | undefined;
  return {
    service,
    table,
    activity,
    socket: openSocket,
    http,
    httpTokenFile,
    close() {
      // invariant: work already acknowledged is finished before the store closes (test: graceful shutdown).
      closing ??= (async () => {
        clearTimeout(warm);
        await Promise.all([
          openSocket.close(),
          http?.close(),
          worker?.stop(),
          embedder?.stop(),
          organizer?.stop(),
          projection.stop(),
        ]);
        await inject.close();
        await service.close();
      })();
      return closing;
    },
  };
}
