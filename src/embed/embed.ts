// The optional vector channel: an embedding provider, a background worker that fills the engine's vector
// index (sqlite-vec or pgvector), and the nearest-neighbour search recall fuses with its other channels.
// Off unless configured.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Queryable } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { createOpenAiEmbedder } from './openai.js';
import type { EmbeddingProvider } from './provider.js';
import { createVectorSearch, type VectorSearch } from './query.js';
import { countPending, countVectors, readState, stateMatches } from './store.js';
import { vectorIndexOf } from './vectors.js';

export {
  createOpenAiEmbedder,
  EMBEDDER_DEFAULTS,
  parseEmbeddings,
  type OpenAiEmbedderOptions,
} from './openai.js';
export type { EmbeddingProvider, EmbedResult, EmbedUsage } from './provider.js';
export {
  createLru,
  createVectorSearch,
  type Degraded,
  type VectorOutcome,
  type VectorSearch,
} from './query.js';
export { MAX_NEIGHBOURS, type VectorHit, type VectorIndex } from './vector-index.js';
export { removeVectors } from './store.js';
export { vectorIndexOf } from './vectors.js';
export {
  createEmbeddingWorker,
  EMBED_WORKER_DEFAULTS,
  type EmbeddingWorker,
  type EmbeddingWorkerOptions,
  type EmbedStep,
} from './worker.js';

export type EmbedConfig = NonNullable<Config['embed']>;

export interface EmbeddingStatus {
  model: string;
  /** Of the stored vectors; null until the model first answered. */
  dimensions: number | null;
  /** Documents with a vector, and documents of the index the worker has not reached yet. */
  embedded: number;
  pending: number;
  /** Failed calls since the last success, and the last error. */
  failures: number;
  last_error: string | null;
}

export interface Embedding {
  readonly model: string;
  /** Weight of the vector channel in the rank fusion. */
  readonly weight: number;
  /** For the background worker: long timeout, retries. */
  readonly provider: EmbeddingProvider;
  /** For recall: the configured short timeout, no retry. */
  readonly search: VectorSearch;
  status(): Promise<EmbeddingStatus>;
}

export async function embeddingStatus(db: Queryable, provider: EmbeddingProvider): Promise<EmbeddingStatus> {
  const state = await readState(db);
  if (state === undefined || !stateMatches(state, provider.id, provider.dimensions)) {
    // Nothing usable yet (or vectors of another model, about to be dropped): everything is pending.
    return {
      model: provider.id,
      dimensions: null,
      embedded: 0,
      pending: await countPending(db, true),
      failures: 0,
      last_error: null,
    };
  }
  return {
    model: provider.id,
    dimensions: state.dimensions,
    embedded: await countVectors(db),
    pending: await countPending(db),
    failures: state.failures,
    last_error: state.last_error,
  };
}

/** The channel over an open store; CONFIG_INVALID when the store cannot hold vectors (PostgreSQL without pgvector). */
export async function openEmbedding(
  db: Queryable,
  config: EmbedConfig,
  deps: { redactor: Redactor; log?: Logger },
): Promise<Embedding> {
  await vectorIndexOf(db).ready(db);
  const endpoint = {
    baseUrl: config.baseUrl,
    model: config.model,
    apiKey: config.apiKey,
    dimensions: config.dimensions,
  };
  const provider = createOpenAiEmbedder(endpoint);
  const queryProvider = createOpenAiEmbedder({ ...endpoint, timeoutMs: config.timeoutMs, retries: 0 });
  return {
    model: config.model,
    weight: config.weight,
    provider,
    search: createVectorSearch({ db, provider: queryProvider, ...deps }),
    status: () => embeddingStatus(db, provider),
  };
}
