// The vector channel at recall time: embed the query (bounded wait, small cache), then the owner's nearest
// documents. It never throws: a failed or slow embedding is reported, and recall answers from the rest.
import { isMemoryError } from '../errors.js';
import type { DocFilters } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import type { EmbeddingProvider } from './provider.js';
import { ownerVectors, readState, searchVectors, stateMatches, type VectorHit } from './store.js';

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

export interface VectorSearchOptions {
  db: Queryable;
  /** The query-time provider: its timeout is recall's wait for the embedding. */
  provider: EmbeddingProvider;
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
  const { db, provider } = options;
  const cache = createLru<string, Float32Array>(options.cacheSize ?? 256);

  async function queryVector(query: string): Promise<Float32Array | undefined> {
    const cached = cache.get(query);
    if (cached) return cached;
    const [vector] = (await provider.embed([query])).vectors;
    if (vector) cache.set(query, vector);
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
        const vector = await queryVector(query);
        if (!vector || vector.every((x) => x === 0)) return { hits: [] };
        if (vector.length !== state.dimensions) {
          const message = `the query vector has ${vector.length} dimensions, the stored vectors ${state.dimensions}`;
          return { hits: [], degraded: { channel: 'vector', code: 'EMBEDDING_FAILED', message } };
        }
        return { hits: await searchVectors(db, vector, k, filters) };
      } catch (error) {
        const code = isMemoryError(error) ? error.code : 'INTERNAL';
        const message = error instanceof Error ? error.message : String(error);
        return { hits: [], degraded: { channel: 'vector', code, message } };
      }
    },
  };
}
