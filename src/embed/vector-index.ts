// The vector index interface the embedding code talks to: the one table whose shape comes from the model
// (its dimension), created at run time by the engine's own code; one implementation per engine (vectors.ts).
import type { DocFilters, DocHit, DocMeta } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';

/** A document of the index waiting for its vector. */
export interface PendingDoc extends Omit<DocMeta, 'role'> {
  docId: number;
}

export interface VectorRow {
  doc: PendingDoc;
  vector: Float32Array;
}

export interface VectorHit extends DocHit {
  distance: number;
}

/** At most this many neighbours per query (sqlite-vec's limit, kept on both engines). */
export const MAX_NEIGHBOURS = 4_096;

export interface VectorIndex {
  /** Throws CONFIG_INVALID, saying what to do, when this store cannot hold vectors (checked at start). */
  ready(db: Queryable): Promise<void>;
  /** Creates the vector table for vectors of `dimensions` (cosine distance), in the caller's transaction. */
  create(tx: Queryable, dimensions: number): Promise<void>;
  /** Drops the vector table with every vector; nothing when there is none. */
  drop(tx: Queryable): Promise<void>;
  /** Stores vectors of documents that have none, in the caller's transaction (the table exists). */
  write(tx: Queryable, rows: readonly VectorRow[]): Promise<void>;
  /** Deletes the vectors of these documents, in the caller's transaction; answers how many there were. */
  remove(tx: Queryable, docIds: readonly number[]): Promise<number>;
  /** The owner's `k` nearest documents that pass the filters, nearest first. */
  nearest(db: Queryable, vector: Float32Array, k: number, filters: DocFilters): Promise<VectorHit[]>;
  /** Vectors stored; undefined when there is no vector table. */
  count(db: Queryable): Promise<number | undefined>;
}

export function checkDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new Error(`bad dimension ${dimensions}`);
}
