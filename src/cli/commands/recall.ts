// `mnemo recall "query"`: a table of hits with their channel ranks, or --json.
import type { Config } from '../../config.js';
import { connect } from '../client.js';

export interface RecallCommandOptions {
  owner: string;
  limit: number;
  json: boolean;
  session?: string;
  task?: string;
  from?: string;
  to?: string;
}

const CLI_WAIT_MS = 10_000;

const oneLine = (text: string, width: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
};

export async function recallCommand(
  config: Config,
  query: string,
  options: RecallCommandOptions,
  out: NodeJS.WritableStream,
): Promise<number> {
  const conn = await connect(config);
  try {
    const result = await conn.call('memory.recall', {
      owner: options.owner,
      query,
      // A person at a terminal waits for the answer rather than get a request id at 75 ms.
      wait_ms: CLI_WAIT_MS,
      limit: options.limit,
      ...(options.session ? { session_id: options.session } : {}),
      ...(options.task ? { task_id: options.task } : {}),
      ...(options.from ? { from: options.from } : {}),
      ...(options.to ? { to: options.to } : {}),
    });
    if (options.json) {
      out.write(`${JSON.stringify(result)}\n`);
      return 0;
    }
    if (result.status === 'pending') {
      out.write(`still searching after ${CLI_WAIT_MS} ms: request ${result.request_id}\n`);
      return 0;
    }
    for (const d of result.degraded ?? [])
      out.write(`(${d.channel} channel unavailable: ${d.code} ${d.message})\n`);
    if (result.items.length === 0) {
      out.write(`no matches for "${query}" (${result.took_ms} ms)\n`);
      return 0;
    }
    const rows = result.items.map((item, i) => {
      const ch = Object.entries(item.channels)
        .map(([k, v]) => `${k}#${v}`)
        .join(' ');
      return `${String(i + 1).padStart(2)}  ${item.at.slice(0, 16).replace('T', ' ')}  ${item.id.padEnd(18).slice(0, 18)}  ${ch.padEnd(26)}  ${oneLine(item.text, 70)}`;
    });
    out.write(`${' #'}  ${'at'.padEnd(16)}  ${'id'.padEnd(18)}  ${'channels'.padEnd(26)}  text\n`);
    out.write(`${rows.join('\n')}\n`);
    out.write(`${result.items.length} items in ${result.took_ms} ms\n`);
    return 0;
  } finally {
    await conn.close();
  }
}
