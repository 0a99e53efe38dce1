// Shapes shared by the harness: a dataset becomes conversations of units (events) and scored queries.
import type { Baseline } from './baseline.js';

export type DatasetName = 'locomo' | 'longmemeval' | 'dulemon' | 'zh-agent';

export type Result<T> = { ok: true; value: T } | { ok: false; issues: string[] };

/** One retrievable unit: ingested into mnemo as one event and added to the baseline as one document. */
export interface EvalUnit {
  id: string;
  session: string;
  role: 'user' | 'agent' | 'tool' | 'system';
  /** The event kind; default: `user_message` for the user, `agent_reply` otherwise. */
  kind?: string;
  taskId?: string;
  /** Epoch milliseconds. */
  at: number;
  text: string;
}

export interface EvalQuery {
  id: string;
  text: string;
  /** Reference time of the query, epoch milliseconds. */
  at: number;
  /** Reporting group, e.g. a LoCoMo category or a LongMemEval question type. */
  group: string;
  /** Whether the query counts in the overall score (LoCoMo's adversarial category is reported apart). */
  inOverall: boolean;
  /** Ids of the units that answer the query. */
  evidence: string[];
  /** Evidence sessions, where the dataset scores sessions (LongMemEval). */
  evidenceSessions?: string[];
  /** How many units (in order) are stored before the query runs; default: all of them. */
  visibleUnits?: number;
  /** Nothing answers it (zh-agent abstention): not scored for recall; its top hit is reported apart. */
  abstention?: boolean;
}

export interface EvalConversation {
  /** The owner the conversation is stored under. */
  owner: string;
  units: EvalUnit[];
  queries: EvalQuery[];
}

export interface SkippedQuery {
  id: string;
  reason: string;
}

export interface EvalDataset {
  name: DatasetName;
  conversations: EvalConversation[];
  skipped: SkippedQuery[];
  /** Data repairs worth reporting, e.g. normalised or dropped evidence ids. */
  notes: string[];
}

/** Per-query metric values keyed `family@k`, e.g. `recall@5`. */
export type QueryScores = Record<string, number>;

export interface DatasetModule {
  name: DatasetName;
  /** Default data file, relative to the shared data folder. */
  defaultFile: string;
  /** Metric families in report order; the first is plotted. */
  families: string[];
  /** What a group is called in the report ("category", "question type", …). */
  groupLabel: string;
  /** The calendar relative time expressions are read in (`MNEMO_TIMEZONE`); default UTC. */
  timeZone?: string;
  /** The baseline's tokenizer; default: the library's own. */
  baselineTokenize?: (text: string) => string[];
  /** Another baseline than MiniSearch's BM25 (the dataset's own reference), with the name it is reported by. */
  baseline?: { name: string; create: () => Baseline };
  load(raw: string, options: { subset?: number }): Result<EvalDataset>;
  score(
    query: EvalQuery,
    ranked: readonly string[],
    ks: readonly number[],
    conversation: EvalConversation,
  ): QueryScores;
}
