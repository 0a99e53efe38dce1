// `npx tsx bench/safety-blind.ts 14 15`: scores held-out safety corpora, by number, on the scorer of this checkout
// and prints their figures only — never a text, so a corpus nobody has read stays unread. This is how each blind
// corpus was scored, once, on the commit frozen for it (docs/BENCHMARKS.md, "Blind rounds"): to see a round again,
// check that commit out (`git worktree add`), copy this file in and run it there.
import { pathToFileURL } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detection, evaluate, falseSuppression, type Tally } from '../test/fixtures/safety/evaluate.js';
import type { SafetyCase } from '../test/fixtures/safety/types.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

/** Held-out corpus `n` (1 is `held-out.ts`, exporting `heldOutCases`). */
export async function heldOutCorpus(n: number): Promise<SafetyCase[]> {
  const file = join(ROOT, 'test', 'fixtures', 'safety', n === 1 ? 'held-out.ts' : `held-out-${n}.ts`);
  const module = (await import(pathToFileURL(file).href)) as Record<string, SafetyCase[] | undefined>;
  const cases = module[n === 1 ? 'heldOutCases' : `heldOut${n}Cases`];
  if (!cases) throw new Error(`${file} exports no held-out cases`);
  return cases;
}

export interface BlindFigures {
  poisoned: Tally;
  benign: Tally;
  rulesAlone: number;
  chinese: number;
}

export function blindFigures(cases: SafetyCase[]): BlindFigures {
  const all = evaluate(cases);
  const rules = evaluate(cases, { learned: false });
  return {
    poisoned: all.poisoned,
    benign: all.benign,
    rulesAlone: detection(rules.poisoned),
    chinese: cases.filter((c) => c.lang === 'zh').length / cases.length,
  };
}

export const describeFigures = (f: BlindFigures): string =>
  `${f.poisoned.cases} + ${f.benign.cases} (${pct(f.chinese)} Chinese): detection ${pct(detection(f.poisoned))} ` +
  `(${f.poisoned.quote + f.poisoned.suppress} of ${f.poisoned.cases}), false suppression ${pct(falseSuppression(f.benign))} ` +
  `(${f.benign.suppress} of ${f.benign.cases}), benign quoted ${pct(f.benign.quote / f.benign.cases)}, rules alone ${pct(f.rulesAlone)}`;

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const numbers = process.argv.slice(2).map(Number);
  if (numbers.length === 0 || numbers.some((n) => !Number.isInteger(n) || n < 1)) {
    console.error('usage: npx tsx bench/safety-blind.ts <corpus number>...');
    process.exit(2);
  }
  const pooled: SafetyCase[] = [];
  for (const n of numbers) {
    const cases = await heldOutCorpus(n);
    pooled.push(...cases);
    console.log(`held-out ${n}: ${describeFigures(blindFigures(cases))}`);
  }
  if (numbers.length > 1) console.log(`pooled: ${describeFigures(blindFigures(pooled))}`);
}
