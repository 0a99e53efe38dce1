// JSON-lines over a Unix socket: the listener, its socket file, and limits on connections, lines and answers.
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { isMemoryError, MemoryError } from '../errors.js';
import type { Logger } from '../log.js';
import type { HandleOptions } from './envelope.js';
import type { MethodTable } from './method.js';
import {
  notice,
  serveConnection,
  shut,
  type Connection,
  type ConnectionLimits,
} from './socket-connection.js';

export interface SocketServerOptions {
  path: string;
  table: MethodTable;
  maxLineBytes: number;
  idleMs: number;
  maxConnections: number;
  log: Logger;
  handleOptions?: HandleOptions;
  /** From the first byte of a request line to its newline; default idleMs. */
  lineTimeoutMs?: number;
  /** Unsent answer bytes per connection past which it is closed; default MAX_BUFFERED_BYTES. */
  maxBufferedBytes?: number;
}

export interface SocketServer {
  path: string;
  close(): Promise<void>;
  connections(): number;
}

/** sun_path holds 108 bytes on Linux and 104 on macOS and the BSDs, NUL included. */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;
/** A connection that leaves more answer bytes than this unread is closed (a single answer may be larger). */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const CLOSE_GRACE_MS = 10_000;
const PROBE_TIMEOUT_MS = 1_000;
/** Socket files are created 0600: the umask clears every bit but the owner's read and write. */
const SOCKET_UMASK = 0o177;

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

/** Listens on path; the socket file is created 0600, with no wider mode in between. */
export function listenPrivately(server: Server, path: string): Promise<void> {
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
    // invariant: the socket file never exists with a mode wider than 0600 (socket.test.ts "regression for
    // issue 8: binds the socket file 0600 under a process umask of 0"). The umask is process-wide, but
    // listen() on a path binds synchronously before it returns, so only this bind runs under it.
    const umask = process.umask(SOCKET_UMASK);
    try {
      server.listen(path, () => {
        server.off('error', onError);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
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
  const limits: ConnectionLimits = {
    maxLineBytes,
    idleMs,
    lineTimeoutMs: options.lineTimeoutMs ?? idleMs,
    maxBufferedBytes: options.maxBufferedBytes ?? MAX_BUFFERED_BYTES,
  };
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

  const accept = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', (error) => log.debug({ err: error }, 'socket connection error'));
    if (closing || conns.size >= maxConnections) {
      if (!closing) log.warn({ maxConnections }, 'socket connection refused: too many connections');
      socket.write(closing ? notice('SHUTTING_DOWN') : notice('TOO_MANY_CONNECTIONS'));
      shut(socket, idleMs);
      return;
    }
    const conn = serveConnection(socket, { table, limits, log, handleOptions, closing: () => closing });
    conns.add(conn);
    socket.on('close', () => conns.delete(conn));
  };

  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await clearStaleSocket(path);
  const server = createServer({ allowHalfOpen: true }, accept);
  await listenPrivately(server, path);
  let identity: { dev: number; ino: number };
  try {
    // A second wall, for platforms whose bind does not apply the umask to socket files.
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
      for (const conn of conns) if (conn.running() === 0) conn.end(notice('SHUTTING_DOWN'));
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
