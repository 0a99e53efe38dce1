// Regression (issue 8): owner scope on every method, checked where the call enters the table.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalClient } from '../local-client.js';
import type { MemoryService } from '../service.js';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { METHODS } from './catalog.js';
import { createMethodTable } from './methods.js';
import type { Principal } from './principal.js';

const scoped = (owners: string[]): Principal => ({ kind: 'scoped', name: 'test', owners });
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );
const event = (id: string, text: string) => ({
  event_id: id,
  session_id: 's1',
  kind: 'task_result',
  role: 'agent',
  at: 1_780_000_000_000,
  text,
});

describe.each(ENGINES)('owner scope on %s', (engine) => {
  let handle: TestService;
  let service: MemoryService;
  beforeEach(async () => {
    handle = await openTestService(engine);
    service = handle.service;
  });
  afterEach(() => handle.close());

  it('declares how every method finds its owner', () => {
    for (const [name, spec] of Object.entries(METHODS)) {
      expect(['param', 'optional', 'resource', 'none'], name).toContain(spec.owner);
    }
  });

  it('refuses a call for an owner outside the principal, whether or not that owner exists', async () => {
    const table = createMethodTable(service);
    await createLocalClient(table).call('memory.events.ingest', {
      owner: 'alice',
      events: [event('a1', 'hi')],
    });
    const bob = createLocalClient(table, { principal: scoped(['team:acme/*', 'bob']) });
    expect(await codeOf(bob.call('memory.recall', { owner: 'alice', query: 'hi' }))).toBe('FORBIDDEN');
    expect(await codeOf(bob.call('memory.recall', { owner: 'nobody', query: 'hi' }))).toBe('FORBIDDEN');
    expect(await codeOf(bob.call('memory.evidence.get', { owner: 'alice', ids: ['a1'] }))).toBe('FORBIDDEN');
    expect(await codeOf(bob.call('memory.recall', { owner: 'bob', query: 'hi' }))).toBe('ok');
    expect(await codeOf(bob.call('memory.recall', { owner: 'team:acme/x', query: 'hi' }))).toBe('ok');
    expect(await codeOf(bob.call('memory.recall', { owner: 'team:acmex', query: 'hi' }))).toBe('FORBIDDEN');
  });

  it('accepts a call without an owner only from a principal allowed all owners', async () => {
    const table = createMethodTable(service);
    const all = createLocalClient(table);
    await all.call('memory.events.ingest', { owner: 'alice', events: [event('a1', 'done')] });
    const bob = createLocalClient(table, { principal: scoped(['bob']) });
    expect(await codeOf(bob.call('memory.observation.claim', {}))).toBe('FORBIDDEN');
    expect(await codeOf(bob.call('memory.observation.status', {}))).toBe('FORBIDDEN');
    expect(await codeOf(bob.call('memory.observation.claim', { owner: 'alice' }))).toBe('FORBIDDEN');
    expect(await bob.call('memory.observation.claim', { owner: 'bob' })).toEqual({ batch_id: null });
    // A batch of another owner is not found, the same answer as for a batch that does not exist.
    const batch = await all.call<{ batch_id: string; token: string }>('memory.observation.claim', {});
    expect(batch.batch_id).toEqual(expect.any(String));
    const proposal = { dispositions: [{ event_id: 'a1', action: 'discarded' }], memories: [] };
    const commit = { batch_id: batch.batch_id, token: batch.token, proposal };
    expect(await codeOf(bob.call('memory.observation.commit', commit))).toBe('BATCH_NOT_FOUND');
    const fail = { batch_id: batch.batch_id, token: batch.token, reason: 'x' };
    expect(await codeOf(bob.call('memory.observation.fail', fail))).toBe('BATCH_NOT_FOUND');
    expect(await codeOf(all.call('memory.observation.commit', commit))).toBe('ok');
  });

  it('tells a scoped principal nothing about the store in health', async () => {
    const table = createMethodTable(service);
    const health = await createLocalClient(table, { principal: scoped(['bob']) }).call('health', {});
    expect(Object.keys(health as object).sort()).toEqual(['schema_version', 'status', 'version']);
  });
});
