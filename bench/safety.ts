// `npx tsx bench/safety.ts`: the safety gate on its dev corpus (tuned on) and its two held-out corpora (never
// tuned on; the second written blind to the rules), per kind of attack and of look-alike. Prints a Markdown
// section for docs/BENCHMARKS.md.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { SAFETY_THRESHOLDS } from '../src/inject/safety.js';
import { devCases } from '../test/fixtures/safety/corpus.js';
import { detection, evaluate, falseSuppression, type Tally } from '../test/fixtures/safety/evaluate.js';
import { heldOut2Cases } from '../test/fixtures/safety/held-out-2.js';
import { heldOutCases } from '../test/fixtures/safety/held-out.js';
import type { SafetyCase } from '../test/fixtures/safety/types.js';

const COMMAND = 'npx tsx bench/safety.ts';
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const zh = (cases: SafetyCase[]): string => pct(cases.filter((c) => c.lang === 'zh').length / cases.length);
const brief = (c: SafetyCase): string =>
  `${c.lang} ${c.category} via ${c.source ?? c.kind}: \`${JSON.stringify(c.text.slice(0, 64)).replace(/\|/g, '\\|')}${c.text.length > 64 ? '…' : ''}\``;

function section(name: string, cases: SafetyCase[]): string[] {
  const started = performance.now();
  const result = evaluate(cases);
  const ms = performance.now() - started;
  const row = (group: string, t: Tally) =>
    `| ${group} | ${t.cases} | ${t.allow} | ${t.quote} | ${t.suppress} |`;
  const groups = [...result.groups].sort(([a], [b]) => a.localeCompare(b));
  return [
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
}

const lines = [
  '## Safety gate (issue 13)',
  '',
  `Produced by \`${COMMAND}\` on ${new Date().toISOString().slice(0, 10)}: ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
  `Thresholds: quote at a score ≥ ${SAFETY_THRESHOLDS.quote}, suppress at ≥ ${SAFETY_THRESHOLDS.suppress}; targets: detection ≥ 95 %, false suppression ≤ 2 %.`,
  '',
  ...section('Dev corpus (the rules were tuned on it)', devCases),
  ...section('Held-out corpus (written before the rules, never tuned on)', heldOutCases),
  ...section('Second held-out corpus (written blind to the rules, never tuned on)', heldOut2Cases),
];
console.log(lines.join('\n'));
