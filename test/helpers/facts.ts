// A store on either engine with a fake clock, the method table and observation, for the knowledge tests:
// ingest events, publish memories through a real observation commit, read the lifecycle columns.
import type { EventInput } from '../../src/index.js';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import { proposeHeuristically } from '../../src/observe/heuristic.js';
import { createObservation, type Observation } from '../../src/observe/observe.js';
import type { BatchEvent, ProposalInput, Receipt } from '../../src/observe/schema.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import type { MemoryService } from '../../src/service.js';
import { openTestService, type Engine } from './engines.js';
import { sqlRows } from './sql.js';

export const ZONE = 'Asia/Shanghai';
/** Times in Shanghai: `at('2026-11-16 10:00')`. */
export const at = (local: string): number => Date.parse(`${local.replace(' ', 'T')}:00+08:00`);

export interface FactRow {
  memory_id: string;
  kind: string;
  text: string;
  object: string | null;
  status: string;
  lifecycle: string | null;
  valid_from: number | null;
  valid_to: number | null;
  origin: string | null;
  conflict_id: string | null;
  revoked_reason: string | null;
}

export interface FactsFixture {
  service: MemoryService;
  client: LocalClient;
  observation: Observation;
  clock: { now(): number; set(ms: number): void };
  ingest(owner: string, events: EventInput[]): Promise<void>;
  /** Claims the owner's next batch and commits what `propose` makes of its events. */
  observe(owner: string, propose: (events: BatchEvent[]) => ProposalInput): Promise<Receipt>;
  /** Ingests the events, then publishes `memories` citing them (other events of the batch discarded). */
  publish(owner: string, events: EventInput[], memories: ProposalInput['memories']): Promise<Receipt>;
  rows(owner: string): Promise<FactRow[]>;
  sources(owner: string, memoryId: string): Promise<string[]>;
  close(): Promise<void>;
}

let seq = 0;
/** A user message (role and kind overridable) at a Shanghai time. */
export const said = (text: string, local: string, extra: Partial<EventInput> = {}): EventInput => ({
  event_id: `k${++seq}`,
  kind: 'user_message',
  role: 'user',
  at: at(local),
  text,
  ...extra,
});

export async function openFactsFixture(engine: Engine): Promise<FactsFixture> {
  let t = at('2026-11-16 09:00');
  const clock = { now: () => t, set: (ms: number) => void (t = ms) };
  const handle = await openTestService(engine, { now: clock.now, config: { timezone: ZONE } });
  const { service } = handle;
  const client = createLocalClient(createMethodTable(service), { checkResults: true });
  const observation = createObservation({
    driver: service.driver,
    redactor: service.redactor,
    now: clock.now,
    timeZone: ZONE,
    options: { maxWaitMs: 0 },
  });
  const ingest: FactsFixture['ingest'] = async (owner, events) => {
    const out = await client.call<{ rejected: unknown[] }>('memory.events.ingest', { owner, events });
    if (out.rejected.length > 0) throw new Error(`rejected: ${JSON.stringify(out.rejected)}`);
  };
  const observe: FactsFixture['observe'] = async (owner, propose) => {
    const batch = await observation.claim({ owner });
    if (!batch) throw new Error(`no batch for ${owner}`);
    return observation.commit({
      batch_id: batch.batch_id,
      token: batch.token,
      proposal: propose(batch.events),
    });
  };
  return {
    service,
    client,
    observation,
    clock,
    ingest,
    observe,
    async publish(owner, events, memories) {
      await ingest(owner, events);
      return observe(owner, (batch) => {
        const cited = new Set(memories.flatMap((m) => m.sources));
        return {
          dispositions: batch.map((e) =>
            cited.has(e.event_id)
              ? { event_id: e.event_id, action: 'cited' as const }
              : { event_id: e.event_id, action: 'discarded' as const, reason: 'not needed' },
          ),
          memories,
        };
      });
    },
    rows: (owner) =>
      sqlRows<FactRow>(
        service.driver,
        `SELECT memory_id, kind, text, object, status, lifecycle, valid_from, valid_to, origin, conflict_id,
                revoked_reason FROM memories WHERE owner = ? ORDER BY valid_from, memory_id`,
        [owner],
      ),
    async sources(owner, memoryId) {
      const rows = await sqlRows<{ event_id: string }>(
        service.driver,
        'SELECT event_id FROM memory_sources WHERE owner = ? AND memory_id = ? ORDER BY position',
        [owner, memoryId],
      );
      return rows.map((r) => r.event_id);
    },
    close: () => handle.close(),
  };
}

/** The heuristic observer, as mnemo's own worker runs it without a model. */
export const heuristically = (events: BatchEvent[]): ProposalInput => proposeHeuristically(events);
