// One JSON-lines socket connection: lines read in order, run within the connection's limits, answered by id.
import type { Socket } from 'node:net';
import { MemoryError, type ErrorCode } from '../errors.js';
import type { Logger } from '../log.js';
import {
  errorResponse,
  handleEnvelope,
  type HandleOptions,
  type RequestId,
  type RpcResponse,
} from './envelope.js';
import { createLineReader, encodeLine, parseJson } from './jsonl.js';
import type { CallContext, MethodDef, MethodTable } from './method.js';
import { LOCAL_PRINCIPAL } from './principal.js';

export interface ConnectionLimits {
  maxLineBytes: number;
  /** No request for this long closes the connection; so does a peer that reads no answer for this long. */
  idleMs: number;
  /** From the first byte of a request line to its newline. */
  lineTimeoutMs: number;
  /** An answer that finds more unsent bytes than this closes the connection instead of being written. */
  maxBufferedBytes: number;
}

export interface ConnectionOptions {
  table: MethodTable;
  limits: ConnectionLimits;
  log: Logger;
  handleOptions: HandleOptions;
  /** The server is closing: requests are refused, and a connection with none running says goodbye. */
  closing(): boolean;
}

export interface Connection {
  /** Requests started and not yet answered. */
  running(): number;
  /** Reads and starts nothing more; hangs up once the running requests have answered. */
  end(line?: string): void;
}

/** Requests that may run at once on one connection; reading pauses at this many. */
export const MAX_IN_FLIGHT = 64;
const NEWLINE = 0x0a;
const CONTEXT: CallContext = { transport: 'socket', principal: LOCAL_PRINCIPAL };

/** An answer without an id: it ends the whole connection. */
export const notice = (code: ErrorCode, message?: string, data?: Record<string, unknown>): string =>
  encodeLine(errorResponse(null, new MemoryError(code, message, data)));

