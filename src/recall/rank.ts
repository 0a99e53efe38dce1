// The ranked lists recall fuses: BM25 with priors, BM25 inside the named time, exact ids, the nearest
// vectors when an embedding provider is configured, and time order among the best matches when the query
// asks for the latest or the earliest.
import {
  fuseRankings,
  idf,
  indexOf,
  isIdTerm,
  searchBm25,
  searchIds,
  selectTerms,
  type Bm25Hit,
  type ColumnWeights,
  type DocFilters,
  type DocHit,
  type Fused,
  type RankedList,
  type TermSelection,
} from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { getEventsByIds } from '../ingest/store.js';
import { hanCharacters, tokenize } from '../text/tokenize.js';
import { backgroundWeight, loadBackground, type Background } from './background.js';
import { orderByCurrency, type Statement } from './current.js';
import { knowledgeChannels } from './knowledge-channels.js';
import { boostRules } from './rules.js';
import { HOP, searchHop } from './hop.js';
import { findNeighbours, NEIGHBOURS, type NeighbourOptions } from './neighbours.js';
import { addSessionVotes, boostRole } from './priors.js';
import type { QueryPlan } from './query.js';
import type { Via } from './schema.js';

export interface ChannelWeights {
  bm25: number;
  id: number;
  time: number;
  recency: number;
  /** Nearest documents by embedding (only with a provider configured). */
  vector: number;
  /** The session neighbours of the best hits, in their order. */
  neighbour: number;
  /** For a question about the present: the best hits no later one on their subject supersedes, newest first. */
  current: number;
  /** The query again with the other names of the objects it names. */
  alias: number;
  /** What the named objects link to, one hop: below the direct matches. */
  graph: number;
  /** A question describing its subject by a clause: the rest of it asked with the clause's bridging terms. */
  hop: number;
}

export interface RankSettings {
  weights: ChannelWeights;
  columns: ColumnWeights;
  /** Score factor of the user's own turns when the query speaks as the user. */
  firstPersonUserBoost: number;
  /** Score factor of hits stating a standing rule when the query asks how something should be done. */
  ruleBoost: number;
  /** Share of the rest of its session's vote added to a hit, and how many hits make a vote. */
  sessionVote: { weight: number; top: number };
  /** Best BM25 hits that the recency channel re-orders by time, and the current channel by currency. */
  recencyPool: number;
  /** Best fused hits whose session neighbours become candidates, and how many on each side. */
  neighbours: NeighbourOptions & { anchors: number };
  /** Weight of a translated term's score (its own language's terms weigh 1). */
  translatedWeight: number;
  /** Translations selected per query word at most: the owner's rarest of those its documents hold. */
  translationsPerWord: number;
  /** Share of the best BM25 score a hit needs to be a statement the current channel orders. */
  currentFloor: number;
  /** English at large blended into the owner's idf (true: SUBTLEX-US; false: the owner's statistics alone). */
  background: Background | boolean;
}

/**
 * Chosen on half of the LoCoMo conversations and checked on the other half, on LongMemEval and on
 * DuLeMon (docs/BENCHMARKS.md); none of them is keyed to a dataset.
 */
export const RANK_DEFAULTS: RankSettings = {
  // vector: as much as bm25 until a real embedding model is measured (docs/BENCHMARKS.md).
  weights: {
    bm25: 1,
    id: 1,
    time: 1,
    recency: 0.5,
    vector: 1,
    neighbour: 0.7,
    current: 0.5,
    alias: 1,
    graph: 0.5,
    hop: 1,
  },
  columns: { body: 1, cues: 0.4, context: 0.5, chars: 0.2 },
  firstPersonUserBoost: 1.5,
  ruleBoost: 1.5,
  sessionVote: { weight: 0.15, top: 3 },
  recencyPool: 20,
  neighbours: { ...NEIGHBOURS, anchors: 5 },
  translatedWeight: 0.8,
  translationsPerWord: 3,
  currentFloor: 0.6,
  background: true,
};

export interface Ranking {
  fused: Fused<number>[];
  docs: Map<number, DocHit>;
  selection: TermSelection;
  /** Each selected term's weight in the ranking: its idf times its translation and background weights. */
  termWeights: Map<string, number>;
  /** The object each alias or graph hit came through. */
  via: Map<number, Via>;
}

