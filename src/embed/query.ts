// The vector channel at recall time: embed the query (bounded wait, small cache), then the owner's nearest
// documents. It never throws: a failed or slow embedding is reported, and recall answers from the rest.
import { MemoryError } from '../errors.js';
import { publicFailure } from '../llm/http.js';
import type { Logger } from '../log.js';
import type { Redactor } from '../text/redact.js';
import type { DocFilters } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import type { EmbeddingProvider } from './provider.js';
import { ownerVectors, readState, stateMatches } from './store.js';
import type { VectorHit } from './vector-index.js';
import { vectorIndexOf } from './vectors.js';

export interface Degraded {
  channel: 'vector';
  code: string;
  message: string;
}

export interface VectorOutcome {
  hits: VectorHit[];
  degraded?: Degraded;
}

export interface VectorSearch {
  search(query: string, filters: DocFilters, k: number): Promise<VectorOutcome>;
}

/** The fixed message of a degraded channel: the failure's details go to the log, never to the caller. */
const degraded = (error: unknown, log: Logger | undefined): Degraded => {
  const { code, message } = publicFailure(error);
  log?.warn({ err: error }, 'the query embedding failed; recall answers without vectors');
  return { channel: 'vector', code, message };
};

export interface VectorSearchOptions {
  db: Queryable;
  /** The query-time provider: its timeout is recall's wait for the embedding. */
  provider: EmbeddingProvider;
  /** The query is redacted like an event before it reaches the provider or the cache. */
  redactor: Redactor;
  log?: Logger;
  /** Query vectors kept, least recently used dropped first. */
  cacheSize?: number;
}

/** A map that forgets its least recently used entry beyond `size`. */
export function createLru<K, V>(size: number) {
  const map = new Map<K, V>();
  return {
    get(key: K): V | undefined {
      const value = map.get(key);
      if (value !== undefined) {
        map.delete(key);
        map.set(key, value);
      }
      return value;
    },
    set(key: K, value: V): void {
      map.delete(key);
      map.set(key, value);
      if (map.size > size) map.delete(map.keys().next().value as K);
    },
    get size() {
      return map.size;
    },
  };
}

export function createVectorSearch(options: VectorSearchOptions): VectorSearch {
  const { db, provider, redactor } = options;
  const cache = createLru<string, Float32Array>(options.cacheSize ?? 256);

  // invariant: the provider sees the redacted query only, and the cache is keyed by owner, so one owner's
  // queries never answer another's (test: test/embed/vectors.test.ts "regression for issue 8 …").
  async function queryVector(owner: string, query: string): Promise<Float32Array | undefined> {
    const text = (await redactor.redact(query)).text;
    const key = `${owner}\u0000${text}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const [vector] = (await provider.embed([text])).vectors;
    if (vector) cache.set(key, vector);
    return vector;
  }

  return {
    // invariant: a failed or slow embedding never fails recall; it is reported in `degraded` (tests: "answers
    // recall from the other channels when the embedding call fails", "waits for the query embedding no
    // longer than its timeout").
    async search(query, filters, k) {
      try {
        // No call to the model while the owner has no vectors of this model (yet).
        const state = await readState(db);
        const usable = state !== undefined && stateMatches(state, provider.id, provider.dimensions);
        if (!usable || state.dimensions === null) return { hits: [] };
        if ((await ownerVectors(db, filters.owner)) === 0) return { hits: [] };
        const vector = await queryVector(filters.owner, query);
        if (!vector || vector.every((x) => x === 0)) return { hits: [] };
        if (vector.length !== state.dimensions) {
          const why = `the query vector has ${vector.length} dimensions, the stored vectors ${state.dimensions}`;
          const error = new MemoryError('EMBEDDING_FAILED', why, {
            reason: 'bad_response',
            provider: 'embedding model',
          });
          return { hits: [], degraded: degraded(error, options.log) };
        }
        return { hits: await vectorIndexOf(db).nearest(db, vector, k, filters) };
      } catch (error) {
        return { hits: [], degraded: degraded(error, options.log) };
      }
    },
  };
}
