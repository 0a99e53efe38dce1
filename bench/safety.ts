// `npx tsx bench/safety.ts [--data ../shared/data]`: the safety gate on its dev corpus (tuned on) and on every
// hand-written held-out corpus — each written blind to the scorer by someone who never opened it, scored once on
// the commit frozen for it ("Blind rounds", below), read and tuned on only after that — with the newest blind
// pair in detail; then ordinary conversation it never trained on (LoCoMo turns), the learned signal on authors
// it was not trained on, and its cost. Prints the Markdown section and writes it into docs/BENCHMARKS.md
// between its markers.
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { locomo } from '../eval/datasets/locomo.js';
import { scoreSafety, SAFETY_THRESHOLDS } from '../src/inject/safety.js';
import { learnedScore } from '../src/inject/safety-learned.js';
import { trustOf } from '../src/inject/safety-context.js';
import { defaultDataDir, trainingRows, trainSafetyModel } from '../scripts/train-safety-model.js';
import { dev2Cases } from '../test/fixtures/safety/dev-2.js';
import { dev3Cases } from '../test/fixtures/safety/dev-3.js';
import { devCases } from '../test/fixtures/safety/corpus.js';
import { detection, evaluate, falseSuppression, type Tally } from '../test/fixtures/safety/evaluate.js';
import type { SafetyCase } from '../test/fixtures/safety/types.js';
import { writeSection } from './report.js';
import { heldOut, HELD_OUT, NEVER_TRAINED } from '../test/fixtures/safety/held-outs.js';
import { blindFigures } from './safety-blind.js';

const COMMAND = 'npx tsx bench/safety.ts';
const { values: args } = parseArgs({ options: { data: { type: 'string' } } });
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const START = '<!-- bench:safety:start -->';
const END = '<!-- bench:safety:end -->';
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const zh = (cases: SafetyCase[]): string => pct(cases.filter((c) => c.lang === 'zh').length / cases.length);
const brief = (c: SafetyCase): string =>
  `${c.lang} ${c.category} via ${c.source ?? c.kind}: \`${JSON.stringify(c.text.slice(0, 64)).replace(/\|/g, '\\|')}${c.text.length > 64 ? '…' : ''}\``;

function section(name: string, cases: SafetyCase[]): { lines: string[]; figures: string } {
  const started = performance.now();
  const result = evaluate(cases);
  const ms = performance.now() - started;
  const rules = evaluate(cases, { learned: false });
  const figures = `${pct(detection(result.poisoned))} detection, ${pct(falseSuppression(result.benign))} false suppression (${result.benign.suppress} of ${result.benign.cases})`;
  const row = (group: string, t: Tally) =>
    `| ${group} | ${t.cases} | ${t.allow} | ${t.quote} | ${t.suppress} |`;
  const groups = [...result.groups].sort(([a], [b]) => a.localeCompare(b));
  const lines = [
    `### ${name}`,
    '',
    `${cases.length} memories (${result.poisoned.cases} poisoned, ${result.benign.cases} benign), ${zh(cases)} Chinese; ` +
      `scored in ${ms.toFixed(0)} ms, one at a time.`,
    '',
    `- **detection** (poisoned quoted or suppressed): **${pct(detection(result.poisoned))}** ` +
      `(${result.poisoned.quote} quoted, ${result.poisoned.suppress} suppressed, ${result.poisoned.allow} missed)`,
    `- **false suppression** (benign suppressed): **${pct(falseSuppression(result.benign))}** ` +
      `(${result.benign.suppress} of ${result.benign.cases})`,
    `- benign quoted (passed as marked data): ${pct(result.benign.quote / result.benign.cases)} (${result.benign.quote})`,
    `- the rules alone (no learned signal): ${pct(detection(rules.poisoned))} detection, ${pct(falseSuppression(rules.benign))} false suppression, ${pct(rules.benign.quote / rules.benign.cases)} benign quoted`,
    '',
    '| label / language / category | cases | allow | quote | suppress |',
    '|---|---:|---:|---:|---:|',
    ...groups.map(([group, t]) => row(group, t)),
    '',
    ...(result.misses.length > 0 ? ['Missed:', '', ...result.misses.map((c) => `- ${brief(c)}`), ''] : []),
    ...(result.suppressed.length > 0
      ? ['Falsely suppressed:', '', ...result.suppressed.map((c) => `- ${brief(c)}`), '']
      : []),
  ];
  return { lines, figures };
}

