// The harness observes what it ingests before it asks: mnemo's builtin heuristic observer runs to
// completion over the store, so objects, aliases and facts exist for recall's alias and graph channels.
import type { MemoryService } from '../src/index.js';
import { createHeuristicObserver } from '../src/observe/heuristic.js';
import { createObservation } from '../src/observe/observe.js';

export interface ObserveTotals {
  batches: number;
  memories: number;
  objects: number;
  /** Batches whose proposal was refused (failed back to the queue's retry, not retried here). */
  refused: number;
}

/** Drains the owner's observation backlog: claim, propose heuristically, commit, until nothing is claimable. */
export type ObserveAll = (owner: string) => Promise<void>;

export function createObserveAll(service: MemoryService, totals: ObserveTotals): ObserveAll {
  // Batches close at once: the eval's events are history, not a live stream waiting for more.
  const observation = createObservation({
    driver: service.driver,
    redactor: service.redactor,
    now: () => service.now(),
    timeZone: service.config.timezone,
    options: { maxWaitMs: 0 },
  });
  const observer = createHeuristicObserver();
  return async (owner) => {
    for (let batch = await observation.claim({ owner }); batch; batch = await observation.claim({ owner })) {
      const { proposal } = await observer.propose(batch, new AbortController().signal);
      totals.batches += 1;
      try {
        const receipt = await observation.commit({ batch_id: batch.batch_id, token: batch.token, proposal });
        totals.memories += receipt.memory_ids.length;
        totals.objects += receipt.object_ids?.length ?? 0;
      } catch (error) {
        totals.refused += 1;
        await observation.fail({ batch_id: batch.batch_id, token: batch.token, reason: String(error) });
      }
    }
  };
}
