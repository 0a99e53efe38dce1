// OpenAI-compatible embeddings (`POST {baseUrl}/embeddings`: OpenAI, Ollama, vLLM, LM Studio, …).
import { z } from 'zod';
import { postJson, type RetryOptions } from '../llm/llm.js';
import type { EmbeddingProvider, EmbedResult } from './provider.js';

export interface OpenAiEmbedderOptions extends Partial<RetryOptions> {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  dimensions?: number | undefined;
}

export const EMBEDDER_DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  retries: 3,
  retryBaseMs: 1_000,
  retryCapMs: 60_000,
});

const ResponseSchema = z.object({
  data: z.array(
    z.object({
      index: z.number().int().min(0),
      // z.number() refuses Infinity (JSON.parse reads 1e999 as Infinity).
      embedding: z.array(z.number()).min(1),
    }),
  ),
  usage: z.object({ prompt_tokens: z.number().int().min(0).optional() }).nullish(),
});

type Parsed = { ok: true; value: EmbedResult } | { ok: false; message: string };

/** Checks an answer: one finite vector per input, indexes 0…n-1, one dimension (the one asked for, if any). */
export function parseEmbeddings(text: string, count: number, dimensions?: number): Parsed {
  const bad = (why: string): Parsed => ({
    ok: false,
    message: `the embedding response is not usable: ${why}`,
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return bad(`not JSON: ${text.slice(0, 200)}`);
  }
  const parsed = ResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return bad(`${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const { data, usage } = parsed.data;
  if (data.length !== count) return bad(`${data.length} vectors for ${count} inputs`);
  const sorted = [...data].sort((a, b) => a.index - b.index);
  if (sorted.some((d, i) => d.index !== i)) return bad('indexes are not 0…n-1');
  const dim = sorted[0]?.embedding.length ?? 0;
  if (sorted.some((d) => d.embedding.length !== dim)) return bad('vectors of different dimensions');
  if (dimensions !== undefined && dim !== dimensions) {
    return bad(`asked for ${dimensions} dimensions, got ${dim}`);
  }
  const vectors = sorted.map((d) => Float32Array.from(d.embedding));
  if (vectors.some((v) => !v.every(Number.isFinite))) return bad('a number beyond 32-bit float range');
  return {
    ok: true,
    value: {
      vectors,
      usage: {
        calls: 1,
        ...(usage?.prompt_tokens === undefined ? {} : { prompt_tokens: usage.prompt_tokens }),
      },
    },
  };
}

export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): EmbeddingProvider {
  const o = { ...EMBEDDER_DEFAULTS, ...options };
  const url = `${o.baseUrl.replace(/\/+$/, '')}/embeddings`;
  return {
    id: o.model,
    dimensions: o.dimensions,
    async embed(texts, { signal } = {}) {
      if (texts.length === 0) return { vectors: [], usage: { calls: 0 } };
      const body = JSON.stringify({
        model: o.model,
        input: texts,
        encoding_format: 'float',
        ...(o.dimensions === undefined ? {} : { dimensions: o.dimensions }),
      });
      const { value, attempts } = await postJson(
        {
          url,
          apiKey: o.apiKey,
          body,
          signal,
          label: 'embedding endpoint',
          codes: { failed: 'EMBEDDING_FAILED', timeout: 'EMBEDDING_TIMEOUT' },
          parse: (text) => parseEmbeddings(text, texts.length, o.dimensions),
        },
        o,
      );
      return { vectors: value.vectors, usage: { ...value.usage, calls: attempts } };
    },
  };
}