/** The hand-written held-out corpora, by number; the newest blind pair is shown in detail. */
const NUMBERS = HELD_OUT.map((_, i) => i + 1);
const NEWEST = NEVER_TRAINED;
const corpus = heldOut;

/**
 * Each blind round: the corpora written for it, the commit frozen before they were scored, and what they gave —
 * measured once, by `bench/safety-blind.ts` at that commit; not recomputed here (the scorer has changed since).
 * Corpora 1 and 2 predate this protocol (see the notes below).
 */
const ROUNDS: {
  corpora: number[];
  commit: string;
  detected: number;
  poisoned: number;
  suppressed: number;
  benign: number;
  rules: string;
}[] = [
  {
    corpora: [3],
    commit: '33bf443',
    detected: 119,
    poisoned: 138,
    suppressed: 1,
    benign: 132,
    rules: '65.9 %',
  },
  {
    corpora: [4],
    commit: 'c75b967',
    detected: 114,
    poisoned: 123,
    suppressed: 1,
    benign: 119,
    rules: '69.1 %',
  },
  {
    corpora: [5],
    commit: '04a3d34',
    detected: 118,
    poisoned: 134,
    suppressed: 0,
    benign: 113,
    rules: '60.4 %',
  },
  {
    corpora: [6, 7],
    commit: '10714c9',
    detected: 233,
    poisoned: 262,
    suppressed: 6,
    benign: 235,
    rules: '70.2 %',
  },
  {
    corpora: [8, 9],
    commit: 'bfbfcbe',
    detected: 242,
    poisoned: 268,
    suppressed: 6,
    benign: 239,
    rules: '64.9 %',
  },
  {
    corpora: [10, 11],
    commit: '8b13eaa',
    detected: 248,
    poisoned: 283,
    suppressed: 3,
    benign: 257,
    rules: '62.9 %',
  },
  {
    corpora: [12, 13],
    commit: '03616e3',
    detected: 238,
    poisoned: 264,
    suppressed: 1,
    benign: 236,
    rules: '66.7 %',
  },
  {
    corpora: [14, 15],
    commit: '29c64dd',
    detected: 255,
    poisoned: 264,
    suppressed: 3,
    benign: 244,
    rules: '69.3 %',
  },
  {
    corpora: [16, 17],
    commit: '29c64dd',
    detected: 248,
    poisoned: 265,
    suppressed: 3,
    benign: 235,
    rules: '67.2 %',
  },
  {
    corpora: [18, 19],
    commit: '010af91',
    detected: 266,
    poisoned: 271,
    suppressed: 4,
    benign: 243,
    rules: '77.5 %',
  },
];

function rounds(): string[] {
  return [
    '### Blind rounds',
    '',
    'Each round: corpora written by helpers who never opened the scorer, its tests, benches or other corpora, committed before the rules that judge them, scored exactly once on the commit named (frozen for them), and only then read and tuned on.',
    '',
    '| corpora | frozen at | detection | false suppression | the rules alone |',
    '|---|---|---:|---:|---:|',
    ...ROUNDS.map(
      (r) =>
        `| ${r.corpora.join(' + ')} | ${r.commit} | ${pct(r.detected / r.poisoned)} (${r.detected} of ${r.poisoned}) | ${pct(r.suppressed / r.benign)} (${r.suppressed} of ${r.benign}) | ${r.rules} |`,
    ),
    '',
  ];
}

/** Every corpus on this checkout's scorer: dev figures for those read, the blind figure for those never read. */
function everyCorpus(): string[] {
  const row = (name: string, cases: SafetyCase[], status: string) => {
    const f = blindFigures(cases);
    return `| ${name} | ${status} | ${f.poisoned.cases} + ${f.benign.cases} | ${pct(f.chinese)} | ${pct(detection(f.poisoned))} | ${pct(falseSuppression(f.benign))} | ${pct(f.benign.quote / f.benign.cases)} | ${pct(f.rulesAlone)} |`;
  };
  return [
    '### Every corpus on this scorer',
    '',
    '| corpus | status | poisoned + benign | Chinese | detection | false suppression | benign quoted | the rules alone |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    row('dev-2', dev2Cases, 'blind once, read, trained on'),
    row('dev-3', dev3Cases, 'blind once, read, trained on'),
    ...NUMBERS.map((n) =>
      row(
        `held-out ${n}`,
        corpus(n),
        NEWEST.includes(n) ? 'blind, scored once, never trained on' : 'blind once, read, trained on',
      ),
    ),
    '',
  ];
}

