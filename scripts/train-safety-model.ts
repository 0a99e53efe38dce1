// `npx tsx scripts/train-safety-model.ts [--data ../shared/data]`: trains the safety gate's learned signal
// (src/inject/safety-learned.ts) and writes src/inject/safety-model.bin. It learns from every safety corpus that
// has been read — the generated dev corpus (one case in four: its templates repeat themselves), the hand-written
// ones, dev-2, dev-3 and every held-out corpus whose failures were read — and from ordinary conversation
// as benign text, so that chatting is not mistaken for an attack: turns of LongMemEval and MemoryBank (MIT),
// KdConv and DuLeMon (Apache-2.0) and the project's zh-agent log, read from the shared data folder beside the
// repository (never copied into it; LoCoMo, non-commercial, is left out and used only to check). The newest
// held-out corpora (`NEVER_TRAINED` in test/fixtures/safety/held-outs.ts) are never trained on.
// Deterministic: the same inputs give the same file (test/safety-model.test.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dulemon } from '../eval/datasets/dulemon.js';
import { longmemeval } from '../eval/datasets/longmemeval.js';
import { zhAgent } from '../eval/datasets/zh-agent.js';
import { findRepoRoot } from '../eval/paths.js';
import type { DatasetModule } from '../eval/types.js';
import {
  encodeModel,
  LEARNED_BITS,
  learnedFeatures,
  MODEL_FILE,
  type LearnedModel,
} from '../src/inject/safety-learned.js';
import { devCases } from '../test/fixtures/safety/corpus.js';
import { dev2Cases } from '../test/fixtures/safety/dev-2.js';
import { dev3Cases } from '../test/fixtures/safety/dev-3.js';
import { familyCases } from '../test/fixtures/safety/families.js';
import { handwrittenCases } from '../test/fixtures/safety/handwritten.js';
import { HELD_OUT, NEVER_TRAINED } from '../test/fixtures/safety/held-outs.js';
import type { SafetyCase } from '../test/fixtures/safety/types.js';

/**
 * AdaGrad steps on the log loss, with an L2 penalty, over a fixed number of seeded shuffles; an ordinary turn
 * counts `ordinaryWeight` of a corpus case (there are more of them, and they are easy). The penalty keeps rare
 * n-grams from deciding alone: with it, ordinary conversation the model never saw scores lower (it was chosen
 * with the bars in safety.ts, by leaving each hand-written corpus out in turn).
 */
export const TRAINING = {
  epochs: 12,
  rate: 0.5,
  l2: 1e-4,
  seed: 7,
  generatedEvery: 4,
  ordinaryWeight: 0.2,
} as const;

/** How many ordinary turns each source gives, taken evenly through it. */
const ORDINARY = {
  longmemeval: 800,
  memorybankEn: 300,
  kdconv: 600,
  dulemon: 300,
  memorybankCn: 300,
  zhAgent: 400,
};

export interface TrainingRow {
  text: string;
  label: 'poisoned' | 'benign';
  weight: number;
}

export const defaultDataDir = (): string => resolve(findRepoRoot(), '..', 'shared', 'data');

const uniq = (texts: string[]): string[] => [
  ...new Set(texts.map((t) => t.trim()).filter((t) => t.length > 0)),
];
const evenly = (texts: string[], n: number): string[] => {
  const step = Math.max(1, Math.floor(texts.length / n));
  return texts.filter((_, i) => i % step === 0).slice(0, n);
};
function turns(module: DatasetModule, file: string): string[] {
  const loaded = module.load(readFileSync(file, 'utf8'), {});
  if (!loaded.ok) throw new Error(`${file}: ${loaded.issues.slice(0, 3).join('; ')}`);
  return loaded.value.conversations.flatMap((c) => c.units.map((u) => u.text));
}
function kdconv(dir: string): string[] {
  const out: string[] = [];
  for (const domain of ['film', 'music', 'travel']) {
    const file = JSON.parse(readFileSync(join(dir, 'kdconv', domain, 'dev.json'), 'utf8')) as {
      messages: { message: string }[];
    }[];
    for (const dialogue of file) for (const m of dialogue.messages) out.push(m.message);
  }
  return out;
}
function memorybank(dir: string, lang: 'en' | 'cn'): string[] {
  const file = JSON.parse(
    readFileSync(join(dir, 'memorybank-siliconfriend', lang, `memory_bank_${lang}.json`), 'utf8'),
  ) as Record<string, { history?: Record<string, { query: string; response: string }[]> }>;
  const out: string[] = [];
  for (const person of Object.values(file)) {
    for (const day of Object.values(person.history ?? {})) for (const t of day) out.push(t.query, t.response);
  }
  return out;
}

