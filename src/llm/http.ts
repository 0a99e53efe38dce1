// JSON over HTTP to an OpenAI-compatible endpoint: a timeout per attempt, retries on 429, 5xx and network
// errors with doubling backoff that honours Retry-After; a timeout or a bad answer is not retried.
import { ERROR_CODES, MemoryError, type ErrorCode } from '../errors.js';

export interface RetryOptions {
  timeoutMs: number;
  /** Retries after a 429, a 5xx or a network error (not after a timeout). */
  retries: number;
  retryBaseMs: number;
  /** Longest wait between attempts, Retry-After included. */
  retryCapMs: number;
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  fetch?: typeof fetch | undefined;
}

export interface JsonPost<T> {
  url: string;
  apiKey?: string | undefined;
  body: string;
  signal?: AbortSignal | undefined;
  /** Names the other side in messages: "model" → "the model answered HTTP 500". */
  label: string;
  codes: { failed: ErrorCode; timeout: ErrorCode };
  /** Reads a 2xx body; a refusal is a bad answer (reason `bad_response`) and is not retried. */
  parse(text: string): { ok: true; value: T } | { ok: false; message: string };
}

export const sleepFor = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Retry-After as milliseconds: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const retryable = (status: number): boolean => status === 429 || status >= 500;

type Attempt<T> =
  { ok: true; value: T } | { ok: false; retry: boolean; waitMs?: number | undefined; error: MemoryError };

async function attempt<T>(post: JsonPost<T>, o: RetryOptions): Promise<Attempt<T>> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = post.signal ? AbortSignal.any([post.signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await (o.fetch ?? fetch)(post.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(post.apiKey ? { authorization: `Bearer ${post.apiKey}` } : {}),
      },
      body: post.body,
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (post.signal?.aborted) throw post.signal.reason;
    if (timeout.aborted) {
      const message = `the ${post.label} did not answer within ${o.timeoutMs} ms`;
      return {
        ok: false,
        retry: false,
        error: new MemoryError(post.codes.timeout, message, { reason: 'timeout', provider: post.label }),
      };
    }
    const message = `${post.label} request failed: ${error instanceof Error ? error.message : String(error)}`;
    return {
      ok: false,
      retry: true,
      error: new MemoryError(post.codes.failed, message, { reason: 'network', provider: post.label }),
    };
  }
  if (!response.ok) {
    const message = `the ${post.label} answered HTTP ${response.status}: ${text.slice(0, 300)}`;
    return {
      ok: false,
      retry: retryable(response.status),
      waitMs: retryAfterMs(response.headers.get('retry-after')),
      error: new MemoryError(post.codes.failed, message, {
        reason: 'http',
        status: response.status,
        provider: post.label,
      }),
    };
  }
  const parsed = post.parse(text);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    retry: false,
    error: new MemoryError(post.codes.failed, parsed.message, {
      reason: 'bad_response',
      provider: post.label,
    }),
  };
}

/**
 * Posts until an answer parses or the retries are spent. Throws the last MemoryError with `data.attempts`,
 * or the caller's abort reason as soon as the caller aborts.
 */
export async function postJson<T>(
  post: JsonPost<T>,
  o: RetryOptions,
): Promise<{ value: T; attempts: number }> {
  const sleep = o.sleep ?? sleepFor;
  for (let n = 0; ; n++) {
    const outcome = await attempt(post, o);
    if (outcome.ok) return { value: outcome.value, attempts: n + 1 };
    if (!outcome.retry || n >= o.retries) {
      const error = outcome.error;
      throw new MemoryError(error.code, error.message, { ...error.data, attempts: n + 1 });
    }
    const backoff = Math.min(o.retryCapMs, o.retryBaseMs * 2 ** n);
    await sleep(Math.min(o.retryCapMs, outcome.waitMs ?? backoff), post.signal);
  }
}

/**
 * What a client may see of a provider's failure: its code and a fixed short message. The provider's answer
 * and internal error text go to the log only (they may echo what was sent, or the provider's internals).
 */
export function publicFailure(error: unknown): { code: string; message: string } {
  if (!(error instanceof MemoryError)) return { code: 'INTERNAL', message: 'internal error' };
  const provider = typeof error.data?.provider === 'string' ? error.data.provider : 'provider';
  const reason = error.data?.reason;
  if (reason === 'timeout') return { code: error.code, message: `the ${provider} did not answer in time` };
  if (reason === 'network') return { code: error.code, message: `the ${provider} could not be reached` };
  if (reason === 'http') {
    const status = typeof error.data?.status === 'number' ? ` ${error.data.status}` : '';
    return { code: error.code, message: `the ${provider} answered HTTP${status}` };
  }
  if (reason === 'bad_response')
    return { code: error.code, message: `the ${provider} answer was not usable` };
  return { code: error.code, message: ERROR_CODES[error.code] };
}