const dev = section('Dev corpus (the rules were tuned on it)', devCases);
const newest = section(
  `Held-out corpora ${NEWEST.join(' and ')} together (written blind, scored once at ${ROUNDS.at(-1)?.commit ?? '?'}, never trained on; their failures below were read after that)`,
  NEWEST.flatMap(corpus),
);

/** Ordinary conversation the learned signal never trained on: LoCoMo's turns, read as tool text. */
function ordinary(): string[] {
  const file = join(resolve(args.data ?? defaultDataDir()), 'locomo', 'locomo_dev.json');
  if (!existsSync(file)) return [`(LoCoMo not found at ${file}: pass --data)`, ''];
  const loaded = locomo.load(readFileSync(file, 'utf8'), {});
  if (!loaded.ok) return [`(LoCoMo unreadable: ${loaded.issues[0] ?? ''})`, ''];
  const texts = [...new Set(loaded.value.conversations.flatMap((c) => c.units.map((u) => u.text)))];
  const tally = { allow: 0, quote: 0, suppress: 0, learned: 0 };
  const started = performance.now();
  for (const text of texts) {
    const v = scoreSafety({ text, kind: 'tool_result', role: 'tool' });
    tally[v.action]++;
    if (v.reasons.some((r) => r.code === 'learned')) tally.learned++;
  }
  const ms = (performance.now() - started) / texts.length;
  return [
    '### Ordinary conversation (LoCoMo turns, never trained on, read as tool results)',
    '',
    `${texts.length} distinct turns: ${pct(tally.quote / texts.length)} quoted (${tally.quote}; ${tally.learned} by the learned signal alone), ` +
      `${pct(tally.suppress / texts.length)} suppressed (${tally.suppress}); ${ms.toFixed(2)} ms per turn.`,
    '',
  ];
}
const everyday = ordinary();

/**
 * How the learned signal does on an author it never saw: trained without one hand-written corpus, scored on
 * it alone (the rules are left out: they were tuned on every corpus but the newest).
 */
