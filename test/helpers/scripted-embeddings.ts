// A scripted OpenAI-compatible embedding server on 127.0.0.1 (a real HTTP server, port 0). By default it
// answers deterministic "concept" vectors: words of one concept (car, automobile, 汽车) share a dimension,
// so a paraphrase with no word in common is near only by vector.
import type { IncomingMessage } from 'node:http';
import { startScriptedServer, type BaseStep } from './scripted-server.js';

export interface EmbeddingBody {
  model: string;
  input: string[];
  encoding_format?: string;
  dimensions?: number;
}

/** Synonyms across English and Chinese; each concept owns one dimension. */
export const CONCEPTS: ReadonlyArray<readonly string[]> = [
  // carro: a word the bilingual dictionary lacks, so that only the vector channel can find "car" for it.
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'sedan', 'carro', '汽车', '轿车'],
  ['doctor', 'physician', 'clinic', 'hospital', '医生', '医院'],
  ['dog', 'puppy', 'canine', '狗', '小狗'],
  ['invoice', 'receipt', 'bill', 'reimbursement', '发票', '报销'],
  ['flight', 'plane', 'airline', 'airport', '航班', '飞机'],
  ['repair', 'fix', 'mechanic', 'garage', '修理', '维修'],
  ['coffee', 'espresso', 'latte', '咖啡'],
  ['music', 'piano', 'violin', 'concert', '音乐', '钢琴'],
];

export const DEFAULT_DIMENSIONS = 32;

const hash = (word: string): number => {
  let h = 2166136261;
  for (const ch of word) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619) >>> 0;
  return h;
};

/** The vector of a text: 1 per concept word found, 0.2 per other word (hashed), a small constant bias. */
export function conceptVector(text: string, dimensions = DEFAULT_DIMENSIONS, model = 'concepts'): number[] {
  const v = new Array<number>(dimensions).fill(0);
  // Another model puts the concepts elsewhere: its vectors must never be compared with these.
  const shift = model === 'concepts' ? 0 : 1 + (hash(model) % 7);
  const lower = text.toLowerCase();
  const words: string[] = lower.match(/[\p{L}\p{N}]+/gu) ?? [];
  const known = new Set<string>();
  CONCEPTS.forEach((synonyms, i) => {
    for (const s of synonyms) {
      const hit = /\p{sc=Han}/u.test(s) ? lower.includes(s) : words.includes(s);
      if (hit) {
        v[(i + shift) % dimensions] = (v[(i + shift) % dimensions] ?? 0) + 1;
        known.add(s);
      }
    }
  });
  for (const w of words) {
    if (known.has(w)) continue;
    const at = CONCEPTS.length + (hash(w) % (dimensions - CONCEPTS.length - 1));
    v[at] = (v[at] ?? 0) + 0.2;
  }
  v[dimensions - 1] = 0.05;
  return v;
}

/** One scripted answer: raw status/body, a hang, or vectors (default: concept vectors). */
export interface EmbedStep extends BaseStep {
  /** Answer with vectors of this dimension whatever was asked. */
  dimensions?: number;
  /** Return the data items in reverse order (with their indexes). */
  reverse?: boolean;
}

export type EmbedScripted = EmbedStep | ((body: EmbeddingBody) => EmbedStep);

export interface RecordedEmbedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: EmbeddingBody;
}

export interface ScriptedEmbeddings {
  /** Base URL as MNEMO_EMBED_BASE_URL would hold it (…/v1). */
  url: string;
  requests: RecordedEmbedRequest[];
  /** Every text embedded so far, in order. */
  inputs(): string[];
  push(...steps: EmbedScripted[]): void;
  close(): Promise<void>;
}

export async function startScriptedEmbeddings(steps: EmbedScripted[] = []): Promise<ScriptedEmbeddings> {
  const queue = [...steps];
  const scripted: ScriptedEmbeddings = {
    url: '',
    requests: [],
    inputs: () => scripted.requests.flatMap((r) => r.body.input ?? []),
    push: (...more) => void queue.push(...more),
    close: () => server.close(),
  };
  const server = await startScriptedServer<EmbeddingBody, EmbedStep>({
    path: '/v1/embeddings',
    record: (req, body) => void scripted.requests.push({ path: req.url ?? '', headers: req.headers, body }),
    next(body) {
      const next = queue.shift();
      // An empty script answers concept vectors.
      return (typeof next === 'function' ? next(body) : next) ?? {};
    },
    answer(body, step, res, headers) {
      const dims = step.dimensions ?? body.dimensions ?? DEFAULT_DIMENSIONS;
      const data = body.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: conceptVector(text, dims, body.model),
      }));
      if (step.reverse) data.reverse();
      const tokens = body.input.join(' ').length;
      res.writeHead(200, headers).end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        }),
      );
    },
  });
  scripted.url = server.url;
  return scripted;
}