/** Half-closes, drains what the peer still sends, and destroys once it hangs up or lingers too long. */
export function shut(socket: Socket, lingerMs: number): void {
  if (socket.writableEnded || socket.destroyed) return;
  socket.end();
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  socket.once('close', () => clearTimeout(timer));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const requestIdOf = (value: unknown): RequestId => {
  const id = isObject(value) ? value.id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

const methodOf = (table: MethodTable, value: unknown): MethodDef | undefined => {
  const name = isObject(value) ? value.method : undefined;
  return typeof name === 'string' ? table.get(name) : undefined;
};

export function serveConnection(socket: Socket, options: ConnectionOptions): Connection {
  const { table, log, handleOptions } = options;
  const { maxLineBytes, idleMs, lineTimeoutMs, maxBufferedBytes } = options.limits;
  /** Lines read and not yet started. */
  const queue: string[] = [];
  let running = 0;
  /** Settles when the last non-read request started on this connection has answered. */
  let writes: Promise<unknown> = Promise.resolve();
  let ending = false;
  /** The peer fell too far behind: answers still to come are dropped. */
  let muted = false;
  let paused = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let lineTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;

  const end = (line?: string): void => {
    if (ending) return;
    ending = true;
    // invariant: once a connection ends, none of its unread requests run, not even the rest of the chunk
    // being read, so an idle notice is safe to retry on (socket-connection.test.ts "regression for issue 8:
    // runs nothing after an oversize line…", client.test.ts "resends a request the server dropped…").
    queue.length = 0;
    reader.stop();
    clearTimeout(idleTimer);
    stopLine();
    if (line !== undefined && socket.writable) socket.write(line);
    if (running === 0) shut(socket, idleMs);
    else updateFlow();
  };

  /** Gives up on a peer that does not read its answers. */
  const abandon = (why: string): void => {
    log.warn({ maxBufferedBytes, idleMs }, `socket client too slow: ${why}`);
    muted = true;
    clearTimeout(drainTimer);
    end(notice('SLOW_CONSUMER', why, { maxBufferedBytes, idleMs }));
    shut(socket, idleMs);
  };

  const write = (message: RpcResponse): void => {
    if (muted || !socket.writable) return;
    // invariant: unsent answers never exceed maxBufferedBytes plus one answer (socket-connection.test.ts
    // "regression for issue 8: closes a connection whose unread answers pass maxBufferedBytes").
    if (socket.writableLength > maxBufferedBytes) {
      abandon(`more than ${maxBufferedBytes} bytes of answers unread`);
      return;
    }
    let line: string;
    try {
      line = encodeLine(message);
    } catch (error) {
      log.error({ err: error, id: message.id }, 'socket response is not serializable');
      line = encodeLine(errorResponse(message.id, error));
    }
    socket.write(line);
  };

  const start = (line: string): void => {
    const parsed = parseJson(line);
    if (!parsed.ok) {
      write(errorResponse(null, new MemoryError('INVALID_JSON', `invalid JSON: ${parsed.message}`)));
      return;
    }
    if (options.closing()) {
      write(errorResponse(requestIdOf(parsed.value), new MemoryError('SHUTTING_DOWN')));
      return;
    }
    running++;
    clearTimeout(idleTimer);
    const run = () => handleEnvelope(table, parsed.value, CONTEXT, handleOptions);
    // invariant: per connection, requests that are not reads run one after another in the order sent, so
    // they commit in that order; reads run at once (socket-connection.test.ts "regression for issue 8:
    // runs the writes of one connection one after another…", "…commits pipelined ingest calls…").
    const def = methodOf(table, parsed.value);
    const serial = def !== undefined && def.access !== 'read';
    const answer = serial ? writes.then(run) : run();
    if (serial) writes = answer;
    const started = performance.now();
    void answer.then((response) => {
      running--;
      const code = response.ok ? undefined : response.error.code;
      log.debug(
        { id: response.id, code, ms: Math.round(performance.now() - started) },
        'socket request done',
      );
      write(response);
      settle();
    });
  };

  /** Starts queued lines while the limits allow. */
  const pump = (): void => {
    while (!ending && running < MAX_IN_FLIGHT && !socket.writableNeedDrain) {
      const line = queue.shift();
      if (line === undefined) return;
      start(line);
    }
  };

  const stopLine = (): void => {
    clearTimeout(lineTimer);
    lineTimer = undefined;
  };

  const armLine = (): void => {
    clearTimeout(lineTimer);
    lineTimer = setTimeout(() => {
      log.debug({ lineTimeoutMs }, 'socket request line too slow');
      end(notice('REQUEST_TIMEOUT', `a request line took over ${lineTimeoutMs} ms`, { lineTimeoutMs }));
    }, lineTimeoutMs);
  };

  /** Pauses reading while the connection is at a limit; a paused line's deadline starts over on resume. */
  const updateFlow = (): void => {
    const hold = !ending && (queue.length > 0 || running >= MAX_IN_FLIGHT || socket.writableNeedDrain);
    if (hold !== paused) {
      paused = hold;
      if (hold) {
        socket.pause();
        stopLine();
      } else {
        socket.resume();
        if (!ending && reader.partial()) armLine();
      }
    }
    // invariant: a peer that reads no answer for idleMs is dropped, requests running or not
    // (socket-connection.test.ts "regression for issue 8: drops a peer that reads no answer…").
    if (socket.writableNeedDrain && !muted && !socket.writableEnded) {
      drainTimer ??= setTimeout(() => abandon(`no answer read for ${idleMs} ms`), idleMs);
    } else {
      clearTimeout(drainTimer);
      drainTimer = undefined;
    }
  };

  const armIdle = (): void => {
    clearTimeout(idleTimer);
    if (ending || running > 0 || queue.length > 0 || socket.writableNeedDrain) return;
    idleTimer = setTimeout(() => {
      log.debug({ idleMs }, 'socket connection idle');
      end(notice('IDLE_TIMEOUT', `no request for ${idleMs} ms`));
    }, idleMs);
  };

  /** Takes stock after anything happened: starts what it can, ends or waits. */
  const settle = (): void => {
    pump();
    if (running > 0 || queue.length > 0) updateFlow();
    else if (ending) shut(socket, idleMs);
    else if (options.closing()) end(notice('SHUTTING_DOWN'));
    else if (socket.readableEnded) end();
    else {
      updateFlow();
      armIdle();
    }
  };

  const reader = createLineReader({
    maxLineBytes,
    onLine: (line) => {
      queue.push(line);
      pump();
    },
    onOverflow: () => {
      log.warn({ maxLineBytes }, 'socket request line too large');
      end(notice('REQUEST_TOO_LARGE', `a request line exceeds ${maxLineBytes} bytes`, { maxLineBytes }));
    },
  });

  socket.on('data', (chunk: Buffer) => {
    if (ending) return;
    clearTimeout(idleTimer);
    reader.push(chunk);
    if (ending) return;
    // invariant: a request line ends within lineTimeoutMs of its first byte, however slowly it trickles in
    // (socket-connection.test.ts "regression for issue 8: closes a connection whose request line…").
    if (!reader.partial()) stopLine();
    else if (lineTimer === undefined || chunk.includes(NEWLINE)) armLine();
    settle();
  });
  socket.on('drain', settle);
  socket.on('end', () => {
    stopLine();
    reader.end();
    settle();
  });
  socket.on('close', () => {
    for (const timer of [idleTimer, lineTimer, drainTimer]) clearTimeout(timer);
  });
  armIdle();

  return { running: () => running, end };
}
