// The full-text index below the stages: ingest and observe write it, recall reads its channels.
export {
  indexDocuments,
  indexRows,
  removeDocument,
  indexFields,
  withContext,
  type DocMeta,
  type IndexDoc,
  type IndexFields,
  type IndexRow,
} from './store.js';
export { indexOf, type OwnerStats, type SearchIndex, type TermStat } from './index.js';
export {
  selectTerms,
  searchBm25,
  searchIds,
  isIdTerm,
  DEFAULT_COLUMN_WEIGHTS,
  MAX_LOOKUPS,
  type Bm25Hit,
  type ColumnWeights,
  type DocHit,
  type TermSelection,
} from './channels.js';
export { fuseRankings, type Fused, type RankedList } from './rrf.js';
export { idf } from './score.js';
export { filterSql, type DocFilters } from './filters.js';
