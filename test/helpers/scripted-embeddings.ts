// A scripted OpenAI-compatible embedding server on 127.0.0.1 (a real HTTP server, port 0). By default it
// answers deterministic "concept" vectors: words of one concept (car, automobile, 汽车) share a dimension,
// so a paraphrase with no word in common is near only by vector.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface EmbeddingBody {
  model: string;
  input: string[];
  encoding_format?: string;
  dimensions?: number;
}

/** Synonyms across English and Chinese; each concept owns one dimension. */
export const CONCEPTS: ReadonlyArray<readonly string[]> = [
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'sedan', '汽车', '轿车'],
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
export interface EmbedStep {
  status?: number;
  headers?: Record<string, string>;
  raw?: string;
  hang?: boolean;
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
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as EmbeddingBody;
      scripted.requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404).end();
        return;
      }
      const next = queue.shift();
      const step = (typeof next === 'function' ? next(body) : next) ?? {};
      if (step.hang) {
        hanging.add(res);
        return;
      }
      const headers = { 'content-type': 'application/json', ...step.headers };
      if (step.raw !== undefined || (step.status !== undefined && step.status !== 200)) {
        res.writeHead(step.status ?? 200, headers).end(step.raw ?? '{"error":"scripted"}');
        return;
      }
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
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const scripted: ScriptedEmbeddings = {
    url: '',
    requests: [],
    inputs: () => scripted.requests.flatMap((r) => r.body.input ?? []),
    push: (...more) => void queue.push(...more),
    close: async () => {
      for (const res of hanging) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  scripted.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return scripted;
}
