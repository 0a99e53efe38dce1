// Which vector index a store uses: sqlite-vec on SQLite, pgvector on PostgreSQL.
import type { Queryable } from '../storage/driver.js';
import { postgresVectors } from './postgres-vectors.js';
import { sqliteVectors } from './sqlite-vectors.js';
import type { VectorIndex } from './vector-index.js';

export const vectorIndexOf = (db: Queryable): VectorIndex =>
  db.dialect === 'sqlite' ? sqliteVectors : postgresVectors;
