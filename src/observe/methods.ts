// The observation methods of the method table: claim, commit, fail, status.
import { defineMethod, type MethodDef } from '../protocol/method.js';
import type { Driver } from '../storage/driver.js';
import { createObservation, type ObserveOptions } from './observe.js';
import {
  ClaimParamsSchema,
  ClaimResultSchema,
  CommitParamsSchema,
  CommitResultSchema,
  FailParamsSchema,
  FailResultSchema,
  StatusParamsSchema,
  StatusResultSchema,
} from './schema.js';

export interface ObserveMethodDeps {
  driver: Driver;
  now(): number;
  observe?: Partial<ObserveOptions>;
  /** Whether mnemo's own observation worker defers to client writes now; undefined when none runs. */
  deferring?: () => boolean | undefined;
}

export function observeMethodDefs(service: ObserveMethodDeps): MethodDef[] {
  const observation = createObservation({
    driver: service.driver,
    now: () => service.now(),
    ...(service.observe ? { options: service.observe } : {}),
  });
  return [
    defineMethod({
      name: 'memory.observation.claim',
      summary:
        'Lease the next ready observation batch (default 120 s) with a fresh token, or {batch_id: null}.',
      params: ClaimParamsSchema,
      result: ClaimResultSchema,
      handler: async (p) => (await observation.claim(p)) ?? { batch_id: null },
    }),
    defineMethod({
      name: 'memory.observation.commit',
      summary: 'Validate a proposal and publish it atomically; a retried commit returns the first receipt.',
      params: CommitParamsSchema,
      result: CommitResultSchema,
      handler: async (p) => ({ receipt: await observation.commit(p) }),
    }),
    defineMethod({
      name: 'memory.observation.fail',
      summary: 'Give a leased batch back as failed; it is retried with backoff and its failures are kept.',
      params: FailParamsSchema,
      result: FailResultSchema,
      handler: (p) => observation.fail(p),
    }),
    defineMethod({
      name: 'memory.observation.status',
      summary: 'Observation queues, leases, failing batches with their last five failures, token usage.',
      params: StatusParamsSchema,
      result: StatusResultSchema,
      handler: async (p) => {
        const status = await observation.status(p.owner);
        const deferring = service.deferring?.();
        return deferring === undefined ? status : { ...status, deferring_to_clients: deferring };
      },
    }),
  ];
}
