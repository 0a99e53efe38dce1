// Typed client for a running mnemo: one pipelined Unix-socket connection, or HTTP.
import { createConnection, type Socket } from 'node:net';
import { ERROR_CODES, MemoryError, type ErrorCode } from './errors.js';
import { readHttpToken } from './protocol/http-token.js';
import { createLineReader, encodeLine, parseJson } from './protocol/jsonl.js';
import { probeSocketPath } from './protocol/socket.js';

export interface MnemoClient {
  call<T = unknown>(method: string, params?: unknown): Promise<T>;
  close(): Promise<void>;
}

export interface SocketClientOptions {
  /** Per call; 0 waits forever. */
  timeoutMs?: number;
}

export interface HttpClientOptions {
  token?: string;
  /** Without a token: the server's data directory, whose `http-token` file holds it. */
  dataDir?: string;
  /** Per call; 0 waits forever. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Responses are not bounded by the server; this only stops a runaway line from exhausting memory. */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A wire error as a MemoryError; codes this build does not know become INTERNAL with the message kept. */
export function fromWireError(error: unknown): MemoryError {
  if (!isObject(error)) return new MemoryError('INTERNAL', 'malformed error response');
  const message = typeof error.message === 'string' ? error.message : undefined;
  const data = isObject(error.data) ? error.data : undefined;
  const code = typeof error.code === 'string' ? error.code : '';
  if (Object.hasOwn(ERROR_CODES, code)) return new MemoryError(code as ErrorCode, message, data);
  return new MemoryError('INTERNAL', message, { ...data, wireCode: code });
}

/** The result of a response envelope, or its error thrown. */
function unwrap<T>(envelope: unknown): T {
  if (!isObject(envelope) || typeof envelope.ok !== 'boolean') {
    throw new MemoryError('INTERNAL', 'malformed response envelope');
  }
  if (envelope.ok) return envelope.result as T;
  throw fromWireError(envelope.error);
}

/** Errors of a connection that was never made: nothing was sent, so nothing ran. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOENT', 'ENOTFOUND', 'EAI_AGAIN', 'EACCES']);

/** `delivered: false` when the request never reached a server (safe to send again, even a write). */
const unavailable = (target: string, cause: unknown, why?: string): MemoryError => {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return new MemoryError(
    'SERVER_UNAVAILABLE',
    `no mnemo server at ${target}${why ? `: ${why}` : code ? ` (${code})` : ''}`,
    {
      target,
      ...(code ? { errno: code } : {}),
      ...(why === undefined && code && NOT_CONNECTED.has(code) ? { delivered: false } : {}),
    },
    { cause },
  );
};

/** True when something accepts connections on the socket at path. */
export async function probeSocket(path: string): Promise<boolean> {
  return (await probeSocketPath(path)).state === 'live';
}

interface Pending {
  line: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout | undefined;
  /** The connection the request was written to. */
  via: Socket | undefined;
  /** Resent once after the server closed an idle connection, which never runs unread requests. */
  retried: boolean;
}

export function createSocketClient(path: string, options: SocketClientOptions = {}): MnemoClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let socket: Socket | undefined;
  let closed = false;
  let drained: (() => void) | undefined;

  const settle = (id: number): Pending | undefined => {
    const entry = pending.get(id);
    if (!entry) return undefined;
    pending.delete(id);
    clearTimeout(entry.timer);
    if (pending.size === 0) {
      // An idle connection does not keep the process alive.
      socket?.unref();
      drained?.();
    }
    return entry;
  };

  const transmit = (entry: Pending): void => {
    socket ??= connect();
    socket.ref();
    entry.via = socket;
    socket.write(entry.line);
  };

  /** Settles every call written to a connection that is gone. */
  const drop = (via: Socket, error: MemoryError, resend = false): void => {
    if (socket === via) socket = undefined;
    via.destroy();
    for (const [id, entry] of [...pending]) {
      if (entry.via !== via) continue;
      if (resend && !entry.retried) {
        entry.retried = true;
        transmit(entry);
      } else {
        settle(id)?.reject(error);
      }
    }
  };

