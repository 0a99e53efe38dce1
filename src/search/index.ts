// The index interface recall talks to: documents with per-owner term statistics, BM25 postings, ids and
// counts. One implementation per engine; the same scoring (score.ts) runs over what they return.
import type { Queryable } from '../storage/driver.js';
import type { DocFilters } from './filters.js';
import { postgresIndex } from './postgres-index.js';
import { sqliteIndex } from './sqlite-index.js';
import type { IndexRow } from './store.js';

/** An owner's share of the index: every statistic recall uses comes from here, never from other owners. */
export interface OwnerStats {
  /** The owner's number inside the index (its terms are keyed by it). */
  key: number;
  docs: number;
  /** Tokens in all fields of all the owner's documents. */
  tokens: number;
  /** Ordinal of the owner's latest document (ordinals grow with time and are never reused). */
  lastOrd: number;
}

export interface TermStat {
  term: string;
  /** The owner's documents holding the term: exact up to the lookup cap, extrapolated above it. */
  df: number;
}

/** Occurrences of one term in one document, per field: body, cues, context, chars. */
export type FieldCounts = [number, number, number, number];

/** What a channel needs of a document. */
export interface DocRow {
  docId: number;
  kind: string;
  ref: string;
  at: number;
  sessionId: string | null;
  role: string | null;
  /** Tokens in all its fields. */
  len: number;
}

export interface SearchIndex {
  /** Writes documents inside the caller's transaction. */
  write(tx: Queryable, docs: readonly IndexRow[]): Promise<void>;
  /**
   * Deletes one document inside the caller's transaction: its text and its search_docs row, whose delete
   * trigger takes it out of the owner's counts. False when there was none.
   */
  remove(tx: Queryable, owner: string, kind: string, ref: string): Promise<boolean>;
  /** Empties the text index and the owners' statistics; search_docs rows (and their ids) stay. */
  clear(tx: Queryable): Promise<void>;
  /** Makes the text index anew, empty (SQLite: a dropped or damaged FTS table is created again). */
  recreate(tx: Queryable): Promise<void>;
  /** Empties one owner's text and statistics (its number and embedding cursor stay); its rows stay. */
  clearOwner(tx: Queryable, owner: string): Promise<void>;
  /** Indexes existing search_docs rows again, in the order given (after clear). */
  rewrite(tx: Queryable, docs: ReadonlyArray<{ docId: number; row: IndexRow }>): Promise<void>;
  ownerStats(db: Queryable, owner: string): Promise<OwnerStats | undefined>;
  termStats(db: Queryable, owner: OwnerStats, terms: readonly string[], cap: number): Promise<TermStat[]>;
  /** Per term, the owner's documents that hold it with their field counts. */
  postings(
    db: Queryable,
    owner: OwnerStats,
    terms: readonly string[],
  ): Promise<Map<string, Map<number, FieldCounts>>>;
  /** Length and time of the documents with these ids that pass the filters. */
  lengths(
    db: Queryable,
    ids: readonly number[],
    filters: DocFilters,
  ): Promise<Map<number, { len: number; at: number }>>;
  /**
   * The newest `limit` documents that hold `term` and pass the filters, with the fields the term is in
   * (counted once): for a term too common to read all its postings.
   */
  newestPostings(
    db: Queryable,
    owner: OwnerStats,
    term: string,
    filters: DocFilters,
    limit: number,
  ): Promise<Map<number, FieldCounts>>;
  /** Documents whose own text (body, cues) holds one of the terms whole, newest first. */
  textMatches(
    db: Queryable,
    owner: OwnerStats,
    terms: readonly string[],
    filters: DocFilters,
    limit: number,
  ): Promise<DocRow[]>;
  /** The documents with these ids that pass the filters. */
  docs(db: Queryable, ids: readonly number[], filters: DocFilters): Promise<DocRow[]>;
}

export const indexOf = (db: Queryable): SearchIndex =>
  db.dialect === 'sqlite' ? sqliteIndex : postgresIndex;
