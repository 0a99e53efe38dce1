// A real store (all migrations) on either engine with a fake clock, the method table and typed observation calls.
import type { Config } from '../../src/config.js';
import type { EventInput } from '../../src/index.js';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import { createObservation, type Observation, type ObserveOptions } from '../../src/observe/observe.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import { openMemory, type MemoryService } from '../../src/service.js';
import { openTestService, type Engine, type TestService } from '../helpers/engines.js';
import { sqlFirst } from '../helpers/sql.js';

export const T0 = Date.parse('2026-09-17T10:00:00Z');

export interface ObserveFixture {
  service: MemoryService;
  client: LocalClient;
  observation: Observation;
  clock: { now(): number; advance(ms: number): void; set(ms: number): void };
  ingest(owner: string, events: EventInput[]): Promise<void>;
  count(sql: string, params?: Array<string | number>): Promise<number>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  engine?: Engine;
  /** A store to share (engineConfig's): fixtures opened on it see one database, like two processes. */
  store?: Partial<Config>;
  databasePath?: string;
  dataDir?: string;
  observe?: Partial<ObserveOptions>;
}

async function openStore(options: FixtureOptions, now: () => number): Promise<TestService> {
  const dataDir = options.dataDir ?? 'unused';
  if (!options.store?.database) {
    const { databasePath } = options;
    return openTestService(options.engine ?? 'sqlite', {
      config: { dataDir },
      now,
      ...(databasePath ? { databasePath } : {}),
    });
  }
  const service = await openMemory({ config: { dataDir, redactEmails: true, ...options.store }, now });
  return { service, close: () => service.close() };
}

export async function openFixture(options: FixtureOptions = {}): Promise<ObserveFixture> {
  let t = T0;
  const clock = {
    now: () => t,
    advance: (ms: number) => void (t += ms),
    set: (ms: number) => void (t = ms),
  };
  const store = await openStore(options, clock.now);
  const { service } = store;
  const client = createLocalClient(createMethodTable(service), { checkResults: true });
  const observation = createObservation({
    driver: service.driver,
    redactor: service.redactor,
    now: clock.now,
    ...(options.observe ? { options: options.observe } : {}),
  });
  return {
    service,
    client,
    observation,
    clock,
    async ingest(owner, events) {
      const result = await client.call<{ accepted: number; rejected: unknown[] }>('memory.events.ingest', {
        owner,
        events,
      });
      if (result.rejected.length > 0) throw new Error(`rejected: ${JSON.stringify(result.rejected)}`);
    },
    async count(sql, params = []) {
      const row = await sqlFirst<{ n: number }>(service.driver, sql, params);
      return row?.n ?? 0;
    },
    close: () => store.close(),
  };
}

let counter = 0;

/** A user message (or any kind) at T0 + `minute` minutes. */
export function event(
  text: string,
  extra: Partial<Omit<EventInput, 'text'>> = {},
): EventInput & { event_id: string } {
  counter++;
  return {
    event_id: extra.event_id ?? `ev${counter}`,
    kind: 'user_message',
    role: 'user',
    at: T0 + counter * 1000,
    text,
    ...extra,
  } as EventInput & { event_id: string };
}
