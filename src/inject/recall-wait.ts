// memory.recall within a wait budget (75 ms by default): an answer ready in time comes back as before;
// otherwise `pending` with a request id, and the search goes on in the background. Never an empty "ready".
import { performance } from 'node:perf_hooks';
import type { RecallParams, RecallResult } from '../recall/schema.js';
import { cachedAnswer, indexMark, insertRequest, newRequestId } from './requests.js';
import type { RecallFn, InjectRuntime } from './runtime.js';
import type { RecallAnswer } from './schema.js';
import { sha256 } from './segment.js';
import { lockSession } from './sessions.js';

export interface WaitParams {
  wait_ms?: number | undefined;
  caller_session_id?: string | undefined;
  interaction_seq?: number | undefined;
}

/** What makes two searches the same: every search param, in a fixed order. */
export const searchDigest = (p: RecallParams): string =>
  sha256(
    JSON.stringify([
      p.owner,
      p.query,
      p.limit,
      p.kinds ?? null,
      p.from ?? null,
      p.to ?? null,
      p.session_id ?? null,
    ]) + JSON.stringify([p.task_id ?? null, p.at ?? null]),
  );

type Raced = { done: true; value: RecallResult } | { done: false };

/** The search's answer if it comes within `ms`; its failure within `ms` is the call's failure. */
function within(search: Promise<RecallResult>, ms: number): Promise<Raced> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Raced>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), ms);
  });
  return Promise.race([search.then((value): Raced => ({ done: true, value })), late]).finally(() =>
    clearTimeout(timer),
  );
}

/** Starts a request's background search; answers the request id once the request is stored. */
export async function storePending(
  rt: InjectRuntime,
  params: RecallParams,
  search: Promise<RecallResult>,
  caller: {
    sessionId?: string | undefined;
    interactionSeq?: number | undefined;
    purpose: 'recall' | 'prefetch';
  },
): Promise<string> {
  const id = newRequestId();
  const now = rt.now();
  const mark = await indexMark(rt.driver, params.owner);
  await rt.driver.transaction(async (tx) => {
    const session =
      caller.sessionId === undefined
        ? undefined
        : await lockSession(tx, params.owner, caller.sessionId, now, caller.interactionSeq);
    await insertRequest(tx, {
      id,
      owner: params.owner,
      sessionId: caller.sessionId ?? null,
      interactionSeq: caller.interactionSeq ?? session?.interactionSeq ?? null,
      purpose: caller.purpose,
      paramsDigest: searchDigest(params),
      indexMark: mark,
      createdAt: now,
      expiresAt: now + rt.config.recall.runLimitMs,
    });
  });
  rt.settleLater({ id, owner: params.owner }, search);
  return id;
}

/**
 * invariant: an answer not ready within wait_ms is `{status: "pending", request_id}`, never an empty ready;
 * the search goes on and its answer is stored under that id (test: src/inject/wait.test.ts "answers pending
 * at the default 75 ms and at once for wait_ms 0…").
 */
export async function recallWithin(
  rt: InjectRuntime,
  recall: RecallFn,
  params: RecallParams & WaitParams,
): Promise<RecallAnswer> {
  const started = performance.now();
  const { wait_ms, caller_session_id: sessionId, interaction_seq: interactionSeq, ...search } = params;
  const wait = wait_ms ?? rt.waitMs;
  const took = () => Number((performance.now() - started).toFixed(2));
  /** The caller named its interaction: the session learns it even when the answer comes in time. */
  const advance = async () => {
    if (sessionId === undefined || interactionSeq === undefined) return;
    const at = rt.now();
    await rt.driver.transaction((tx) => lockSession(tx, search.owner, sessionId, at, interactionSeq));
  };
  if (wait === 0) {
    const mark = await indexMark(rt.driver, search.owner);
    const since = rt.now() - rt.config.recall.cacheMs;
    const cached = await cachedAnswer(rt.driver, search.owner, searchDigest(search), mark, since);
    if (cached) {
      await advance();
      return cached;
    }
  }
  const running = rt.search(search, recall);
  // Settled later or raced now: a failure after the budget is the request's, never an unhandled rejection.
  running.catch(() => undefined);
  const raced = wait === 0 ? ({ done: false } as const) : await within(running, wait);
  if (raced.done) {
    await advance();
    return raced.value;
  }
  const requestId = await storePending(rt, search, running, { sessionId, interactionSeq, purpose: 'recall' });
  return { status: 'pending', request_id: requestId, took_ms: took() };
}
