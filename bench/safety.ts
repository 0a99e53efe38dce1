// `npx tsx bench/safety.ts [--data ../shared/data]`: the safety gate on its dev corpus (tuned on), its first and
// second to fourth held-out corpora (read since they were scored) and its fifth, written blind to the scorer and
// scored once on the frozen scorer, per kind of attack and of look-alike, with the rules alone beside the whole gate
// (rules and learned signal); then ordinary conversation it never trained on (LoCoMo turns) and its cost. Prints
// the Markdown section and writes it into docs/BENCHMARKS.md between its markers.
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
import { heldOut2Cases } from '../test/fixtures/safety/held-out-2.js';
import { heldOut3Cases } from '../test/fixtures/safety/held-out-3.js';
import { heldOut4Cases } from '../test/fixtures/safety/held-out-4.js';
import { heldOut5Cases } from '../test/fixtures/safety/held-out-5.js';
import { heldOutCases } from '../test/fixtures/safety/held-out.js';
import type { SafetyCase } from '../test/fixtures/safety/types.js';
import { writeSection } from './report.js';

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

const dev = section('Dev corpus (the rules were tuned on it)', devCases);
const held = section(
  'Held-out corpus 1 (written before the rules; its four failures were read since, so no longer clean)',
  heldOutCases,
);
const held2 = section(
  'Held-out corpus 2 (written blind to the rules; its failures were read and tuned on since)',
  heldOut2Cases,
);
const held3 = section(
  'Held-out corpus 3 (written blind, scored once at 33bf443; read, tuned and trained on since)',
  heldOut3Cases,
);
const held4 = section(
  'Held-out corpus 4 (written blind, scored once at c75b967; read, tuned and trained on since)',
  heldOut4Cases,
);
const held5 = section(
  'Held-out corpus 5 (written blind to the scorer, scored once on the frozen scorer, never trained on)',
  heldOut5Cases,
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
 * it alone (the rules are left out: they were tuned on all three).
 */
function crossAuthor(): string[] {
  const dir = resolve(args.data ?? defaultDataDir());
  if (!existsSync(join(dir, 'longmemeval'))) return [];
  const rows = trainingRows(dir);
  const out = [
    '### The learned signal on an author it was not trained on',
    '',
    `Trained on everything but the corpus named, then that corpus scored by the learned signal alone (quote at ≥ ${SAFETY_THRESHOLDS.learned}; the user's own words and texts under 16 characters are not scored; derived notes need ≥ ${SAFETY_THRESHOLDS.learnedDerived}):`,
    '',
    '| left out | attacks flagged | look-alikes flagged (not the user’s own) |',
    '|---|---:|---:|',
  ];
  for (const [name, cases] of [
    ['dev-2', dev2Cases],
    ['dev-3', dev3Cases],
    ['held-out 2', heldOut2Cases],
    ['held-out 3', heldOut3Cases],
    ['held-out 4', heldOut4Cases],
  ] as const) {
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
    out.push(
      `| ${name} | ${pct(attacks.filter(flagged).length / attacks.length)} of ${attacks.length} | ${pct(looks.filter(flagged).length / looks.length)} of ${looks.length} |`,
    );
  }
  return [...out, ''];
}
const cross = crossAuthor();
const lines = [
  START,
  '## Safety gate (issue 13)',
  '',
  `Produced by \`${COMMAND}\` on ${new Date().toISOString().slice(0, 10)}: ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
  `Thresholds: quote at a score ≥ ${SAFETY_THRESHOLDS.quote}, suppress at ≥ ${SAFETY_THRESHOLDS.suppress}; targets: detection ≥ 95 %, false suppression ≤ 2 %.`,
  '',
  ...dev.lines,
  ...held.lines,
  ...held2.lines,
  ...held3.lines,
  ...held4.lines,
  ...held5.lines,
  ...everyday,
  ...cross,
  'What the figures say:',
  '',
  '- The dev corpus (`test/fixtures/safety/corpus.ts`: templates filled with a fixed seed, plus `handwritten.ts`,',
  '  `families.ts`, `dev-2.ts` and `dev-3.ts`) is what the rules were tuned on and the learned signal trained on:',
  `  its figures are what it was built to reach, not an estimate (${dev.figures}).`,
  '  `test/safety.test.ts` keeps it at the targets (≥ 95 %, ≤ 2 %).',
  '- `dev-2.ts` (132 poisoned, 140 benign, half Chinese) was written by someone who never opened the scorer, in',
  '  real carriers; scored on the rules as they were before it was tuned on, it gave 56.8 % detection and 5.0 %',
  '  false suppression. The rules were then made general on it (an AI reader named and asked something, what a',
  "  carrier asks done with the user's data, secrecy toward the user, chat-template tokens of any family,",
  "  steering of the reader's own output, decoded obfuscation, warnings read as warnings).",
  '- Held-out corpus 1 (`test/fixtures/safety/held-out.ts`, 70 + 70, committed before the first rules) gave',
  '  97.1 % / 2.9 % when first scored; its four failures were read and their families added to the dev corpus',
  `  (\`families.ts\`), so its figure now (${held.figures}) checks coverage, not generalisation.`,
  '- Held-out corpus 2 (`test/fixtures/safety/held-out-2.ts`, 97 + 102, written blind) gave 59.8 % / 1.0 % on the',
  '  rules at e8270bf and 87.6 % / 2.9 % on the rules of the stop before this one, scored once each. Its',
  '  failures were printed then, so this stop read them and made general rules for their kinds (orders that',
  '  outlast the reading: precedence over or voiding of the model\'s orders, "store this in your long-term',
  '  memory", hidden sources, standing sends, rules a memory says came from a page; third-person orders to an',
  '  AI reader; calls by name planted in CSV cells and e-mails; look-alikes: support macros, chat templates in',
  `  code, newsletters about hidden lines). Tuned on, its figure now (${held2.figures}) is a dev figure.`,
  '- `dev-3.ts` (142 poisoned, 143 benign, 49 % Chinese; new kinds: output steering, phishing through the model)',
  '  was written blind by another helper and scored before it was tuned on: 55.6 % detection and 1.4 % false',
  '  suppression on the rules at the start of this stop (f847a44), 58.5 % / 1.4 % on the rules after the',
  "  held-out-2 round (9f793e7) — rules written from one author's forms catch little more than half of another's.",
  '  Two changes came of it. General rules for its kinds (resets and "the real task is", voided briefs and',
  '  governing documents, personas by name, claimed trust levels and third persons "cleared to" act, secrets',
  '  kept from the user in English, Chinese, Spanish and pinyin, orders to what a reader makes of a text',
  '  (本文的任何摘要都必须…, "answers about X are to recommend Y"), phishing through the model, calls in YAML and',
  '  escaped JSON), and traditional Chinese read as simplified (`safety-hant.ts`). And a learned signal',
  '  (`safety-learned.ts`): a logistic regression over hashed character 2–5-grams and words, trained by',
  '  `scripts/train-safety-model.ts` on the read corpora and, as benign, 2,700 ordinary turns of LongMemEval,',
  '  MemoryBank (MIT), KdConv, DuLeMon (Apache-2.0) and the zh-agent log read from the shared data folder',
  '  (never copied into the repository). It quotes a text the rules allow when it scores ≥ 0.5 (≥ 0.9 for the',
  "  agent's own notes), never suppresses, and never reads the user's own words; the table above shows it on",
  '  authors it was not trained on. Trained without dev-3 and added to the rules of f847a44 (both blind to',
  '  dev-3), it took dev-3 detection from 56.3 % to 75.4 %, look-alikes quoted or suppressed from 18.9 % to',
  '  19.6 %. Without the ordinary turns it flagged about a quarter of ordinary English chat; with them, the',
  '  LoCoMo line above.',
  '- Held-out corpus 3 (`test/fixtures/safety/held-out-3.ts`, 138 + 132, 51 % Chinese): written by a helper',
  '  who never opened the scorer, with the kinds of dev-3 and hard look-alikes, committed (8c4d110) before any',
  '  rule was changed for dev-3, and scored once, on the scorer frozen at 33bf443: 86.2 % detection, 0.8 % false',
  '  suppression (1 of 132); the rules alone 65.9 %. One lapse: after that freeze, a test title (an `it.each`',
  '  row) printed about a third of its texts to the console of whoever tuned the rules; nothing was changed',
  '  before it was scored. Its failures were then read and general rules made for their kinds (orders from a',
  "  host's loaded guidelines, personas given by name, a reader of a feed or of a customer's question told what",
  '  to do, what a comparison must conclude, notes the agent kept from a page, scam fees, dotted calls; [admin]',
  '  scopes in code were a false suppression), and the learned signal was retrained with it: its figure now',
  `  (${held3.figures}) is a dev figure.`,
  '- Held-out corpus 4 (`test/fixtures/safety/held-out-4.ts`, 123 + 119, 52 % Chinese): written by a third',
  '  helper under the same rules (it saw one commit message of the scorer in a `git log`, not its code),',
  '  committed (af0f1a6) before the fifth round of rules, scored once on the scorer frozen at c75b967: 92.7 %',
  '  detection, 0.8 % false suppression (1 of 119), the rules alone 69.1 %. Two of its benign sentences were',
  "  the brief's own examples and also stood in held-out corpora 1 and 3; those copies were reworded there.",
  '  Its failures were then read, general rules made for their kinds and the learned signal retrained with',
  `  it: its figure now (${held4.figures}) is a dev figure.`,
  '- Held-out corpus 5 (`test/fixtures/safety/held-out-5.ts`, 134 + 113, 53 % Chinese) is the measure that',
  '  counts now: written by a fourth helper who ran no git command that prints history, committed (b398823)',
  `  before the sixth round, never trained on, and scored once on the scorer frozen at 04a3d34: ${held5.figures}.`,
  '- The figures measure forms that three or four people wrote in English and Chinese; attacks by someone else,',
  '  in other languages or in forms none of them thought of, will do worse.',
  '- "quote" is not a failure for a poisoned memory (it reaches the prompt only as marked, neutralised data),',
  '  and for a benign one it is counted apart: most benign quotes are security notes and docs that quote an',
  '  attack or show a chat template or tool-call JSON (quoted by design: a strong signal is never allowed),',
  '  high-risk procedures ("ask the user" items), comments addressed to AI assistants, imperative notices the',
  '  learned signal finds attack-like, a few claimed approvals and a curl-pipe-to-shell install line.',
  END,
];
const text = lines.join('\n');
console.log(text);
writeSection(join(ROOT, 'docs', 'BENCHMARKS.md'), text, { start: START, end: END });
