// A memory a host or a person writes directly (a track entry, an approved suggestion): the knowledge layer
// decides what it is; observation stores it like a publication (its batch, row, sources and index document)
// through the function the method table hands in, so that memories keep one writer of their content.
import type { Queryable } from '../storage/driver.js';
import type { KnowledgeContext } from './facts.js';

export interface DirectMemory {
  owner: string;
  kind: 'episode' | 'fact' | 'preference';
  text: string;
  fact_kind: 'profile' | 'project' | 'environment' | null;
  subject: string | null;
  /** Verbatim parts of the source events (a preference quotes the user's own note). */
  quotes: Array<{ event_id: string; text: string }> | null;
  /** The events it cites (the note stored for the write, and any the caller named). */
  sources: readonly string[];
  /** The time of its newest source event. */
  at: number;
}

/** Stores `m` inside the caller's transaction, which holds the owner's lock; answers its id. */
export type PublishDirect = (tx: Queryable, m: DirectMemory, ctx: KnowledgeContext) => Promise<string>;
