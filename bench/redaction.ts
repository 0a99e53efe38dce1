// `npx tsx bench/redaction.ts`: the share of each kind of secret in the redaction corpus that redaction
// removes, and the share of look-alikes it alters. Prints a Markdown section for docs/BENCHMARKS.md.
// A secret counts as redacted when none of its needles (the value as written, its core) is left in the
// output, compared ignoring case as the index would.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createRedactor } from '../src/text/redact.js';
import { redactMeta } from '../src/text/redact-meta.js';
import { lookalikeSamples } from '../test/fixtures/redaction/lookalikes.js';
import { secretSamples } from '../test/fixtures/redaction/secrets.js';

const COMMAND = 'npx tsx bench/redaction.ts';
const redactor = createRedactor({ salt: 'bench' });

const pct = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)} %`;

async function outputOf(text: string, meta?: Record<string, unknown>): Promise<string> {
  if (meta) return JSON.stringify((await redactMeta(redactor, meta)).meta);
  return (await redactor.redact(text)).text;
}

const started = performance.now();
const perKind = new Map<string, { samples: number; redacted: number }>();
for (const sample of secretSamples) {
  const out = (await outputOf(sample.text, sample.meta)).toLowerCase();
  const row = perKind.get(sample.kind) ?? { samples: 0, redacted: 0 };
  row.samples++;
  if (!sample.needles.some((needle) => out.includes(needle.toLowerCase()))) row.redacted++;
  perKind.set(sample.kind, row);
}
const alteredKinds = new Map<string, number>();
let altered = 0;
for (const sample of lookalikeSamples) {
  if ((await redactor.redact(sample.text)).text === sample.text) continue;
  altered++;
  alteredKinds.set(sample.kind, (alteredKinds.get(sample.kind) ?? 0) + 1);
}
const seconds = (performance.now() - started) / 1000;

const redacted = [...perKind.values()].reduce((sum, row) => sum + row.redacted, 0);
const lines = [
  '## Redaction (issue 8)',
  '',
  `Produced by \`${COMMAND}\` on ${new Date().toISOString().slice(0, 10)}: ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
  'Corpus: `test/fixtures/redaction/secrets.ts` (secrets in their providers’ formats, English and Chinese',
  'surroundings, some as meta) and `test/fixtures/redaction/lookalikes.ts` (hashes, ids, order numbers, placeholders,',
  'counts…), all generated from fixed seeds. A secret counts as redacted when neither its value nor its core is',
  'left in the output (ignoring case); `test/redaction.test.ts` sends the same corpus through a server and searches',
  'every byte of its data directory.',
  '',
  '| kind | samples | redacted |',
  '|---|---:|---:|',
  ...[...perKind].map(([kind, row]) => `| ${kind} | ${row.samples} | ${pct(row.redacted, row.samples)} |`),
  `| **all ${perKind.size} kinds** | **${secretSamples.length}** | **${pct(redacted, secretSamples.length)}** |`,
  '',
  `Look-alikes altered: ${altered} of ${lookalikeSamples.length} (${pct(altered, lookalikeSamples.length)}) over ` +
    `${new Set(lookalikeSamples.map((s) => s.kind)).size} kinds` +
    (alteredKinds.size > 0 ? `: ${[...alteredKinds].map(([k, n]) => `${k} ${n}`).join(', ')}.` : '.'),
  '',
  `${secretSamples.length + lookalikeSamples.length} texts in ${seconds.toFixed(2)} s, one at a time (warm-up included).`,
];
console.log(lines.join('\n'));
