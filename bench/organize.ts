// `npx tsx bench/organize.ts [--write]`: how far a month of a desktop agent's events shrinks in context tokens
// once organized, how far back a 32,000-byte context then reaches, and what compaction costs per 1,000 events
// (extractive; and through the model path against a scripted model). Prints a Markdown section; `--write`
// merges it into docs/BENCHMARKS.md. The data is read from ../shared/data, never copied.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeSection } from './report.js';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createOpenAiProvider } from '../src/llm/llm.js';
import { createLocalClient } from '../src/local-client.js';
import { silentLogger } from '../src/log.js';
import { summarizeExtractively } from '../src/organize/extractive.js';
import {
  createExtractiveSummarizer,
  createModelSummarizer,
  createOrganize,
  type ChainStatus,
  type ContextResult,
  type Piece,
  type Summarizer,
} from '../src/organize/organize.js';
import { createOrganizeWorker, MODEL_NODE_CHARS } from '../src/organize/worker.js';
import { createMethodTable } from '../src/protocol/methods.js';
import { openMemory } from '../src/service.js';
import { estimateTokens, loadTokenCounter } from '../src/text/tokens.js';
import { startScriptedModel } from '../test/helpers/scripted-model.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/data' },
    write: { type: 'boolean', default: false },
  },
});
const DATA = resolve(ROOT, args.data);
const OWNER = 'bench';
const CONTEXT_BYTES = 32_000;
const START = '<!-- bench:organize:start -->';
const END = '<!-- bench:organize:end -->';

interface Event {
  event_id: string;
  session_id?: string;
  kind: string;
  role: string;
  at: number;
  text: string;
}

/** October 2026 of the zh-agent-memory development log (a desktop agent's month, written for mnemo). */
function zhMonth(): Event[] {
  const file = join(DATA, 'zh-agent-memory', 'zh_agent_memory_dev.json');
  const log = JSON.parse(readFileSync(file, 'utf8')) as { events: Array<Omit<Event, 'at'> & { at: string }> };
  const end = Date.parse('2026-11-01T00:00:00+08:00');
  return log.events.map((e) => ({ ...e, at: Date.parse(e.at) })).filter((e) => e.at < end);
}

