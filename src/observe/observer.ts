// What an observer is: a batch in, a proposal (checked later by validateProposal) and token usage out.
import type { ClaimedBatch, Usage } from './schema.js';

export interface ObserverOutput {
  proposal: unknown;
  usage?: Usage;
}

export interface Observer {
  readonly name: string;
  /** Throws on failure (MemoryError with `data.usage` when tokens were spent); honours `signal`. */
  propose(batch: ClaimedBatch, signal: AbortSignal): Promise<ObserverOutput>;
}