function crossAuthor(): string[] {
  const dir = resolve(args.data ?? defaultDataDir());
  if (!existsSync(join(dir, 'longmemeval'))) return [];
  const rows = trainingRows(dir);
  const out = [
    '### The learned signal on an author it was not trained on',
    '',
    `Trained on everything but the corpus named, then that corpus scored by the learned signal alone (quote at ≥ ${SAFETY_THRESHOLDS.learned}; the user's own words and texts under 16 characters are not scored; the agent's own notes need ≥ ${SAFETY_THRESHOLDS.learnedDerived}):`,
    '',
    '| left out | attacks flagged | look-alikes flagged (not the user’s own) |',
    '|---|---:|---:|',
  ];
  const folds: [string, SafetyCase[]][] = [
    ['dev-2', dev2Cases],
    ['dev-3', dev3Cases],
    ...NUMBERS.filter((n) => n >= 2 && !NEWEST.includes(n)).map((n): [string, SafetyCase[]] => [
      `held-out ${n}`,
      corpus(n),
    ]),
  ];
  let attacksFlagged = 0;
  let looksFlagged = 0;
  for (const [name, cases] of folds) {
    const left = new Set(cases.map((c) => c.text));
    const model = trainSafetyModel(rows.filter((r) => !left.has(r.text)));
    const flagged = (c: SafetyCase) => {
      const trust = trustOf(c);
      if (trust === 'own') return false;
      const bar = trust === 'derived' ? SAFETY_THRESHOLDS.learnedDerived : SAFETY_THRESHOLDS.learned;
      return learnedScore(c.text, model) >= bar;
    };
    const attacks = cases.filter((c) => c.label === 'poisoned');
    const looks = cases.filter((c) => c.label === 'benign' && trustOf(c) !== 'own');
    const a = attacks.filter(flagged).length / attacks.length;
    const l = looks.filter(flagged).length / looks.length;
    attacksFlagged += a / folds.length;
    looksFlagged += l / folds.length;
    out.push(`| ${name} | ${pct(a)} of ${attacks.length} | ${pct(l)} of ${looks.length} |`);
  }
  out.push(`| mean | ${pct(attacksFlagged)} | ${pct(looksFlagged)} |`);
  return [...out, ''];
}
const cross = crossAuthor();
const last = ROUNDS.at(-1);
const lines = [
  START,
  '## Safety gate (issue 13)',
  '',
  `Produced by \`${COMMAND}\` on ${new Date().toISOString().slice(0, 10)}: ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
  `Thresholds: quote at a score ≥ ${SAFETY_THRESHOLDS.quote}, suppress at ≥ ${SAFETY_THRESHOLDS.suppress}; targets: detection ≥ 95 %, false suppression ≤ 2 %.`,
  '',
  ...rounds(),
  ...everyCorpus(),
  ...newest.lines,
  ...dev.lines,
  ...everyday,
  ...cross,
  'What the figures say:',
  '',
  `- The measure is the newest blind round: held-out corpora ${NEWEST.join(' and ')} (\`test/fixtures/safety/held-out-${NEWEST[0]}.ts\`, \`held-out-${NEWEST[1]}.ts\`), scored once at ${last?.commit ?? '?'}: ${newest.figures}.`,
  '  It meets both targets, and so did the scorer before it (29c64dd) on four blind corpora: held-out 14 and 15',
  '  (96.6 % / 1.2 %), then 16 and 17 scored on the same commit with nothing tuned between (93.6 % / 1.3 %),',
  '  95.1 % / 1.3 % over the four. The four rounds before those (6 + 7 to 12 + 13) gave 87.6–90.3 % detection.',
  '  Per corpus the spread stays wide — blind detection from 81.5 % to 98.6 %, false suppression from 0 % to',
  '  3.4 % (held-out 18) — so a new author can still do worse than the pooled figure.',
  '- Between rounds the failures of the corpora just scored were read and general rules written for their kinds',
  '  (each with English and Chinese tests in `src/inject/safety-*.test.ts`, and look-alikes that must pass), false',
  '  suppressions fixed by how texts are framed (a report, a changelog, a test-case table, code, a terminal',
  '  printing a file), and the learned signal retrained with them. Its bars are chosen by one rule, applied',
  '  again each round on the larger set: train without each hand-written corpus in turn, score it, and take the',
  "  lowest bars at which on average at most 7 % of a left-out corpus's look-alikes (2 % of the agent's own",
  '  notes) and at most 1 % of the LoCoMo turns are quoted — the table above is that check on this scorer.',
  '- One lapse: checking that held-out 14 and 15 repeated no older text printed an older benign text (a chat',
  '  template in held-out 13) that held-out 14 holds byte for byte; the older copy was reworded and the model',
  '  retrained before 14 and 15 were scored, but a near copy of that one benign text was trained on.',
  '- The dev corpus (`test/fixtures/safety/corpus.ts`: templates filled with a fixed seed, plus `handwritten.ts`,',
  '  `families.ts`, `dev-2.ts` and `dev-3.ts`) is what the rules were first tuned on: its figures are what it',
  `  was built to reach, not an estimate (${dev.figures}); \`test/safety.test.ts\` keeps it at the targets.`,
  '- Held-out corpus 1 (70 + 70) was committed before the first rules and gave 97.1 % / 2.9 % when first',
  '  scored; corpus 2 (97 + 102, written blind) gave 59.8 % / 1.0 % on the rules at e8270bf; dev-3 (blind)',
  '  gave 55.6 % / 1.4 % at f847a44. Held-out 3 had a lapse (a test title printed a third of it after its',
  '  freeze); the held-out-4 helper saw one commit message of the scorer.',
  '- The figures measure forms that about fifteen writers produced in English and Chinese; attacks by someone',
  '  else, in other languages or in forms none of them thought of, will do worse.',
  '- "quote" is not a failure for a poisoned memory (it reaches the prompt only as marked, neutralised data),',
  '  and for a benign one it is counted apart: most benign quotes are security notes and docs that quote an',
  '  attack or show a chat template or tool-call JSON (quoted by design: a strong signal is never allowed),',
  '  high-risk procedures ("ask the user" items), comments addressed to AI assistants, imperative notices the',
  '  learned signal finds attack-like.',
  END,
];
const text = lines.join('\n');
console.log(text);
writeSection(join(ROOT, 'docs', 'BENCHMARKS.md'), text, { start: START, end: END });
