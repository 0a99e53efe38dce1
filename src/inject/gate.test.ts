// Issue 13, the retrieval gate: signals from the working memory (novelty, unresolved entities, phase change),
// the segment (tool failure) and the owner's store (open conflicts, similar history); retrieve, prefetch
// (a background recall, nothing injected) or suppress; cooldowns and "the user ignored this".
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { openFactsFixture } from '../../test/helpers/facts.js';
import { createClock, openStore, type InjectKit, type ReopenableStore } from '../../test/helpers/inject.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { INJECT_DEFAULTS } from './config.js';
import { decideGate } from './gate-decide.js';
import type { GateResult, GateSignals } from './schema.js';

const OWNER = 'user:a';
const quiet: GateSignals = {
  novelty: 0,
  unresolved: 0,
  phase_change: false,
  tool_failure: false,
  conflicts: 0,
  history: 0,
};
const decide = (signals: Partial<GateSignals>, extra: Partial<Parameters<typeof decideGate>[0]> = {}) =>
  decideGate({
    signals: { ...quiet, ...signals },
    gate: INJECT_DEFAULTS.gate,
    cooldowns: {},
    feedback: new Map(),
    now: 1_000,
    ...extra,
  });

describe('decideGate', () => {
  it('weighs the signals: below, warm (prefetch) and above the thresholds, naming the strongest', () => {
    expect(decide({})).toMatchObject({
      action: 'suppress',
      reason: 'below_threshold',
      trigger: null,
      score: 0,
    });
    expect(decide({ novelty: 1 })).toMatchObject({ action: 'suppress', reason: 'below_threshold' });
    expect(decide({ novelty: 1, history: 3 })).toMatchObject({
      action: 'prefetch',
      reason: 'warm',
      trigger: 'novelty',
      score: 0.55,
    });
    expect(decide({ novelty: 1, tool_failure: true })).toMatchObject({
      action: 'retrieve',
      reason: 'above_threshold',
      trigger: 'tool_failure',
    });
  });

  it('cools a trigger down after it fired, and forgets cooldowns that ran out', () => {
    const fired = decide({ tool_failure: true, novelty: 1 });
    expect(fired.cooldowns).toEqual({ tool_failure: 1_000 + INJECT_DEFAULTS.gate.cooldownMs });
    const again = decide({ tool_failure: true, novelty: 1 }, { cooldowns: fired.cooldowns, now: 2_000 });
    expect(again).toMatchObject({ action: 'suppress', reason: 'cooldown', trigger: 'tool_failure' });
    const other = decide({ unresolved: 2, novelty: 1 }, { cooldowns: fired.cooldowns, now: 2_000 });
    expect(other.action).toBe('retrieve');
    const later = 1_000 + INJECT_DEFAULTS.gate.cooldownMs + 1;
    expect(decide({ novelty: 0.1 }, { cooldowns: fired.cooldowns, now: later }).cooldowns).toEqual({});
  });

  it('suppresses a trigger the user mostly ignored, once there is enough feedback', () => {
    const feedback = (total: number, unwanted: number) => new Map([['tool_failure', { total, unwanted }]]);
    const failure = { tool_failure: true, novelty: 1 };
    expect(decide(failure, { feedback: feedback(3, 2) })).toMatchObject({ reason: 'user_ignored' });
    expect(decide(failure, { feedback: feedback(2, 2) }).action).toBe('retrieve');
    expect(decide(failure, { feedback: feedback(5, 2) }).action).toBe('retrieve');
  });
});

