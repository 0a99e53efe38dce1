// `--embed`: the vector channel in the harness. Embeds each temporary store before its questions, with the
// worker the server runs, and stops the run on an embedding failure rather than measure BM25 alone.
import { createEmbeddingWorker, type EmbedConfig, type Embedding } from '../src/embed/embed.js';
import { MemoryError, type MemoryService } from '../src/index.js';
import { silentLogger } from '../src/log.js';

/** mnemo with the vector channel on, in the report, the plot and the summary line. */
export const VECTORS_NAME = 'mnemo+vectors';

/** Which vectors a question was asked over. */
export interface EmbeddingModel {
  model: string;
  /** Of the stored vectors; null while nothing has been embedded. */
  dimensions: number | null;
}

export interface StoreEmbedder {
  /** Embeds every document stored so far; throws the embedding error. */
  drain(label: string): Promise<EmbeddingModel>;
  /** Documents the worker went through, and vectors it stored. */
  totals(): { documents: number; vectors: number };
}

/** A run stops after this many resets in one drain: the model keeps changing its dimension. */
const MAX_RESETS = 3;

/** A store must be opened with the embedding config: `service.embedding` is the handle drained here. */
export function createStoreEmbedder(
  service: MemoryService,
  onProgress: (detail: string) => void = () => {},
): StoreEmbedder {
  const embedding: Embedding | undefined = service.embedding;
  if (!embedding) throw new Error('createStoreEmbedder: the store was opened without an embedding config');
  const worker = createEmbeddingWorker({
    driver: service.driver,
    provider: embedding.provider,
    log: silentLogger(),
  });
  const totals = { documents: 0, vectors: 0 };
  let known: EmbeddingModel | undefined;

  return {
    async drain(label) {
      const before = await embedding.status();
      if (before.pending === 0 && known) return known;
      let done = 0;
      let resets = 0;
      for (;;) {
        const step = await worker.runOnce();
        if (step.outcome === 'idle') break;
        if (step.outcome === 'embedded') {
          done += step.docs;
          totals.documents += step.docs;
          totals.vectors += step.vectors;
          onProgress(`${label}: embedded ${done}/${before.pending}`);
        } else if (step.outcome === 'reset') {
          if (++resets > MAX_RESETS)
            throw new MemoryError(
              'EMBEDDING_FAILED',
              `embedding ${label} keeps starting over: ${step.reason}`,
            );
        } else if (step.outcome === 'failed') {
          throw new MemoryError(
            step.code === 'EMBEDDING_TIMEOUT' ? 'EMBEDDING_TIMEOUT' : 'EMBEDDING_FAILED',
            `embedding ${label} failed, so the run stops: ${step.message}`,
            { code: step.code },
          );
        } else {
          throw new MemoryError('EMBEDDING_FAILED', `embedding ${label} stopped`);
        }
      }
      // Idle: nothing stored is left without its vector, so the question sees the whole store.
      const after = await embedding.status();
      known = { model: after.model, dimensions: after.dimensions };
      return known;
    },
    totals: () => ({ ...totals }),
  };
}

/** What metrics.json and the report say about the channel. */
export interface EmbeddingSummary extends EmbeddingModel {
  /** MNEMO_EMBED_DIMENSIONS, when set. */
  requested_dimensions: number | null;
  weight: number;
  timeout_ms: number;
  documents: number;
  vectors: number;
  /** Recalls whose vector channel did not answer (they were scored from the other channels). */
  degraded: { queries: number; codes: Record<string, number> };
}

export function summarizeEmbedding(
  config: EmbedConfig,
  model: EmbeddingModel,
  totals: { documents: number; vectors: number },
  degradedCodes: readonly (readonly string[])[],
): EmbeddingSummary {
  const codes: Record<string, number> = {};
  for (const list of degradedCodes) for (const code of list) codes[code] = (codes[code] ?? 0) + 1;
  return {
    ...model,
    requested_dimensions: config.dimensions ?? null,
    weight: config.weight,
    timeout_ms: config.timeoutMs,
    ...totals,
    degraded: { queries: degradedCodes.filter((list) => list.length > 0).length, codes },
  };
}
