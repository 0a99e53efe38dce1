// A small real method table and raw line connections for the transport tests.
import { createConnection, type Socket } from 'node:net';
import { z } from 'zod';
import { defineMethod, type MethodDef, type MethodTable } from '../../src/protocol/method.js';

function defer(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Handlers that block until the test releases them, so nothing depends on timing. */
export function createGates() {
  const gates = new Map<string, { entered: ReturnType<typeof defer>; released: ReturnType<typeof defer> }>();
  const get = (key: string) => {
    let gate = gates.get(key);
    if (!gate) {
      gate = { entered: defer(), released: defer() };
      gates.set(key, gate);
    }
    return gate;
  };
  const passed: string[] = [];
  return {
    /** Keys in the order their handlers reached the gate. */
    passed,
    async pass(key: string): Promise<void> {
      const gate = get(key);
      passed.push(key);
      gate.entered.resolve();
      await gate.released.promise;
    },
    entered: (key: string): Promise<void> => get(key).entered.promise,
    release: (key: string): void => get(key).released.resolve(),
  };
}

export type Gates = ReturnType<typeof createGates>;

export function createTestTable(gates: Gates = createGates()): MethodTable {
  const methods: MethodDef[] = [
    defineMethod({
      name: 'echo',
      summary: 'returns its params',
      access: 'read',
      owner: 'param',
      params: z.object({ owner: z.string().min(1), text: z.string() }),
      result: z.object({ owner: z.string(), text: z.string() }),
      handler: async (params) => params,
    }),
    defineMethod({
      name: 'slow',
      summary: 'waits until the test releases its key',
      access: 'read',
      owner: 'none',
      params: z.object({ key: z.string() }),
      result: z.object({ key: z.string() }),
      handler: async (params) => {
        await gates.pass(params.key);
        return params;
      },
    }),
    defineMethod({
      name: 'record',
      summary: 'a write that waits until the test releases its key',
      access: 'write',
      owner: 'none',
      params: z.object({ key: z.string() }),
      result: z.object({ key: z.string() }),
      handler: async (params) => {
        await gates.pass(params.key);
        return params;
      },
    }),
    defineMethod({
      name: 'boom',
      summary: 'throws a plain error',
      access: 'read',
      owner: 'none',
      params: z.object({}),
      result: z.object({}),
      handler: async () => {
        throw new Error('secret internal detail');
      },
    }),
    defineMethod({
      name: 'health',
      summary: 'liveness',
      access: 'read',
      owner: 'none',
      params: z.object({}),
      result: z.object({ status: z.literal('ok') }),
      handler: async () => ({ status: 'ok' as const }),
    }),
  ];
  return new Map(methods.map((def) => [def.name, def]));
}

export interface LineConnection {
  socket: Socket;
  send(message: unknown): void;
  sendRaw(text: string): void;
  /** The next response line, parsed. */
  next(): Promise<Record<string, unknown>>;
  /** Resolves when the server has ended the connection. */
  ended: Promise<void>;
}

export function openLineConnection(path: string): Promise<LineConnection> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path });
    const queue: Array<Record<string, unknown>> = [];
    const waiters: Array<(line: Record<string, unknown>) => void> = [];
    let buffer = '';
    let endedResolve!: () => void;
    const ended = new Promise<void>((r) => (endedResolve = r));
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      buffer += text;
      let at: number;
      while ((at = buffer.indexOf('\n')) !== -1) {
        const line = JSON.parse(buffer.slice(0, at)) as Record<string, unknown>;
        buffer = buffer.slice(at + 1);
        const waiter = waiters.shift();
        if (waiter) waiter(line);
        else queue.push(line);
      }
    });
    socket.on('end', endedResolve);
    socket.on('close', endedResolve);
    // A server that hangs up while we still write makes EPIPE/ECONNRESET; the lines already read still count.
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        send: (message) => socket.write(`${JSON.stringify(message)}\n`),
        sendRaw: (text) => socket.write(text),
        next: () => {
          const line = queue.shift();
          return line ? Promise.resolve(line) : new Promise((r) => waiters.push(r));
        },
        ended,
      }),
    );
    socket.once('error', reject);
  });
}