  const onMessage = (via: Socket, message: unknown): void => {
    const id = isObject(message) ? message.id : undefined;
    if (typeof id === 'number' && pending.has(id)) {
      const entry = settle(id);
      try {
        entry?.resolve(unwrap(message));
      } catch (error) {
        entry?.reject(error);
      }
    } else if (isObject(message) && message.ok === false && message.id === null) {
      // A notice without an id (idle timeout, too large, shutting down) ends the whole connection.
      const error = fromWireError(message.error);
      drop(via, error, error.code === 'IDLE_TIMEOUT');
    }
  };

  const connect = (): Socket => {
    const current = createConnection({ path });
    let connected = false;
    const reader = createLineReader({
      maxLineBytes: MAX_RESPONSE_BYTES,
      onLine: (line) => {
        const parsed = parseJson(line);
        if (parsed.ok) onMessage(current, parsed.value);
      },
      onOverflow: () =>
        drop(current, new MemoryError('INTERNAL', `a response exceeded ${MAX_RESPONSE_BYTES} bytes`)),
    });
    current.on('connect', () => (connected = true));
    current.on('data', (chunk: Buffer) => reader.push(chunk));
    current.on('error', (error) =>
      drop(current, unavailable(path, error, connected ? 'connection lost' : undefined)),
    );
    current.on('close', () =>
      drop(current, unavailable(path, undefined, 'the server closed the connection')),
    );
    return current;
  };

  return {
    call<T>(method: string, params?: unknown): Promise<T> {
      if (closed) return Promise.reject(new MemoryError('SERVER_UNAVAILABLE', 'the client is closed'));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer =
          timeoutMs > 0
            ? setTimeout(
                () => settle(id)?.reject(unavailable(path, undefined, `no answer in ${timeoutMs} ms`)),
                timeoutMs,
              )
            : undefined;
        const line = encodeLine({ id, method, params: params ?? {} });
        const entry: Pending = {
          line,
          resolve: resolve as (value: unknown) => void,
          reject,
          timer,
          via: undefined,
          retried: false,
        };
        pending.set(id, entry);
        transmit(entry);
      });
    },
    /** Waits for running calls, then hangs up. */
    async close() {
      closed = true;
      if (pending.size > 0) await new Promise<void>((resolve) => (drained = resolve));
      const current = socket;
      socket = undefined;
      if (current && !current.destroyed) {
        await new Promise<void>((resolve) => {
          current.once('close', () => resolve());
          current.destroy();
        });
      }
    },
  };
}

export function createHttpClient(baseUrl: string, options: HttpClientOptions = {}): MnemoClient {
  const url = `${baseUrl.replace(/\/+$/, '')}/rpc`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let token = options.token ?? null;
  let nextId = 1;
  let closed = false;
  const headers = async (): Promise<Record<string, string>> => {
    // Read at each call until found: the server writes the file on its first start.
    if (token === null && options.dataDir !== undefined) token = await readHttpToken(options.dataDir);
    return {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    };
  };

  return {
    async call<T>(method: string, params?: unknown): Promise<T> {
      if (closed) throw new MemoryError('SERVER_UNAVAILABLE', 'the client is closed');
      const requestHeaders = await headers();
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: requestHeaders,
          body: JSON.stringify({ id: nextId++, method, params: params ?? {} }),
          signal: timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined,
        });
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause ?? error;
        const timedOut = (error as Error).name === 'TimeoutError';
        throw unavailable(baseUrl, cause, timedOut ? `no answer in ${timeoutMs} ms` : undefined);
      }
      const text = await response.text();
      const parsed = parseJson(text);
      if (!parsed.ok) {
        throw new MemoryError(
          'SERVER_UNAVAILABLE',
          `${baseUrl} answered HTTP ${response.status} without JSON`,
          {
            target: baseUrl,
            status: response.status,
          },
        );
      }
      return unwrap<T>(parsed.value);
    },
    async close() {
      closed = true;
    },
  };
}
