// What the inject stage holds for one service: its settings, the search it runs (through a wrapper in
// tests: a deliberately slow index) and the background searches still running for pending requests.
import type { Driver } from '../storage/driver.js';
import type { Logger } from '../log.js';
import type { RecallParams, RecallResult } from '../recall/schema.js';
import type { MemoryService } from '../service.js';
import type { Redactor } from '../text/redact.js';
import { INJECT_DEFAULTS, type InjectConfig } from './config.js';
import { failAbandoned, finishRequest } from './requests.js';
import { settleRequest, type PendingRequest, type SearchOutcome } from './settle.js';
import { MemoryError, ERROR_CODES } from '../errors.js';

export type RecallFn = (params: RecallParams) => Promise<RecallResult>;
/** Runs a search given the real one: tests hold it back behind a gate they open. */
export type SearchWrapper = (params: RecallParams, recall: RecallFn) => Promise<RecallResult>;

export interface InjectDeps {
  driver: Driver;
  redactor: Redactor;
  now(): number;
  log: Logger;
  config: InjectConfig;
  /** memory.recall's default wait (`limits.recallBudgetMs`, 75 ms). */
  waitMs: number;
}

export interface InjectRuntime extends InjectDeps {
  search(params: RecallParams, recall: RecallFn): Promise<RecallResult>;
  /** Finishes a pending request when its search ends (or fails it at the run limit). */
  settleLater(request: PendingRequest, running: Promise<RecallResult>): void;
  /** At start: fails the requests a stopped process left pending past their run limit. */
  recover(): Promise<number>;
  /** Resolves once no background search runs (tests). */
  idle(): Promise<void>;
  /** Fails the requests still running (`shutdown`) and starts no more: before the store closes. */
  close(): Promise<void>;
}

export interface InjectRuntimeOptions {
  search?: SearchWrapper;
}

const errorOf = (error: unknown): { code: string; message: string } =>
  error instanceof MemoryError
    ? { code: error.code, message: error.message }
    : { code: 'INTERNAL', message: ERROR_CODES.INTERNAL };

export function createInjectRuntime(
  service: MemoryService,
  options: InjectRuntimeOptions = {},
): InjectRuntime {
  const deps: InjectDeps = {
    driver: service.driver,
    redactor: service.redactor,
    now: () => service.now(),
    log: service.log,
    config: service.config.inject ?? INJECT_DEFAULTS,
    waitMs: service.config.limits?.recallBudgetMs ?? 75,
  };
  const running = new Map<string, Promise<void>>();
  let closed = false;
  const fail = (id: string, code: string, message: string) =>
    finishRequest(deps.driver, id, 'failed', { error: { code, message } }, deps.now()).catch((err: unknown) =>
      deps.log.warn({ err, request_id: id }, 'could not fail a recall request'),
    );

  return {
    ...deps,
    search: (params, recall) => (options.search ? options.search(params, recall) : recall(params)),
    settleLater(request, search) {
      if (closed) return;
      const timer = setTimeout(
        () => void fail(request.id, 'timeout', 'the search ran past its limit'),
        deps.config.recall.runLimitMs,
      );
      timer.unref();
      const work = search
        .then(
          (result): SearchOutcome => ({ ok: true, result }),
          (error: unknown): SearchOutcome => ({ ok: false, error: errorOf(error) }),
        )
        .then(async (outcome) => {
          if (!closed) await settleRequest(deps, request, outcome);
        })
        .catch((err: unknown) =>
          deps.log.warn({ err, request_id: request.id }, 'a recall request did not settle'),
        )
        .finally(() => {
          clearTimeout(timer);
          running.delete(request.id);
        });
      running.set(request.id, work);
    },
    recover: () => failAbandoned(deps.driver, deps.now()),
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
    async close() {
      closed = true;
      await Promise.all([...running.keys()].map((id) => fail(id, 'shutdown', 'the server stopped first')));
    },
  };
}