/** Raw identifiers typed in the query (kept before tokenizing, so case and punctuation match stored ids). */
const rawIdsOf = (query: string): string[] =>
  [
    ...new Set(
      query
        .split(/[\s,;，；。、()（）"'“”?？!！]+/u)
        .filter((w) => /\d/.test(w) && (w.length >= 3 || /\p{L}/u.test(w))),
    ),
  ].slice(0, 16);

export async function rankDocuments(
  db: Queryable,
  query: string,
  plan: QueryPlan,
  filters: DocFilters,
  candidates: number,
  settings: RankSettings,
  /** The vector channel's hits, nearest first; started by the caller so the embedding call overlaps BM25. */
  vector?: Promise<readonly DocHit[]>,
  knowledge: { includeArchived?: boolean | undefined } = {},
): Promise<Ranking> {
  const queryTerms = [...plan.terms, ...plan.chars, ...plan.translated.map((t) => t.term)];
  const selection = await selectTerms(db, filters.owner, queryTerms, {
    translations: translatedWords(plan),
    perSource: settings.translationsPerWord,
  });
  const termWeights = translatedWeights(plan, selection, settings.translatedWeight);
  if (settings.background && selection.owner) {
    const background = settings.background === true ? loadBackground() : settings.background;
    // A translation has its own weight: the background speaks for the query's own words.
    for (const { term, df } of selection.selected)
      if (!termWeights.has(term))
        termWeights.set(term, backgroundWeight(term, df, selection.owner, background));
  }
  const bm25Options = { limit: candidates, weights: settings.columns, termWeights };
  const boost = plan.firstPerson ? settings.firstPersonUserBoost : 1;
  const { weight, top } = settings.sessionVote;
  // One pass ranks overall and inside the spans: the time channel finds what the plain ranking holds too
  // low to return.
  const scored = await searchBm25(db, selection, filters, { ...bm25Options, spans: plan.spans });
  const ruled = plan.rule
    ? await boostRules(db, filters.owner, scored.hits, settings.ruleBoost)
    : scored.hits;
  const bm25 = addSessionVotes(boostRole(ruled, 'user', boost), weight, top);
  const timed = boostRole(scored.timed, 'user', boost);
  const ids = await searchIds(db, plan.terms.filter(isIdTerm), rawIdsOf(query), filters, candidates);
  const { weights } = settings;
  const known =
    weights.alias > 0 || weights.graph > 0
      ? await knowledgeChannels(
          db,
          query,
          filters,
          candidates,
          {
            selection,
            expanded: async (extra) => {
              const wider = await selectTerms(db, filters.owner, [...queryTerms, ...extra]);
              return (await searchBm25(db, wider, filters, bm25Options)).hits;
            },
          },
          knowledge,
        )
      : undefined;
  const near = vector ? await vector : [];
  const hop =
    plan.hop && weights.hop > 0
      ? await searchHop(db, plan.hop, filters, { ...HOP, limit: candidates, weights: settings.columns })
      : [];

  const docs = new Map<number, DocHit>();
  const all = [...bm25, ...timed, ...ids, ...near, ...(known?.alias ?? []), ...(known?.graph ?? []), ...hop];
  for (const hit of all) if (!docs.has(hit.docId)) docs.set(hit.docId, hit);
  const lists: RankedList<number>[] = [
    { channel: 'bm25', weight: weights.bm25, keys: bm25.map((h) => h.docId) },
    { channel: 'id', weight: weights.id, keys: ids.map((h) => h.docId) },
    { channel: 'time', weight: weights.time, keys: timed.map((h) => h.docId) },
  ];
  if (known && known.alias.length > 0)
    lists.push({ channel: 'alias', weight: weights.alias, keys: known.alias.map((h) => h.docId) });
  if (known && known.graph.length > 0)
    lists.push({ channel: 'graph', weight: weights.graph, keys: known.graph.map((h) => h.docId) });
  if (hop.length > 0) lists.push({ channel: 'hop', weight: weights.hop, keys: hop.map((h) => h.docId) });
  if (near.length > 0)
    lists.push({ channel: 'vector', weight: weights.vector, keys: near.map((h) => h.docId) });
  if (plan.current && weights.current > 0) {
    // Only hits that match about as well as the best are statements on the question's subject.
    const best = bm25[0]?.score ?? 0;
    const pool = bm25.slice(0, settings.recencyPool).filter((h) => h.score >= settings.currentFloor * best);
    const { current, superseded } = orderByCurrency(
      await statementsOf(db, pool, selection, termWeights, filters),
    );
    lists.push({
      channel: 'current',
      weight: weights.current,
      keys: current.filter((k) => !superseded.has(k)),
    });
  } else if (plan.order) {
    // Time order helps only when asked for: over every candidate it buries the best matches.
    const sign = plan.order === 'recent' ? 1 : -1;
    const pool = bm25.slice(0, settings.recencyPool).sort((a, b) => sign * (b.at - a.at));
    lists.push({ channel: 'recency', weight: weights.recency, keys: pool.map((h) => h.docId) });
  }
  const at = (key: number): number => docs.get(key)?.at ?? 0;
  // Equal scores: the newer first.
  const order = (list: Fused<number>[]) => list.sort((a, b) => b.score - a.score || at(b.key) - at(a.key));
  let fused = order(fuseRankings(lists));
  if (weights.neighbour > 0 && settings.neighbours.anchors > 0) {
    fused = order(await addNeighbours(db, fused, docs, filters, weights.neighbour, settings.neighbours));
  }
  const weightsOut = new Map(
    selection.selected.map((t) => [t.term, idf(selection.docs, t.df) * (termWeights.get(t.term) ?? 1)]),
  );
  return { fused, docs, selection, termWeights: weightsOut, via: known?.via ?? new Map() };
}

/**
 * Session neighbours of the best hits join the candidates: each scores `share` of its anchor's fused score
 * unless it scores more on its own, and `channels.neighbour` names the anchor's rank.
 */
async function addNeighbours(
  db: Queryable,
  fused: Fused<number>[],
  docs: Map<number, DocHit>,
  filters: DocFilters,
  share: number,
  options: RankSettings['neighbours'],
): Promise<Fused<number>[]> {
  const top = fused.slice(0, options.anchors);
  const rows = new Map(
    (
      await indexOf(db).docs(
        db,
        top.map((f) => f.key),
        { owner: filters.owner },
      )
    ).map((r) => [r.docId, r]),
  );
  const byKey = new Map(fused.map((f) => [f.key, f]));
  for (const [rank, anchor] of top.entries()) {
    const row = rows.get(anchor.key);
    if (!row || row.kind !== 'event') continue;
    for (const hit of await findNeighbours(db, [row], filters, options)) {
      const score = share * anchor.score;
      const entry = byKey.get(hit.docId);
      if (entry && (entry.score >= score || entry.ranks.neighbour !== undefined)) continue;
      if (!docs.has(hit.docId)) docs.set(hit.docId, hit);
      byKey.set(hit.docId, { key: hit.docId, score, ranks: { ...entry?.ranks, neighbour: rank + 1 } });
    }
  }
  return [...byKey.values()];
}

/** Each translated word (single characters aside: they are the words' parts) and the query word it stands for. */
function translatedWords(plan: QueryPlan): Map<string, string> {
  const own = new Set([...plan.terms, ...plan.chars]);
  return new Map(
    plan.translated.filter((t) => !own.has(t.term) && [...t.term].length > 1).map((t) => [t.term, t.source]),
  );
}

/**
 * A translation stands in for a query word the owner's documents lack, at `weight`; beside a word they hold, it
 * only adds to it, at half that.
 */
function translatedWeights(plan: QueryPlan, selection: TermSelection, weight: number): Map<string, number> {
  const held = new Set([...selection.selected, ...selection.dropped].map((t) => t.term));
  const weights = new Map<string, number>();
  for (const { term, source } of plan.translated) {
    // Where the query's own word is in the owner's index, a translation only adds the other language's
    // evidence; a single character is a weak translation.
    const own = source.split(' ').some((s) => held.has(s)) ? 1 / 2 : 1;
    const w = weight * own;
    weights.set(term, Math.max(weights.get(term) ?? 0, w));
  }
  return weights;
}

/** The pool's events as statements: the selected query terms each holds, weighted by their idf. */
async function statementsOf(
  db: Queryable,
  pool: readonly Bm25Hit[],
  selection: TermSelection,
  termWeights: ReadonlyMap<string, number>,
  filters: DocFilters,
): Promise<Statement<number>[]> {
  const events = await getEventsByIds(
    db,
    filters.owner,
    pool.filter((h) => h.kind === 'event').map((h) => h.ref),
  );
  const text = new Map(events.map((e) => [e.event_id, e.text]));
  const docs = selection.docs;
  return pool.flatMap((hit) => {
    const body = text.get(hit.ref);
    if (body === undefined) return [];
    const tokens = tokenize(body);
    const held = new Set([...tokens, ...hanCharacters(tokens)]);
    const terms = new Map<string, number>();
    for (const { term, df } of selection.selected)
      if (held.has(term)) terms.set(term, idf(docs, df) * (termWeights.get(term) ?? 1));
    return [{ key: hit.docId, at: hit.at, terms }];
  });
}