describe.each(ENGINES)('memory.gate on %s', (engine) => {
  let store: ReopenableStore;
  let kit: InjectKit;
  const clock = createClock();
  beforeEach(async () => {
    store = await openStore(engine);
    kit = await store.open({ now: clock.now });
  });
  afterEach(() => store.close());

  const gate = (segment: Record<string, unknown>, session = 's1') =>
    kit.client.call<GateResult>('memory.gate', { owner: OWNER, session_id: session, segment });
  const said = (text: string) => ({ kind: 'user_message', text });

  it('novelty is measured against the working memory: a repeated segment is not new', async () => {
    expect((await gate(said('book the Hangzhou offsite hotel'))).signals.novelty).toBe(1);
    expect((await gate(said('book the Hangzhou offsite hotel'))).signals.novelty).toBe(0);
    expect((await gate(said('the Hangzhou hotel near the lake'))).signals.novelty).toBeCloseTo(0.5, 1);
  });

  it('counts entities the ring has not seen, known objects by any alias and ids', async () => {
    await kit.client.call('memory.chain.upsert', {
      owner: OWNER,
      objects: [{ type: 'person', name: '李卫东', aliases: ['老李'] }],
    });
    expect((await gate(said('李卫东 明天来开会'))).signals.unresolved).toBe(1);
    expect((await gate(said('老李 几点到'))).signals.unresolved).toBe(0);
    expect((await gate(said('check order RB-2026-0917'))).signals.unresolved).toBe(1);
    expect((await gate(said('is RB-2026-0917 paid'))).signals.unresolved).toBe(0);
  });

  it('sees a change of task phase and a tool failure', async () => {
    const started = await gate({ kind: 'task_started', text: 'export the invoices' });
    expect(started.signals).toMatchObject({ phase_change: true, tool_failure: false });
    const acting = await gate({ kind: 'tool_result', text: 'listed 3 files', ok: true });
    expect(acting.signals.phase_change).toBe(true);
    const failed = await gate({ kind: 'tool_result', text: 'permission denied on export.csv', ok: false });
    expect(failed.signals).toMatchObject({ phase_change: false, tool_failure: true });
    expect(failed).toMatchObject({ action: 'retrieve', trigger: 'tool_failure' });
  });

  it('counts similar history in the owner’s other sessions only, and prefetches without injecting', async () => {
    const at = 1_790_000_000_000;
    await kit.client.call('memory.events.ingest', {
      owner: OWNER,
      events: ['budget for the Hangzhou offsite', 'Hangzhou offsite agenda', 'offsite budget approved'].map(
        (text, i) => ({
          event_id: `h${i}`,
          session_id: 'old',
          kind: 'user_message',
          role: 'user',
          at: at + i,
          text,
        }),
      ),
    });
    await kit.client.call('memory.events.ingest', {
      owner: 'user:b',
      events: [{ event_id: 'b1', kind: 'note', role: 'system', at, text: 'Hangzhou offsite budget' }],
    });
    const inOld = await gate(said('the Hangzhou offsite budget'), 'old');
    expect(inOld.signals.history).toBe(0);
    const result = await gate(said('the Hangzhou offsite budget'), 'new');
    expect(result).toMatchObject({ action: 'prefetch', reason: 'warm', signals: { history: 3 } });
    expect(result.request_id).toMatch(/^rq_/);
    await kit.runtime.idle();
    const request = await kit.client.call<{ status: string; purpose: string; result?: { items: unknown[] } }>(
      'memory.requests.get',
      { owner: OWNER, request_id: result.request_id },
    );
    expect(request).toMatchObject({ status: 'ready', purpose: 'prefetch' });
    expect(request.result?.items).toHaveLength(3);
    const inbox = await kit.client.call<{ items: unknown[] }>('memory.inbox.claim', {
      owner: OWNER,
      session_id: 'new',
    });
    expect(inbox.items).toEqual([]);
  });

  it('suppresses a trigger in its cooldown, and again after the cooldown ran out lets it through', async () => {
    const fail = (text: string) => gate({ kind: 'tool_result', text, ok: false });
    expect((await fail('timeout calling the mail server')).action).toBe('retrieve');
    expect(await fail('disk quota exceeded on upload')).toMatchObject({
      action: 'suppress',
      reason: 'cooldown',
    });
    clock.advance(INJECT_DEFAULTS.gate.cooldownMs + 1);
    expect((await fail('certificate expired for the API')).action).toBe('retrieve');
  });

  it('suppresses what the user ignored in this session, per trigger, from packet feedback', async () => {
    for (const id of ['pk1', 'pk2', 'pk3']) {
      const stored = await kit.client.call('memory.packet.feedback', {
        owner: OWNER,
        packet_id: id,
        outcome: id === 'pk1' ? 'harmful' : 'ignored',
        session_id: 's1',
        trigger: 'tool_failure',
      });
      expect(stored).toMatchObject({ packet_id: id, session_id: 's1', trigger: 'tool_failure' });
    }
    const failure = { kind: 'tool_result', text: 'upload failed: 502', ok: false };
    expect(await gate(failure)).toMatchObject({ action: 'suppress', reason: 'user_ignored' });
    expect((await gate(failure, 's2')).action).toBe('retrieve');
    // The latest word on a packet counts: used again, the rate falls below the threshold.
    for (const id of ['pk2', 'pk3']) {
      await kit.client.call('memory.packet.feedback', { owner: OWNER, packet_id: id, outcome: 'used' });
    }
    clock.advance(INJECT_DEFAULTS.gate.cooldownMs + 1);
    const feedback = await sqlRows(
      kit.service.driver,
      'SELECT session_id, trigger_kind FROM packet_feedback',
    );
    expect(feedback).toEqual(Array(3).fill({ session_id: 's1', trigger_kind: 'tool_failure' }));
    expect(await gate({ ...failure, text: 'upload failed: 503' })).toMatchObject({
      action: 'prefetch',
      trigger: 'tool_failure',
    });
  });
});

describe.each(ENGINES)('open conflicts on %s', (engine) => {
  it('counts the open conflict sets about what the segment names, until resolved', async () => {
    const f = await openFactsFixture(engine);
    try {
      const format = (object: string, sources: string[]) => ({
        kind: 'fact' as const,
        fact_kind: 'project' as const,
        subject: '会议纪要',
        predicate: '格式',
        object,
        text: `会议纪要用 ${object}`,
        sources,
      });
      await f.publish(
        OWNER,
        [
          { event_id: 'c1', kind: 'user_message', role: 'user', at: f.clock.now(), text: '纪要用 Word' },
          {
            event_id: 'c2',
            kind: 'user_message',
            role: 'user',
            at: f.clock.now(),
            text: 'No, PDF',
            session_id: 'o',
          },
        ],
        [format('Word', ['c1']), format('PDF', ['c2'])],
      );
      const gate = (text: string) =>
        f.client.call<GateResult>('memory.gate', {
          owner: OWNER,
          session_id: 's',
          segment: { kind: 'user_message', text },
        });
      expect((await gate('把会议纪要发给老板')).signals.conflicts).toBe(1);
      expect((await gate('book a taxi')).signals.conflicts).toBe(0);
      const rows = await f.rows(OWNER);
      const conflictId = rows.find((r) => r.conflict_id)?.conflict_id ?? '';
      const keep = rows.find((r) => r.object === 'PDF')?.memory_id ?? '';
      await f.client.call('memory.facts.resolve', { owner: OWNER, conflict_id: conflictId, keep });
      expect((await gate('会议纪要 again')).signals.conflicts).toBe(0);
    } finally {
      await f.close();
    }
  });
});
