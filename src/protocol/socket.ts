// JSON-lines over a Unix socket: one request a line, answers by id, with size, idle and connection limits.
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { isMemoryError, MemoryError } from '../errors.js';
import type { Logger } from '../log.js';
import {
  errorResponse,
  handleEnvelope,
  type HandleOptions,
  type RequestId,
  type RpcResponse,
} from './envelope.js';
import { createLineReader, encodeLine, parseJson } from './jsonl.js';
import type { CallContext, MethodTable } from './method.js';
import { LOCAL_PRINCIPAL } from './principal.js';

export interface SocketServerOptions {
  path: string;
  table: MethodTable;
  maxLineBytes: number;
  idleMs: number;
  maxConnections: number;
  log: Logger;
  handleOptions?: HandleOptions;
}

export interface SocketServer {
  path: string;
  close(): Promise<void>;
  connections(): number;
}

/** sun_path holds 108 bytes on Linux and 104 on macOS and the BSDs, NUL included. */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;
/** Reading pauses while a connection has this many requests running. */
const MAX_IN_FLIGHT = 64;
const CLOSE_GRACE_MS = 10_000;
const PROBE_TIMEOUT_MS = 1_000;
const CONTEXT: CallContext = { transport: 'socket', principal: LOCAL_PRINCIPAL };

export type SocketProbe = { state: 'live' | 'stale' | 'absent' } | { state: 'unknown'; code: string };

/** Whether something accepts connections at path; a slow or overloaded listener counts as live. */
export function probeSocketPath(path: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<SocketProbe> {
  return new Promise((resolve) => {
    const socket = createConnection({ path });
    const done = (probe: SocketProbe): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(probe);
    };
    const timer = setTimeout(() => done({ state: 'live' }), timeoutMs);
    socket.once('connect', () => done({ state: 'live' }));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? 'UNKNOWN';
      if (code === 'ENOENT') done({ state: 'absent' });
      else if (code === 'ECONNREFUSED') done({ state: 'stale' });
      else if (code === 'EAGAIN') done({ state: 'live' });
      else done({ state: 'unknown', code });
    });
  });
}

async function clearStaleSocket(path: string): Promise<void> {
  const stat = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!stat) return;
  if (!stat.isSocket()) {
    throw new MemoryError('CONFIG_INVALID', `${path} exists and is not a socket`, {
      field: 'socketPath',
      path,
    });
  }
  const probe = await probeSocketPath(path);
  // invariant: an active instance's socket is never removed (socket.test.ts "refuses a live socket").
  if (probe.state === 'live') {
    throw new MemoryError('SOCKET_IN_USE', `another mnemo instance answers on ${path}`, { path });
  }
  if (probe.state === 'unknown') {
    throw new MemoryError('CONFIG_INVALID', `cannot check the socket at ${path}: ${probe.code}`, { path });
  }
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(
        error.code === 'EADDRINUSE'
          ? new MemoryError(
              'SOCKET_IN_USE',
              `another process bound ${path} first`,
              { path },
              { cause: error },
            )
          : error,
      );
    };
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

