// The typed face of every client: the catalog's method names and types, a deadline per call, and resends
// with backoff where a call cannot run twice.
import { setTimeout as sleep } from 'node:timers/promises';
import { isMemoryError, type MemoryError } from './errors.js';
import { METHODS, type MethodName, type MethodParams, type MethodResult } from './protocol/catalog.js';

/** Params may be left out where the method needs none. */
export type ParamsArg<M extends MethodName> =
  Partial<MethodParams<M>> extends MethodParams<M> ? [params?: MethodParams<M>] : [params: MethodParams<M>];

export interface MemoryClient {
  /** The socket path or URL it talks to (`in-process` for a store opened directly). */
  readonly target: string;
  call<M extends MethodName>(method: M, ...params: ParamsArg<M>): Promise<MethodResult<M>>;
  /** Untyped: a method this build does not know (a newer server), or anything at all for tests. */
  call<T = unknown, N extends string = string>(
    method: N extends MethodName ? never : N,
    params?: unknown,
  ): Promise<T>;
  /** Waits for running calls, then hangs up. */
  close(): Promise<void>;
}

export interface RetryEvent {
  method: string;
  attempt: number;
  delayMs: number;
  error: MemoryError;
}

export interface RetryOptions {
  /** Sends of one call at most, the first included (default 6: about 3 s of backoff). */
  attempts?: number;
  /** The first pause; each next one doubles, up to maxMs. */
  baseMs?: number;
  maxMs?: number;
  /** Before each pause; the next send also waits for a promise it returns. */
  onRetry?: (event: RetryEvent) => void | Promise<void>;
}

/** What a transport offers: one untyped call; its own timeout bounds each send. */
export interface UntypedCall {
  call(method: string, params?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

const RETRY_DEFAULTS = { attempts: 6, baseMs: 50, maxMs: 2_000 };

/** Codes with which the server says it did not run the call (it was never read). */
const NOT_RUN = new Set(['SHUTTING_DOWN', 'TOO_MANY_CONNECTIONS']);

/**
 * invariant: a call is sent again only when it did not run (never delivered, or refused unread by the
 * server) or when it is a read; a write whose answer was lost is never resent (test: src/connect.test.ts
 * "never resends a write whose answer was lost").
 */
export function mayResend(error: unknown, method: string): boolean {
  if (!isMemoryError(error)) return false;
  if (NOT_RUN.has(error.code)) return true;
  if (error.code !== 'SERVER_UNAVAILABLE') return false;
  const read = (METHODS as Record<string, { access: string } | undefined>)[method]?.access === 'read';
  return read || error.data?.delivered === false;
}

export function createMemoryClient(
  base: UntypedCall,
  options: { target: string; timeoutMs: number; retry?: RetryOptions },
): MemoryClient {
  const retry = { ...RETRY_DEFAULTS, ...options.retry };
  let closed = false;
  const call = async (method: string, params?: unknown): Promise<unknown> => {
    const deadline = options.timeoutMs > 0 ? Date.now() + options.timeoutMs : Infinity;
    for (let attempt = 1; ; attempt++) {
      try {
        return await base.call(method, params);
      } catch (error) {
        const delayMs = Math.min(retry.maxMs, retry.baseMs * 2 ** (attempt - 1));
        const again = !closed && attempt < retry.attempts && Date.now() + delayMs < deadline;
        if (!again || !mayResend(error, method)) throw error;
        await retry.onRetry?.({ method, attempt, delayMs, error: error as MemoryError });
        await sleep(delayMs);
        if (closed) throw error;
      }
    }
  };
  return {
    target: options.target,
    call: call as MemoryClient['call'],
    async close() {
      closed = true;
      await base.close();
    },
  };
}
