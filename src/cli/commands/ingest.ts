// `mnemo ingest FILE|-`: JSON lines of events in batches of 500; re-running a file only reports duplicates.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import cliProgress from 'cli-progress';
import type { Config } from '../../config.js';
import { connect } from '../client.js';

export interface IngestCommandOptions {
  owner: string;
  batch: number;
  json: boolean;
}

interface Totals {
  lines: number;
  accepted: number;
  duplicates: number;
  rejected: number;
}

async function countLines(file: string): Promise<number> {
  let n = 0;
  let last = 10;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (const byte of chunk) if (byte === 10) n++;
    last = chunk[chunk.length - 1] ?? last;
  }
  return last === 10 ? n : n + 1;
}

export async function ingestCommand(
  config: Config,
  file: string,
  options: IngestCommandOptions,
  io: {
    out: NodeJS.WriteStream | NodeJS.WritableStream;
    err: NodeJS.WritableStream;
    stdin: NodeJS.ReadableStream;
  },
): Promise<number> {
  const tty = 'isTTY' in io.err && (io.err as NodeJS.WriteStream).isTTY === true;
  const total = file === '-' ? 0 : await countLines(file);
  const input = file === '-' ? io.stdin : createReadStream(file);
  const conn = await connect(config);
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          stream: io.err as NodeJS.WriteStream,
          format: 'ingest [{bar}] {value}/{total} lines | {eta_formatted} left',
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(total, 0);
  const totals: Totals = { lines: 0, accepted: 0, duplicates: 0, rejected: 0 };
  const rejections: string[] = [];
  let pending: Array<{ line: number; owner: string; event: Record<string, unknown> }> = [];

  const flush = async () => {
    const byOwner = new Map<string, typeof pending>();
    for (const p of pending) byOwner.set(p.owner, [...(byOwner.get(p.owner) ?? []), p]);
    for (const [owner, group] of byOwner) {
      const result = await conn.call('memory.events.ingest', {
        owner,
        events: group.map((g) => g.event),
      });
      totals.accepted += result.accepted;
      totals.duplicates += result.duplicates;
      totals.rejected += result.rejected.length;
      for (const r of result.rejected) {
        const line = group.find((g) => g.event.event_id === r.event_id)?.line;
        rejections.push(`line ${line ?? '?'}: ${r.code}: ${r.message}`);
      }
    }
    bar?.update(totals.lines);
    pending = [];
  };

  try {
    const lines = createInterface({ input, crlfDelay: Infinity });
    for await (const text of lines) {
      totals.lines++;
      if (text.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        totals.rejected++;
        rejections.push(`line ${totals.lines}: INVALID_JSON: not a JSON object`);
        continue;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        totals.rejected++;
        rejections.push(`line ${totals.lines}: EVENT_INVALID: each line must be one event object`);
        continue;
      }
      const { owner, ...event } = parsed as Record<string, unknown>;
      pending.push({ line: totals.lines, owner: typeof owner === 'string' ? owner : options.owner, event });
      if (pending.length >= options.batch) await flush();
    }
    if (pending.length > 0) await flush();
  } finally {
    bar?.stop();
    await conn.close();
  }
  for (const r of rejections.slice(0, 50)) io.err.write(`${r}\n`);
  if (rejections.length > 50) io.err.write(`… ${rejections.length - 50} more rejections\n`);
  const summary = { ...totals, via: conn.mode };
  io.out.write(
    options.json
      ? `${JSON.stringify(summary)}\n`
      : `ingested ${totals.lines} lines: ${totals.accepted} accepted, ${totals.duplicates} duplicates, ${totals.rejected} rejected (via ${conn.mode})\n`,
  );
  return totals.rejected > 0 ? 2 : 0;
}
