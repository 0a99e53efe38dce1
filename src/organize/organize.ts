// Organize: the timeline compacted into nested nodes (events never change), a context that fits two budgets,
// the core documents and their files, and one durable job queue with leases, retries and failure notices.
import type { Config } from '../config.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { loadTokenCounter, type TokenCounter } from '../text/tokens.js';
import { claimJob } from './claim.js';
import { commitStep, failJob, releaseJob } from './commit.js';
import { createCoreFiles } from './core-files.js';
import { bootstrapCore, getCore, updateCore, type CoreDeps } from './core.js';
import { chainContext } from './context.js';
import { expandNode, inspectForJob } from './inspect.js';
import { organizeOptions, type OrganizeOptions } from './options.js';
import type { ContextParams, CoreDoc } from './schema-chain.js';
import type { ClaimParams, CommitParams, FailParams, InspectParams, JobKind, Notice } from './schema-jobs.js';
import { chainStatus, failureView } from './status.js';
import { ackNotice, failuresOf, pendingNotices, type JobRow } from './store-jobs.js';
import { retireStaleCandidates } from '../knowledge/knowledge.js';
import { requestJob, tickTriggers } from './triggers.js';
import { MemoryError } from '../errors.js';

export { ownerSlug } from './core-files.js';
export { rewriteCoreFiles } from './core-rewrite.js';
export { ORGANIZE_DEFAULTS, organizeOptions, type OrganizeOptions } from './options.js';
export { createExtractiveSummarizer, createModelSummarizer, type Summarizer } from './summarizer.js';
export type { ClaimedJob, Receipt, Step, Piece, Notice } from './schema-jobs.js';
export type { ContextResult, ChainStatus } from './schema-chain.js';
export { coreDoc } from './store-core.js';

export interface OrganizeDeps {
  driver: Driver;
  redactor: Redactor;
  now(): number;
  /** Where the core documents' files live (`<data-dir>/core/…`). */
  dataDir: string;
  config?: Partial<Pick<Config, 'organize' | 'timezone' | 'tokenizer'>>;
  options?: Partial<OrganizeOptions>;
}

export type Organize = ReturnType<typeof createOrganize>;

export function createOrganize(deps: OrganizeDeps) {
  const options = organizeOptions(deps.config ?? {}, deps.options);
  const now = () => deps.now();
  const endDeps = { driver: deps.driver, redactor: deps.redactor, now, options };
  const core: CoreDeps = {
    driver: deps.driver,
    redactor: deps.redactor,
    files: createCoreFiles(deps.dataDir),
    now,
  };
  const counter = (): Promise<TokenCounter> => loadTokenCounter(deps.config?.tokenizer ?? 'estimate');
  return {
    options,
    tick: (owner?: string) => tickTriggers(deps.driver, now(), options, owner),
    request: (p: { owner: string; kind: JobKind; keep_recent_tokens?: number | undefined }) =>
      requestJob(
        deps.driver,
        { owner: p.owner, kind: p.kind, keepRecentTokens: p.keep_recent_tokens },
        options,
        now(),
      ),
    async claim(p: ClaimParams = {}) {
      const at = now();
      const finished: JobRow[] = [];
      const job = await deps.driver.transaction((tx) => {
        finished.length = 0;
        return claimJob(
          tx,
          at,
          { owner: p.owner, leaseMs: p.lease_ms ?? options.leaseMs, finished },
          options,
        );
      });
      // invariant: a finished deep review retires its owner's candidates unconfirmed for three workdays,
      // after its transaction (test: test/organize/nightly-retire.test.ts).
      for (const done of finished) {
        if (done.kind === 'deep') await retireStaleCandidates(deps.driver, at, options.timeZone, done.owner);
      }
      return job;
    },
    commit: (p: CommitParams) => commitStep(endDeps, p),
    fail: (p: FailParams) => failJob(endDeps, p),
    release: (owner: string, jobId: string, token: string) => releaseJob(endDeps, owner, jobId, token),
    async notices(p: {
      owner: string;
      ack?: string | undefined;
    }): Promise<{ notices: Notice[]; acked: string | null }> {
      if (p.ack !== undefined) {
        const ack = p.ack;
        const acked = await deps.driver.transaction((tx) => ackNotice(tx, p.owner, ack, now()));
        if (!acked) throw new MemoryError('NOT_FOUND', `no failure notice for job ${ack}`, { job_id: ack });
      }
      const jobs = await pendingNotices(deps.driver, p.owner);
      const failures = await failuresOf(
        deps.driver,
        jobs.map((j) => j.job_id),
      );
      return {
        notices: jobs.map((j) => ({
          job_id: j.job_id,
          kind: j.kind,
          trigger: j.trigger,
          failed_at: new Date(j.finished_at ?? j.created_at).toISOString(),
          failures: j.failures,
          last_failures: failures.filter((f) => f.job_id === j.job_id).map(failureView),
          message: `the ${j.trigger} ${j.kind} job failed ${j.failures} time(s) and stopped; nothing was lost, its pieces wait for the next job`,
        })),
        acked: p.ack ?? null,
      };
    },
    inspect: (p: InspectParams) => inspectForJob(deps.driver, p),
    expand: (p: { owner: string; node_id: string }) => expandNode(deps.driver, p.owner, p.node_id),
    context: (p: ContextParams) => chainContext({ driver: deps.driver, core, counter, options, now }, p),
    status: (owner?: string) => chainStatus(deps.driver, options, now(), owner),
    core: {
      bootstrap: (p: { owner: string; docs: Partial<Record<CoreDoc, string>> }) =>
        bootstrapCore(core, p.owner, p.docs),
      update: (p: { owner: string; doc: CoreDoc; text: string; expected_revision: number }) =>
        updateCore(core, p),
      get: (p: { owner: string; doc?: CoreDoc | undefined; history: boolean }) => getCore(core, p),
    },
  };
}