const requestIdOf = (value: unknown): RequestId => {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

const notice = (code: 'IDLE_TIMEOUT' | 'TOO_MANY_CONNECTIONS' | 'SHUTTING_DOWN', message?: string): string =>
  encodeLine(errorResponse(null, new MemoryError(code, message)));

interface Connection {
  socket: Socket;
  inFlight: number;
  /** No more requests are read; the socket ends once running ones have answered. */
  ending: boolean;
  idleTimer: NodeJS.Timeout | undefined;
}

export async function startSocketServer(options: SocketServerOptions): Promise<SocketServer> {
  const { path, table, maxLineBytes, idleMs, maxConnections, log } = options;
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new MemoryError(
      'CONFIG_INVALID',
      `socket path is ${bytes} bytes, over the OS limit of ${MAX_SOCKET_PATH_BYTES}; set MNEMO_SOCKET to a shorter path: ${path}`,
      { field: 'socketPath', path, bytes, max: MAX_SOCKET_PATH_BYTES },
    );
  }
  const handleOptions: HandleOptions = {
    ...options.handleOptions,
    onError: (error, method) => {
      options.handleOptions?.onError?.(error, method);
      if (!isMemoryError(error)) log.error({ err: error, method }, 'method failed');
    },
  };

  const sockets = new Set<Socket>();
  const conns = new Set<Connection>();
  let closing = false;
  let closed: Promise<void> | undefined;

  /** Half-closes, drains what the peer still sends, and destroys once it hangs up or lingers too long. */
  const shut = (socket: Socket): void => {
    if (socket.writableEnded) return;
    socket.end();
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), idleMs);
    socket.once('close', () => clearTimeout(timer));
  };

  const write = (conn: Connection, message: RpcResponse): void => {
    let line: string;
    try {
      line = encodeLine(message);
    } catch (error) {
      log.error({ err: error, id: message.id }, 'socket response is not serializable');
      line = encodeLine(errorResponse(message.id, error));
    }
    if (conn.socket.writable) conn.socket.write(line);
    updateFlow(conn);
  };

  const updateFlow = (conn: Connection): void => {
    const hold = !conn.ending && (conn.inFlight >= MAX_IN_FLIGHT || conn.socket.writableNeedDrain);
    if (hold) conn.socket.pause();
    else conn.socket.resume();
  };

  const armIdle = (conn: Connection): void => {
    clearTimeout(conn.idleTimer);
    conn.idleTimer = undefined;
    if (conn.ending || conn.inFlight > 0) return;
    conn.idleTimer = setTimeout(() => {
      log.debug({ idleMs }, 'socket connection idle');
      endConnection(conn, notice('IDLE_TIMEOUT', `no request for ${idleMs} ms`));
    }, idleMs);
  };

  const endConnection = (conn: Connection, line?: string): void => {
    if (conn.ending) return;
    conn.ending = true;
    clearTimeout(conn.idleTimer);
    if (line !== undefined && conn.socket.writable) conn.socket.write(line);
    if (conn.inFlight === 0) shut(conn.socket);
    else updateFlow(conn);
  };

  const settle = (conn: Connection): void => {
    if (conn.inFlight > 0) updateFlow(conn);
    else if (conn.ending) shut(conn.socket);
    else if (closing) endConnection(conn, notice('SHUTTING_DOWN'));
    else if (conn.socket.readableEnded) endConnection(conn);
    else {
      armIdle(conn);
      updateFlow(conn);
    }
  };

  const onLine = (conn: Connection, line: string): void => {
    const parsed = parseJson(line);
    if (!parsed.ok) {
      write(conn, errorResponse(null, new MemoryError('INVALID_JSON', `invalid JSON: ${parsed.message}`)));
      return;
    }
    if (closing) {
      write(conn, errorResponse(requestIdOf(parsed.value), new MemoryError('SHUTTING_DOWN')));
      return;
    }
    conn.inFlight++;
    clearTimeout(conn.idleTimer);
    const started = performance.now();
    void handleEnvelope(table, parsed.value, CONTEXT, handleOptions).then((response) => {
      conn.inFlight--;
      const code = response.ok ? undefined : response.error.code;
      log.debug(
        { id: response.id, code, ms: Math.round(performance.now() - started) },
        'socket request done',
      );
      write(conn, response);
      settle(conn);
    });
    updateFlow(conn);
  };

  const accept = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', (error) => log.debug({ err: error }, 'socket connection error'));
    if (closing || conns.size >= maxConnections) {
      if (!closing) log.warn({ maxConnections }, 'socket connection refused: too many connections');
      socket.write(closing ? notice('SHUTTING_DOWN') : notice('TOO_MANY_CONNECTIONS'));
      shut(socket);
      return;
    }
    const conn: Connection = { socket, inFlight: 0, ending: false, idleTimer: undefined };
    conns.add(conn);
    const reader = createLineReader({
      maxLineBytes,
      onLine: (line) => onLine(conn, line),
      onOverflow: () => {
        log.warn({ maxLineBytes }, 'socket request line too large');
        const error = new MemoryError('REQUEST_TOO_LARGE', `a request line exceeds ${maxLineBytes} bytes`, {
          maxLineBytes,
        });
        endConnection(conn, encodeLine(errorResponse(null, error)));
      },
    });
    socket.on('data', (chunk: Buffer) => {
      // invariant: once a connection ends, none of its unread requests run, so an idle notice is safe to
      // retry on (client.test.ts "resends a request the server dropped with an idle notice").
      if (conn.ending) return;
      clearTimeout(conn.idleTimer);
      reader.push(chunk);
      if (!conn.ending && conn.inFlight === 0) armIdle(conn);
    });
    socket.on('drain', () => updateFlow(conn));
    socket.on('end', () => {
      if (!conn.ending) reader.end();
      settle(conn);
    });
    socket.on('close', () => {
      clearTimeout(conn.idleTimer);
      conns.delete(conn);
    });
    armIdle(conn);
  };

  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await clearStaleSocket(path);
  const server = createServer({ allowHalfOpen: true }, accept);
  await listen(server, path);
  let identity: { dev: number; ino: number };
  try {
    await chmod(path, 0o600);
    identity = await lstat(path);
  } catch (error) {
    server.close();
    throw error;
  }
  log.info({ path }, 'socket listening');

  const removeIfOurs = async (): Promise<void> => {
    // libuv unlinks the path when the server closes; this covers platforms where it does not.
    const stat = await lstat(path).catch(() => null);
    if (stat && stat.dev === identity.dev && stat.ino === identity.ino)
      await unlink(path).catch(() => undefined);
  };

  const close = (): Promise<void> => {
    closed ??= (async () => {
      closing = true;
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const conn of conns) if (conn.inFlight === 0) endConnection(conn, notice('SHUTTING_DOWN'));
      const force = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, CLOSE_GRACE_MS);
      await serverClosed;
      clearTimeout(force);
      await removeIfOurs();
      log.info({ path }, 'socket closed');
    })();
    return closed;
  };

  return { path, close, connections: () => conns.size };
}
