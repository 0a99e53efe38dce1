// Issue 13, the wait budget: memory.recall answers within wait_ms or `pending`; the search goes on behind a
// deliberately slow index (a gate the test opens, never a race against the clock), its answer is stored,
// fetched by id, delivered to the caller session's inbox, stale once the session moved on, and never lost.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import {
  createClock,
  createGate,
  heldBack,
  openStore,
  type ReopenableStore,
} from '../../test/helpers/inject.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { INJECT_DEFAULTS } from './config.js';

const OWNER = 'user:a';
const EVENTS = [
  {
    event_id: 'e1',
    kind: 'user_message',
    role: 'user',
    at: 1_790_000_000_000,
    text: 'invoice RB-2026-0917 for Shanghai',
  },
  {
    event_id: 'e2',
    kind: 'agent_reply',
    role: 'agent',
    at: 1_790_000_060_000,
    text: 'Filed the invoice under travel.',
  },
];
interface Pending {
  status: 'pending';
  request_id: string;
}
interface Request {
  status: string;
  result?: { items: Array<{ id: string }> };
  error?: { code: string; message: string };
}
interface Claim {
  items: Array<{ kind: string; request_id: string | null }>;
  stale: number;
}

describe.each(ENGINES)('the wait budget on %s', (engine) => {
  let store: ReopenableStore;
  beforeEach(async () => {
    store = await openStore(engine);
  });
  afterEach(() => store.close());

  async function open(options: { held?: boolean; now?: () => number } = {}) {
    const gate = createGate();
    const kit = await store.open({
      ...(options.held ? { search: heldBack(gate) } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    await kit.client.call('memory.events.ingest', { owner: OWNER, events: EVENTS });
    const recall = (extra: Record<string, unknown> = {}) =>
      kit.client.call<Pending | { status: 'ready'; request_id: string; items: Array<{ id: string }> }>(
        'memory.recall',
        { owner: OWNER, query: 'invoice', ...extra },
      );
    const request = (id: string) =>
      kit.client.call<Request>('memory.requests.get', { owner: OWNER, request_id: id });
    const claim = (session: string, extra: Record<string, unknown> = {}) =>
      kit.client.call<Claim>('memory.inbox.claim', { owner: OWNER, session_id: session, ...extra });
    return { ...kit, gate, recall, request, claim };
  }

  it('answers ready within the budget, as before', async () => {
    const s = await open();
    const answer = await s.recall({ wait_ms: 60_000 });
    expect(answer.status).toBe('ready');
    expect(answer.status === 'ready' && answer.items.map((i) => i.id).sort()).toEqual(['e1', 'e2']);
    expect(await sqlRows(s.service.driver, 'SELECT request_id FROM recall_requests')).toEqual([]);
  });

  it('answers pending at the default 75 ms and at once for wait_ms 0; the search goes on and lands', async () => {
    const s = await open({ held: true });
    const byDefault = await s.recall({ caller_session_id: 's1' });
    const atOnce = await s.recall({ wait_ms: 0, query: 'Shanghai' });
    for (const answer of [byDefault, atOnce]) {
      expect(answer).toEqual({
        status: 'pending',
        request_id: expect.stringMatching(/^rq_/),
        took_ms: expect.any(Number),
      });
    }
    expect((await s.request(byDefault.request_id)).status).toBe('pending');
    expect((await s.claim('s1')).items).toEqual([]);
    s.gate.open();
    await s.runtime.idle();
    const late = await s.request(byDefault.request_id);
    expect(late.status).toBe('ready');
    expect(late.result?.items.map((i) => i.id).sort()).toEqual(['e1', 'e2']);
    expect((await s.request(atOnce.request_id)).result?.items.map((i) => i.id)).toEqual(['e1']);
    // Delivered to the caller's session only (the wait_ms 0 call named none): once, by id, no text.
    const claimed = await s.claim('s1');
    expect(claimed.items).toEqual([
      expect.objectContaining({ kind: 'recall_result', request_id: byDefault.request_id }),
    ]);
    expect((await s.claim('s1')).items).toEqual([]);
  });

  it('keeps a late answer of an interaction the session moved past as stale, and never delivers it', async () => {
    const s = await open({ held: true });
    const first = await s.recall({ wait_ms: 0, caller_session_id: 's1', interaction_seq: 1 });
    // The session moves on to interaction 2 before the answer comes.
    expect((await s.claim('s1', { interaction_seq: 2 })).items).toEqual([]);
    s.gate.open();
    await s.runtime.idle();
    const stale = await s.request(first.request_id);
    expect(stale.status).toBe('stale');
    expect(stale.result?.items.length).toBeGreaterThan(0);
    expect((await s.claim('s1')).items).toEqual([]);
  });

  it('marks an answer delivered in time stale when the claim comes after the session moved on', async () => {
    const s = await open({ held: true });
    const first = await s.recall({ wait_ms: 0, caller_session_id: 's1', interaction_seq: 3 });
    s.gate.open();
    await s.runtime.idle();
    expect((await s.request(first.request_id)).status).toBe('ready');
    const claimed = await s.claim('s1', { interaction_seq: 4 });
    expect(claimed).toMatchObject({ items: [], stale: 1 });
    expect((await s.request(first.request_id)).status).toBe('stale');
  });

  it('fails a request whose search fails after the budget, with a code and no internals', async () => {
    const gate = createGate();
    const kit = await store.open({
      search: async () => {
        await gate.wait;
        throw new Error('disk on fire at /secret/path');
      },
    });
    const answer = await kit.client.call<Pending>('memory.recall', { owner: OWNER, query: 'x', wait_ms: 0 });
    gate.open();
    await kit.runtime.idle();
    const failed = await kit.client.call<Request>('memory.requests.get', {
      owner: OWNER,
      request_id: answer.request_id,
    });
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'INTERNAL', message: 'Internal error.' },
    });
    await expect(
      kit.client.call('memory.requests.get', { owner: 'user:b', request_id: answer.request_id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers wait_ms 0 from a finished answer while the index is unchanged, else pending', async () => {
    const s = await open({ held: true });
    const first = await s.recall({ wait_ms: 0 });
    s.gate.open();
    await s.runtime.idle();
    const cached = await s.recall({ wait_ms: 0 });
    expect(cached).toMatchObject({ status: 'ready', request_id: first.request_id });
    expect((await s.recall({ wait_ms: 0, limit: 1 })).status).toBe('pending');
    await s.client.call('memory.events.ingest', {
      owner: OWNER,
      events: [
        { event_id: 'e3', kind: 'note', role: 'system', at: 1_790_000_120_000, text: 'another invoice' },
      ],
    });
    expect((await s.recall({ wait_ms: 0 })).status).toBe('pending');
    await s.runtime.idle();
  });

  it('fails requests a stopped process left pending once their run limit passed (restart), and fences them', async () => {
    const clock = createClock();
    const a = await open({ held: true, now: clock.now });
    const left = await a.recall({ wait_ms: 0, caller_session_id: 's1' });
    // Another process starts on the same store after the run limit: it fails what was left pending.
    clock.advance(INJECT_DEFAULTS.recall.runLimitMs + 1);
    const b = await store.open({ now: clock.now });
    expect(await b.runtime.recover()).toBe(1);
    const seen = await b.client.call<Request>('memory.requests.get', {
      owner: OWNER,
      request_id: left.request_id,
    });
    expect(seen).toMatchObject({ status: 'failed', error: { code: 'abandoned' } });
    // The first process's search ends after all: the request keeps its state, nothing is delivered.
    a.gate.open();
    await a.runtime.idle();
    expect((await a.request(left.request_id)).status).toBe('failed');
    expect((await a.claim('s1')).items).toEqual([]);
  });

  it('fails the requests still running when the server stops, durably', async () => {
    const s = await open({ held: true });
    const left = await s.recall({ wait_ms: 0 });
    await s.runtime.close();
    expect((await s.request(left.request_id)).error?.code).toBe('shutdown');
    s.gate.open();
    await s.runtime.idle();
    expect((await s.request(left.request_id)).status).toBe('failed');
  });
});