/** The first LongMemEval_S dev haystack: its sessions at their own dates, one turn a minute. */
function lmeHaystack(): Event[] {
  const file = join(DATA, 'longmemeval', 'longmemeval_s_dev.json');
  const [entry] = JSON.parse(readFileSync(file, 'utf8')) as Array<{
    haystack_dates: string[];
    haystack_sessions: Array<Array<{ role: string; content: string }>>;
  }>;
  if (!entry) throw new Error('no LongMemEval entry');
  const events: Event[] = [];
  entry.haystack_sessions.forEach((session, s) => {
    const date = (entry.haystack_dates[s] ?? '2023/01/01 (Sun) 00:00')
      .replace(/ \(\w+\)/, '')
      .replace(/\//g, '-');
    const start = Date.parse(`${date.replace(' ', 'T')}:00Z`);
    session.forEach((turn, t) => {
      const user = turn.role === 'user';
      events.push({
        event_id: `lme-${s}-${t}`,
        session_id: `lme-${s}`,
        kind: user ? 'user_message' : 'agent_reply',
        role: user ? 'user' : 'agent',
        at: start + t * 60_000,
        text: turn.content.slice(0, 32_000),
      });
    });
  });
  return events.sort((a, b) => a.at - b.at);
}

async function withStore<T>(
  events: Event[],
  fn: (s: Awaited<ReturnType<typeof openStore>>) => Promise<T>,
): Promise<T> {
  const store = await openStore(events);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function openStore(events: Event[]) {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-organize-'));
  const now = () => (events.at(-1)?.at ?? 0) + 2 * 3_600_000;
  const service = await openMemory({ config: { dataDir: dir, redactEmails: true }, now });
  const client = createLocalClient(createMethodTable(service));
  for (let i = 0; i < events.length; i += 500) {
    await client.call('memory.events.ingest', { owner: OWNER, events: events.slice(i, i + 500) });
  }
  const organize = createOrganize({ driver: service.driver, redactor: service.redactor, now, dataDir: dir });
  return {
    client,
    organize,
    async run(summarizer: Summarizer) {
      await organize.request({ owner: OWNER, kind: 'organize' });
      const worker = createOrganizeWorker({
        organize,
        summarizer,
        log: silentLogger(),
        now,
        tickEveryMs: Infinity,
      });
      const started = performance.now();
      let steps = 0;
      for (let outcome = await worker.step(); outcome !== 'idle'; outcome = await worker.step()) {
        if (outcome !== 'committed') throw new Error(`organize step ${outcome}`);
        steps++;
      }
      return { steps, seconds: (performance.now() - started) / 1000 };
    },
    context: (budget: { max_tokens: number; max_bytes: number }) =>
      client.call<ContextResult>('memory.chain.context', { owner: OWNER, ...budget }),
    status: () => client.call<ChainStatus>('memory.chain.status', { owner: OWNER }),
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Events a context reaches (its raw events and the events under its nodes), and over how many days back. */
function reach(c: ContextResult, newest: number): string {
  const events = c.events.length + c.nodes.reduce((sum, n) => sum + n.events, 0);
  const oldest = Date.parse(c.nodes[0]?.first_at ?? c.events[0]?.at ?? '');
  return `${fmt(events)}, ${fmt((newest - oldest) / 86_400_000, 1)} days`;
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function measure(name: string, events: Event[]) {
  const exact = await loadTokenCounter('exact');
  const whole = { max_tokens: 1_000_000, max_bytes: 4_000_000 };
  const host = { max_tokens: 1_000_000, max_bytes: CONTEXT_BYTES };
  const extractive = await withStore(events, async (s) => {
    const before = await s.context(whole);
    const beforeHost = await s.context(host);
    const cost = await s.run(createExtractiveSummarizer(s.organize.options.nodeTokens));
    const after = await s.context(whole);
    const afterHost = await s.context(host);
    const status = await s.status();
    return { before, beforeHost, after, afterHost, cost, status };
  });
  const model = await startScriptedModel([], {
    // The scripted model answers with the extractive summary of the pieces it was shown.
    fallback: (body) => {
      const shown = JSON.parse(body.messages.find((m) => m.role === 'user')?.content ?? '{}') as {
        pieces: Piece[];
      };
      const pieces = shown.pieces.map((p) => ({
        ...p,
        type: p.ref.startsWith('node:') ? ('node' as const) : ('event' as const),
      }));
      return { json: { summary: summarizeExtractively(pieces, 300) } };
    },
  });
  const viaModel = await withStore(events, async (s) => {
    const summarizer = createModelSummarizer(
      createOpenAiProvider({ baseUrl: model.url, model: 'scripted' }),
      MODEL_NODE_CHARS,
    );
    const cost = await s.run(summarizer);
    return { cost, status: await s.status(), after: await s.context(whole) };
  });
  await model.close();
  const per = 1_000 / events.length;
  const counts = events.map((ev) => [estimateTokens(ev.text), exact.count(ev.text)] as const);
  const sum = (i: 0 | 1) => counts.reduce((a, c) => a + c[i], 0);
  const under = counts.filter(([a, b]) => a < b).length;
  const newest = events.at(-1)?.at ?? 0;
  const days = (newest - (events[0]?.at ?? 0)) / 86_400_000;
  const e = extractive;
  const nodes = (st: ChainStatus) =>
    st.owners[0]?.levels.map((l) => `L${l.level} ${l.active}/${l.nodes}`).join(', ') ?? '';
  return {
    estimate: `| ${name} | ${fmt(sum(0))} | ${fmt(sum(1))} | ${fmt(sum(0) / sum(1), 2)} | ${fmt((100 * under) / events.length)}% | ${fmt(e.before.tokens / exact.count(e.before.text), 2)} |`,
    shrink: `| ${name} | ${fmt(events.length)} over ${fmt(days, 0)} days | ${fmt(e.before.tokens)} (${fmt(exact.count(e.before.text))}) | ${fmt(e.after.tokens)} (${fmt(exact.count(e.after.text))}) | ${fmt(e.before.tokens / e.after.tokens, 1)}× | ${nodes(e.status)}; ${fmt(e.after.events.length)} raw | ${reach(e.beforeHost, newest)} | ${reach(e.afterHost, newest)} |`,
    cost: `| ${name} | ${fmt(e.cost.steps * per)} | ${fmt((e.cost.seconds * 1000 * per) / 1000, 2)} s | ${fmt(viaModel.status.usage.model_calls * per)} | ${fmt(viaModel.status.usage.prompt_tokens * per)} | ${fmt(viaModel.status.usage.completion_tokens * per)} | ${fmt(viaModel.after.tokens)} |`,
  };
}

async function main() {
  const corpora: Array<[string, Event[]]> = [
    ['zh-agent-memory, October 2026 (Chinese desktop agent)', zhMonth()],
    ['LongMemEval_S dev, first haystack (English chat)', lmeHaystack()],
  ];
  const rows = [];
  for (const [name, events] of corpora) rows.push(await measure(name, events));
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const section = [
    START,
    '## Organize: compaction and context (issue 12)',
    '',
    `Produced by \`npx tsx bench/organize.ts --write\` on ${new Date().toISOString().slice(0, 10)}: ${cpu}, Node ${process.versions.node}; an in-process SQLite store in a temporary directory.`,
    '',
    'Each corpus is ingested for one owner, then one explicit `organize` job runs to the end with mnemo’s own',
    'worker, as the hourly trigger would once the owner is idle: it compacts every event outside the newest',
    '2,000 tokens into level-1 nodes (≤ 8 events each), merges a level’s oldest nodes into one a level up',
    'once it holds more than 8, and disposes of the archive queue. "Context" is `memory.chain.context` with',
    'an unbounded budget: the core documents (none here), the active nodes and the raw events, measured in',
    'portable-v1 tokens (o200k_base in brackets, counted exactly over the same text). "Reach" is how many of',
    `the events a context of ${fmt(CONTEXT_BYTES)} bytes (the seed’s host budget) covers, raw or under one of its nodes,`,
    'and how many days back from the newest event; before compaction it holds only the newest raw events.',
    '',
    '| corpus | events | context tokens before | after | shrink | nodes active/all; raw left | reach at 32,000 B before | after |',
    '|---|---:|---:|---:|---:|---|---:|---:|',
    ...rows.map((r) => r.shrink),
    '',
    'The extractive summarizer keeps the first sentence of each piece (clipped to an even share of 300 tokens a',
    'node) and so loses detail at every level; the nodes are a map back to the raw events (every one stays',
    'readable through `memory.chain.expand`), not a retelling. Cost per 1,000 events: the extractive steps and',
    'their wall time (no model); and the same run through the model path — the versioned `compact-v1` prompt',
    'and the pieces (heads of ≤ 1,200 characters) sent to a scripted OpenAI-compatible server on 127.0.0.1',
    'that answers with the extractive summary of what it was shown. Calls are counted by the worker; tokens are',
    'what the scripted server reported, which **estimates** them (portable-v1) over the exact prompt and its',
    'answer: prompt tokens are what a real model would be sent, completion tokens are indicative only (a real',
    'model writes its own summary, up to the 800 characters it is asked for). The last column is the context',
    'after the model-path run, in portable tokens.',
    '',
    'Per 1,000 events (the runs scaled):',
    '',
    '| corpus | steps (extractive) | wall time | model calls | prompt tokens | completion tokens | context after, model path |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => r.cost),
    '',
    'The portable estimate (`src/text/tokens.ts`: 1 token per CJK character and full-width punctuation mark,',
    '0.3 per other character) against the exact o200k_base counts (gpt-tokenizer, `MNEMO_TOKENIZER=exact`), over',
    'the same event texts and over the whole context before compaction (its `[time role]` lines hold digits and',
    'Latin letters that o200k spends more on than 0.3 a character). Below 1 the estimate counts fewer tokens than',
    'o200k would: a context that fits a budget by the estimate can be that much over it for an o200k model,',
    'which `MNEMO_TOKENIZER=exact` avoids. English is overestimated, so its budgets are kept with room to spare.',
    '',
    '| corpus | events, estimate | o200k | estimate / o200k | events under o200k | context before, estimate / o200k |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => r.estimate),
    '',
    'Reproduce: `npx tsx bench/organize.ts` (add `--write` to update this section).',
    END,
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (args.write) {
    writeSection(join(ROOT, 'docs', 'BENCHMARKS.md'), section, { start: START, end: END });
  }
}

await main();
