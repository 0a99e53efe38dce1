// `mnemo organize status|request|notices|tick`: the organize queue and timelines, through the running
// server's socket or on the store directly.
import type { Config } from '../../config.js';
import type { ChainStatus, Notice } from '../../organize/organize.js';
import { connect } from '../client.js';

type Out = NodeJS.WritableStream;

async function call<T>(config: Config, method: string, params: unknown): Promise<T> {
  const conn = await connect(config);
  try {
    return await conn.call<T>(method, params);
  } finally {
    await conn.close();
  }
}

const n = (x: number) => x.toLocaleString('en-US');

export function renderStatus(s: ChainStatus): string {
  const q = s.queue;
  const lines = [
    `queue: ${q.queued} queued, ${q.leased} leased, ${q.retrying} retrying, ${q.failed} failed, ${q.notices} notice(s)`,
    `model: ${n(s.usage.model_calls)} call(s), ${n(s.usage.prompt_tokens)} prompt and ${n(s.usage.completion_tokens)} completion tokens`,
  ];
  for (const o of s.owners) {
    const levels = o.levels.map((l) => `L${l.level} ${l.active}/${l.nodes}`).join(' ') || 'none';
    lines.push(
      `${o.owner}: ${o.ready ? 'ready' : 'first sync incomplete'}; ${n(o.raw_tokens)} raw tokens in ${n(o.raw_events)} event(s), ` +
        `${n(o.covered_events)} covered, ${n(o.unscanned_events)} unscanned; timeline ~${n(o.timeline_tokens)} tokens; ` +
        `nodes (active/all) ${levels}; archive ${o.archive_pending} pending`,
    );
  }
  for (const j of s.jobs) {
    const retry = j.next_retry_at ? `, next try ${j.next_retry_at}` : '';
    const last = j.last_failures.at(-1);
    lines.push(
      `job ${j.job_id} ${j.owner} ${j.kind}/${j.trigger} ${j.state}: ${j.steps} step(s), batch ${j.batch_limit}, ` +
        `${j.failures} failure(s)${retry}${last ? `; last: ${last.code} ${last.reason}` : ''}`,
    );
  }
  for (const c of s.core_conflicts) lines.push(`conflict ${c.owner} ${c.doc}: ${c.reason} (${c.at})`);
  return `${lines.join('\n')}\n`;
}

export async function organizeStatusCommand(config: Config, json: boolean, out: Out): Promise<number> {
  const status = await call<ChainStatus>(config, 'memory.chain.status', {});
  out.write(json ? `${JSON.stringify(status)}\n` : renderStatus(status));
  return 0;
}

export async function organizeRequestCommand(config: Config, kind: string, out: Out): Promise<number> {
  const owner = config.defaultOwner;
  const job = await call<{ job_id: string; created: boolean; state: string }>(
    config,
    'memory.organize.request',
    {
      owner,
      kind,
    },
  );
  out.write(
    `${job.created ? 'queued' : 'joined the live'} ${kind} job ${job.job_id} for ${owner} (${job.state})\n`,
  );
  return 0;
}

export async function organizeNoticesCommand(
  config: Config,
  ack: string | undefined,
  out: Out,
): Promise<number> {
  const owner = config.defaultOwner;
  const { notices } = await call<{ notices: Notice[] }>(config, 'memory.organize.notices', {
    owner,
    ...(ack ? { ack } : {}),
  });
  if (ack) out.write(`acknowledged ${ack}\n`);
  for (const x of notices)
    out.write(`${x.job_id} ${x.kind}/${x.trigger} failed ${x.failed_at}: ${x.message}\n`);
  if (notices.length === 0) out.write(`no failure notices for ${owner}\n`);
  return 0;
}

export async function organizeTickCommand(config: Config, out: Out): Promise<number> {
  const tick = await call<{
    owners: number;
    queued: Array<{ job_id: string; owner: string; kind: string; trigger: string }>;
  }>(config, 'memory.chain.tick', {});
  out.write(`checked ${tick.owners} owner(s); queued ${tick.queued.length} job(s)\n`);
  for (const q of tick.queued) out.write(`  ${q.job_id} ${q.owner} ${q.kind}/${q.trigger}\n`);
  return 0;
}