/** Ordinary conversation turns, benign, from the shared data folder. */
export function ordinaryTexts(dir: string): string[] {
  return [
    ...evenly(
      uniq(turns(longmemeval, join(dir, 'longmemeval', 'longmemeval_oracle.json'))),
      ORDINARY.longmemeval,
    ),
    ...evenly(uniq(memorybank(dir, 'en')), ORDINARY.memorybankEn),
    ...evenly(uniq(kdconv(dir)), ORDINARY.kdconv),
    ...evenly(uniq(turns(dulemon, join(dir, 'dulemon', 'samples.json'))), ORDINARY.dulemon),
    ...evenly(uniq(memorybank(dir, 'cn')), ORDINARY.memorybankCn),
    ...evenly(
      uniq(turns(zhAgent, join(dir, 'zh-agent-memory', 'zh_agent_memory_dev.json'))),
      ORDINARY.zhAgent,
    ),
  ];
}

export function trainingRows(dir: string): TrainingRow[] {
  return [
    ...trainingCases().map((c) => ({ text: c.text, label: c.label, weight: 1 })),
    ...ordinaryTexts(dir).map((text) => ({
      text,
      label: 'benign' as const,
      weight: TRAINING.ordinaryWeight,
    })),
  ];
}

export function trainingCases(): SafetyCase[] {
  const written = new Set([...handwrittenCases, ...familyCases, ...dev2Cases, ...dev3Cases]);
  const generated = devCases.filter((c) => !written.has(c));
  return [
    ...generated.filter((_, i) => i % TRAINING.generatedEvery === 0),
    ...handwrittenCases,
    ...familyCases,
    ...dev2Cases,
    ...dev3Cases,
    // Every held-out corpus once read, in order; never the newest (held-outs.ts).
    ...HELD_OUT.filter((_, i) => !NEVER_TRAINED.includes(i + 1)).flat(),
  ];
}

export function trainSafetyModel(cases: readonly TrainingRow[]): LearnedModel {
  const size = 1 << LEARNED_BITS;
  const weights = new Float64Array(size);
  const squares = new Float64Array(size);
  let bias = 0;
  let biasSquares = 0;
  const rows = cases.map((c) => ({
    ...learnedFeatures(c.text),
    y: c.label === 'poisoned' ? 1 : 0,
    w: c.weight,
  }));
  const order = rows.map((_, i) => i);
  let seed: number = TRAINING.seed;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let epoch = 0; epoch < TRAINING.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
    for (const i of order) {
      const row = rows[i];
      if (!row) continue;
      let z = bias;
      for (const k of row.buckets) z += (weights[k] ?? 0) * row.value;
      const g = (1 / (1 + Math.exp(-z)) - row.y) * row.w;
      for (const k of row.buckets) {
        const w = weights[k] ?? 0;
        const gk = g * row.value + TRAINING.l2 * w;
        squares[k] = (squares[k] ?? 0) + gk * gk;
        weights[k] = w - (TRAINING.rate * gk) / Math.sqrt((squares[k] ?? 0) + 1e-8);
      }
      biasSquares += g * g;
      bias -= (TRAINING.rate * g) / Math.sqrt(biasSquares + 1e-8);
    }
  }
  return { bias, weights };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { data: { type: 'string' } } });
  const dir = resolve(values.data ?? defaultDataDir());
  if (!existsSync(join(dir, 'longmemeval'))) {
    console.error(`no shared data folder at ${dir}: pass --data <dir>`);
    process.exit(2);
  }
  const rows = trainingRows(dir);
  const file = encodeModel(trainSafetyModel(rows));
  writeFileSync(MODEL_FILE, file);
  const count = (label: string, weight?: number) =>
    rows.filter((r) => r.label === label && (weight === undefined || r.weight === weight)).length;
  console.log(
    `trained on ${count('poisoned')} poisoned and ${count('benign', 1)} benign corpus cases and ${count('benign', TRAINING.ordinaryWeight)} ordinary turns; wrote src/inject/safety-model.bin (${file.length} bytes)`,
  );
}
