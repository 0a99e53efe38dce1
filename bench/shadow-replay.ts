// `npm run bench:shadow [-- --write]`: the shadow replay (bench/shadow.ts) of two recorded multi-session logs,
// read in place from ../shared/data and never copied: the zh-agent-memory development log (a Chinese desktop
// agent's six weeks) and the first LongMemEval_S dev haystack (English chat sessions). Prints a Markdown
// section; `--write` merges it into docs/BENCHMARKS.md between its markers.
import { readFileSync } from 'node:fs';
import { writeSection } from './report.js';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { replayShadow, type LogEvent, type ShadowReport, type Stats } from './shadow.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/data' },
    write: { type: 'boolean', default: false },
  },
});
const DATA = resolve(ROOT, args.data);
const START = '<!-- bench:shadow:start -->';
const END = '<!-- bench:shadow:end -->';

function zhAgentLog(): LogEvent[] {
  const file = join(DATA, 'zh-agent-memory', 'zh_agent_memory_dev.json');
  const log = JSON.parse(readFileSync(file, 'utf8')) as {
    events: Array<Omit<LogEvent, 'at'> & { at: string }>;
  };
  return log.events.map((e) => ({ ...e, at: Date.parse(e.at) }));
}

/** The first LongMemEval_S dev haystack: its sessions at their own dates, one turn a minute. */
function lmeLog(): LogEvent[] {
  const file = join(DATA, 'longmemeval', 'longmemeval_s_dev.json');
  const [entry] = JSON.parse(readFileSync(file, 'utf8')) as Array<{
    haystack_dates: string[];
    haystack_sessions: Array<Array<{ role: string; content: string }>>;
  }>;
  if (!entry) throw new Error('no LongMemEval entry');
  return entry.haystack_sessions.flatMap((session, s) => {
    const date = (entry.haystack_dates[s] ?? '2023/01/01 (Sun) 00:00')
      .replace(/ \(\w+\)/, '')
      .replace(/\//g, '-');
    const start = Date.parse(`${date.replace(' ', 'T')}:00Z`);
    return session.map((turn, t) => ({
      event_id: `lme-${s}-${t}`,
      session_id: `lme-${s}`,
      kind: turn.role === 'user' ? 'user_message' : 'agent_reply',
      role: turn.role === 'user' ? 'user' : 'agent',
      at: start + t * 60_000,
      text: turn.content.slice(0, 32_000),
    }));
  });
}

const int = (n: number) => n.toLocaleString('en-US');
const triple = (s: Stats) => `${int(s.p50)} / ${int(s.p95)} / ${int(s.max)}`;
const counts = (m: Record<string, number>) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, v]) => `${k} ${int(v)}`)
    .join(', ') || 'none';

function rows(reports: readonly ShadowReport[]): string[] {
  const col = (f: (r: ShadowReport) => string) => reports.map(f).join(' | ');
  return [
    `| | ${col((r) => r.name)} |`,
    `|---|${reports.map(() => '---').join('|')}|`,
    `| events / sessions / gated turns | ${col((r) => `${int(r.events)} / ${int(r.sessions)} / ${int(r.turns)}`)} |`,
    `| gate actions | ${col((r) => counts(r.actions))} |`,
    `| gate reasons | ${col((r) => counts(r.reasons))} |`,
    `| triggers (retrieve and prefetch) | ${col((r) => counts(r.triggers))} |`,
    `| shadow packets built | ${col((r) => int(r.packets))} |`,
    `| retrieve without a packet | ${col((r) => counts(r.noPacket))} |`,
    `| packet bytes per gated turn, p50 / p95 / max | ${col((r) => triple(r.perTurn.bytes))} |`,
    `| packet tokens per gated turn, p50 / p95 / max | ${col((r) => triple(r.perTurn.tokens))} |`,
    `| bytes per packet, p50 / p95 / max | ${col((r) => triple(r.perPacket.bytes))} |`,
    `| tokens per packet, p50 / p95 / max | ${col((r) => triple(r.perPacket.tokens))} |`,
    `| candidates dropped, by reason | ${col((r) => counts(r.dropped))} |`,
    `| duplicates dropped | ${col((r) => int(r.dropped.duplicate ?? 0))} |`,
    `| items passed only as quoted data / as ask-the-user | ${col((r) => `${int(r.quoted)} / ${int(r.askUser)}`)} |`,
    `| audit records of packets / matching their packet | ${col((r) => `${int(r.audit.packetRecords)} / ${int(r.audit.matched)}`)} |`,
    `| audit ↔ packets one to one (checked) | ${col((r) => (r.audit.oneToOne ? 'yes' : `NO: ${r.audit.mismatches.join('; ')}`))} |`,
    `| a shadow packet offered for delivery | ${col((r) => (r.deliveryRefused === null ? 'no packet' : r.deliveryRefused ? 'refused' : 'DELIVERED'))} |`,
    `| replay time | ${col((r) => `${(r.ms / 1000).toFixed(1)} s`)} |`,
  ];
}

async function main(): Promise<void> {
  const reports = [
    await replayShadow('zh-agent-memory dev (Chinese)', zhAgentLog()),
    await replayShadow('LongMemEval_S dev, haystack 1 (English)', lmeLog()),
  ];
  const cpu = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`;
  const section = [
    START,
    '## Proactive memory: the shadow replay',
    '',
    `Produced by \`npm run bench:shadow -- --write\` on ${new Date().toISOString().slice(0, 10)}: ${cpu}, Node ${process.versions.node}; an in-process SQLite store in a temporary directory, default settings (\`INJECT_DEFAULTS\`).`,
    '',
    'Each log is replayed in time order through the public methods with a clock at each event’s time: before a user message, tool result or task event the host would act on, `memory.gate` decides; on `retrieve`, `memory.packet.build {shadow: true}` builds a packet from the session’s working memory (no query), which is stored and audited but can never be delivered; then the event is ingested. Agent replies and scheduled runs are ingested without a gate. Nothing is injected: in shadow mode the session’s earlier shadow packets count as delivered for duplicates, so “duplicates dropped” is what a live session would have dropped. Per gated turn, a turn without a packet counts 0 bytes. The audit check asks `memory.audit.query` for every packet (exactly one record, same digest, bytes, tokens, cursor, trigger, sources and expiry) and for every session (every packet record names a built packet). The logs are read in place from `../shared/data` (zh-agent-memory: written for this project, free to use here; LongMemEval: MIT), never copied.',
    '',
    ...rows(reports),
    '',
    'Reproduce: `npm run bench:shadow` (add `-- --write` to update this section).',
    END,
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (args.write) {
    writeSection(join(ROOT, 'docs', 'BENCHMARKS.md'), section, { start: START, end: END });
  }
  if (reports.some((r) => !r.audit.oneToOne || r.deliveryRefused === false)) process.exitCode = 1;
}

await main();
