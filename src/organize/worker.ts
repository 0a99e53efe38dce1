// mnemo's own organize worker: check the triggers now and then, claim a job's step, summarize it (the model
// when configured, extractively otherwise), commit or fail; yields to client writes, stops before the store closes.
import type { Sleep, TurnGate } from '../activity.js';
import { createBackgroundLoop } from '../background.js';
import type { Config } from '../config.js';
import { isMemoryError } from '../errors.js';
import { createOpenAiProvider } from '../llm/llm.js';
import type { Logger } from '../log.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { createExtractiveSummarizer, createModelSummarizer, type Summarizer } from './summarizer.js';
import { createOrganize, type Organize } from './organize.js';
import type { ClaimedJob, CommitParams, Usage } from './schema-jobs.js';

/** The name the worker's gate reports its deferral under (`memory.chain.status`). */
export const ORGANIZE_WORKER = 'organize';
/** What a model is asked to write at most per node (the commit accepts up to nodeMaxChars). */
export const MODEL_NODE_CHARS = 800;

export interface OrganizeWorkerOptions {
  organize: Organize;
  summarizer: Summarizer;
  log: Logger;
  now(): number;
  /** Pause when no job is claimable. */
  idleMs?: number;
  /** How often the triggers are checked. */
  tickEveryMs?: number;
  gate?: TurnGate;
  sleep?: Sleep;
}

export type OrganizeOutcome = 'idle' | 'committed' | 'refused' | 'failed' | 'lost' | 'released';

export interface OrganizeWorker {
  start(): void;
  /** Checks the triggers when due, then claims and runs at most one step (tests drive it directly). */
  step(): Promise<OrganizeOutcome>;
  stop(): Promise<void>;
}

const usageOf = (error: unknown): Usage | undefined =>
  isMemoryError(error) ? (error.data?.usage as Usage | undefined) : undefined;

export function createOrganizeWorker(options: OrganizeWorkerOptions): OrganizeWorker {
  const { organize, summarizer, log } = options;
  const idleMs = options.idleMs ?? 1_000;
  const tickEveryMs = options.tickEveryMs ?? 5_000;
  let lastTick = -Infinity;
  const loop = createBackgroundLoop({
    name: 'organize worker',
    log,
    step: async () => ((await step()) === 'idle' ? idleMs : 0),
    errorPauseMs: idleMs,
    ...(options.gate ? { gate: options.gate } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });

  type Payload = Pick<CommitParams, 'summary' | 'dispositions' | 'usage'>;

  async function summarize(job: ClaimedJob): Promise<Payload | OrganizeOutcome> {
    const { step } = job;
    if (step.type === 'archive') {
      return {
        dispositions: step.entries.map((e) => ({ entry_id: e.entry_id, action: 'archive_only' as const })),
      };
    }
    const lease = { owner: job.owner, job_id: job.job_id, token: job.token };
    const call = loop.call();
    try {
      const summary = await summarizer.summarize(step, call.signal);
      return { summary: { text: summary.text, summarizer: summarizer.name }, usage: summary.usage };
    } catch (error) {
      if (call.signal.aborted) {
        await organize.release(job.owner, job.job_id, job.token);
        return 'released';
      }
      const code = isMemoryError(error) ? error.code : 'SUMMARIZER_ERROR';
      const reason = error instanceof Error ? error.message : String(error);
      log.warn(
        { job: job.job_id, code, reason },
        'summarizer failed; the step will be retried with a smaller batch',
      );
      await organize.fail({ ...lease, code, reason, usage: usageOf(error) });
      return 'failed';
    } finally {
      call.done();
    }
  }

  async function step(): Promise<OrganizeOutcome> {
    if (options.now() - lastTick >= tickEveryMs) {
      lastTick = options.now();
      await organize.tick();
    }
    const job = await organize.claim();
    if (!job) return 'idle';
    const payload = await summarize(job);
    if (typeof payload === 'string') return payload;
    const lease = { owner: job.owner, job_id: job.job_id, token: job.token };
    try {
      await organize.commit({ ...lease, ...payload });
      return 'committed';
    } catch (error) {
      if (isMemoryError(error) && error.code === 'PROPOSAL_INVALID') {
        log.warn(
          { job: job.job_id, issues: error.data?.issues },
          'step refused; it will be retried with a smaller batch',
        );
        return 'refused';
      }
      if (isMemoryError(error) && error.code === 'LEASE_LOST') return 'lost';
      const reason = error instanceof Error ? error.message : String(error);
      log.error({ err: error, job: job.job_id }, 'organize commit failed');
      await organize.fail({ ...lease, code: 'PUBLISH_FAILED', reason });
      return 'failed';
    }
  }

  return { start: loop.start, step, stop: loop.stop };
}

/** mnemo's own worker: the model summarizer when a model is configured, the extractive one otherwise. */
export function startOrganizeWorker(
  service: { driver: Driver; redactor: Redactor; now(): number; log: Logger },
  config: Pick<Config, 'dataDir' | 'model' | 'organize' | 'timezone' | 'tokenizer'>,
  options: { gate?: TurnGate } = {},
): OrganizeWorker {
  const organize = createOrganize({ ...service, dataDir: config.dataDir, config });
  const summarizer = config.model
    ? createModelSummarizer(
        createOpenAiProvider({
          baseUrl: config.model.baseUrl,
          model: config.model.model,
          apiKey: config.model.apiKey,
        }),
        MODEL_NODE_CHARS,
      )
    : createExtractiveSummarizer(organize.options.nodeTokens);
  service.log.info({ summarizer: summarizer.name }, 'organize worker started');
  const worker = createOrganizeWorker({
    organize,
    summarizer,
    log: service.log,
    now: () => service.now(),
    ...options,
  });
  worker.start();
  return worker;
}
