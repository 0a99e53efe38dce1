// A step's commit: checked and redacted outside the transaction, then applied inside it — the node replaces
// its pieces in the active timeline, the archive entry is queued and the receipt written, together or not at all.
import type { ErrorIssue, Result } from '../errors.js';
import type { Queryable } from '../storage/driver.js';
import { estimateTokens } from '../text/tokens.js';
import type { EndLeaseDeps } from './commit.js';
import { newId } from './claim.js';
import type { StepItems } from './plan.js';
import type { CommitParams, Receipt } from './schema-jobs.js';
import { eventsBetween } from './store-events.js';
import { insertReceipt, type JobRow } from './store-jobs.js';
import { coverNodes, getNodes, insertNode, queueArchive, disposeArchive } from './store-nodes.js';
import { bumpVersion, coverEvents, noteSynced } from './store-owners.js';

interface Span {
  firstSeq: number;
  lastSeq: number;
  firstAt: number;
  lastAt: number;
  events: number;
}

export type PreparedStep =
  | { type: 'events'; text: string; summarizer: string; span: Span; rawTokens: number }
  | { type: 'nodes'; text: string; summarizer: string; span: Span; ids: string[]; level: number }
  | { type: 'entries'; dispositions: Array<{ entry_id: number; action: string }> };

const issue = (path: string, message: string): ErrorIssue => ({ path, message });

export async function prepareStep(
  deps: EndLeaseDeps,
  job: JobRow,
  items: StepItems,
  params: CommitParams,
): Promise<Result<PreparedStep>> {
  if (items.type === 'entries') {
    const given = params.dispositions ?? [];
    const ids = new Set(given.map((d) => d.entry_id));
    const wanted = new Set(items.ids);
    const issues = [
      ...items.ids
        .filter((id) => !ids.has(id))
        .map((id) => issue('dispositions', `entry ${id} has no disposition`)),
      ...given
        .filter((d) => !wanted.has(d.entry_id))
        .map((d) => issue('dispositions', `entry ${d.entry_id} is not in this step`)),
      ...(ids.size < given.length ? [issue('dispositions', 'an entry is disposed of twice')] : []),
    ];
    return issues.length > 0
      ? { ok: false, issues }
      : { ok: true, value: { type: 'entries', dispositions: given } };
  }
  const text = params.summary?.text.trim() ?? '';
  const max = deps.options.nodeMaxChars;
  if (text.length === 0 || [...text].length > max) {
    const message =
      text.length === 0 ? 'a compact step needs a summary text' : `a summary is at most ${max} characters`;
    return { ok: false, issues: [issue('summary.text', message)] };
  }
  const summarizer = params.summary?.summarizer ?? 'external';
  // invariant: a summary is redacted before it is stored, as every text a worker or model writes
  // (test: test/organize/compaction.test.ts "redacts a summary…").
  const redacted = (await deps.redactor.redact(text)).text;
  if (items.type === 'events') {
    const events = await eventsBetween(deps.driver, job.owner, items.first, items.last);
    const span = {
      firstSeq: items.first,
      lastSeq: items.last,
      firstAt: Math.min(...events.map((e) => e.at)),
      lastAt: Math.max(...events.map((e) => e.at)),
      events: events.length,
    };
    const rawTokens = events.reduce((sum, e) => sum + estimateTokens(e.text), 0);
    return { ok: true, value: { type: 'events', text: redacted, summarizer, span, rawTokens } };
  }
  const nodes = await getNodes(deps.driver, job.owner, items.ids);
  const span = {
    firstSeq: Math.min(...nodes.map((n) => n.first_seq)),
    lastSeq: Math.max(...nodes.map((n) => n.last_seq)),
    firstAt: Math.min(...nodes.map((n) => n.first_at)),
    lastAt: Math.max(...nodes.map((n) => n.last_at)),
    events: nodes.reduce((sum, n) => sum + n.events, 0),
  };
  return {
    ok: true,
    value: { type: 'nodes', text: redacted, summarizer, span, ids: items.ids, level: items.level },
  };
}

/** Inside the commit's transaction, after the lease and the timeline's version were checked. */
export async function applyStep(
  tx: Queryable,
  job: JobRow,
  step: PreparedStep,
  token: string,
  deps: EndLeaseDeps,
  now: number,
): Promise<Receipt> {
  const owner = job.owner;
  let receipt: Receipt;
  if (step.type === 'entries') {
    const disposed = await disposeArchive(tx, owner, step.dispositions, job.job_id, now);
    if (disposed !== step.dispositions.length)
      throw new Error(`archive entries of job ${job.job_id} changed`);
    receipt = { job_id: job.job_id, step: job.steps, type: 'archive', disposed };
  } else {
    const nodeId = newId('nd');
    const level = step.type === 'events' ? 1 : step.level;
    await insertNode(tx, {
      node_id: nodeId,
      owner,
      level,
      first_seq: step.span.firstSeq,
      last_seq: step.span.lastSeq,
      first_at: step.span.firstAt,
      last_at: step.span.lastAt,
      events: step.span.events,
      children: step.type === 'events' ? step.span.events : step.ids.length,
      text: step.text,
      tokens: estimateTokens(step.text),
      summarizer: step.summarizer,
      job_id: job.job_id,
      parent_id: null,
      created_at: now,
    });
    receipt = { job_id: job.job_id, step: job.steps, type: 'compact', node_id: nodeId, level };
    if (step.type === 'events') {
      await coverEvents(tx, owner, {
        lastSeq: step.span.lastSeq,
        tokens: step.rawTokens,
        events: step.span.events,
      });
      const entry = await queueArchive(tx, {
        owner,
        nodeId,
        firstSeq: step.span.firstSeq,
        lastSeq: step.span.lastSeq,
        now,
      });
      await noteSynced(tx, owner, deps.options.thresholdTokens, now);
      receipt = { ...receipt, covered_events: step.span.events, archive_entry_id: entry };
    } else {
      const covered = await coverNodes(tx, owner, step.ids, nodeId);
      if (covered !== step.ids.length) throw new Error(`nodes of job ${job.job_id} were covered meanwhile`);
      await bumpVersion(tx, owner);
    }
  }
  await insertReceipt(tx, {
    jobId: job.job_id,
    token,
    owner,
    step: job.steps,
    receipt: JSON.stringify(receipt),
    now,
  });
  return receipt;
}
