// Issue 13, memory.packet.delivered: built → delivered once, the session's delivered cursor one step per
// packet also under concurrent calls from two services on one store; an expired packet is dropped, never
// delivered (PACKET_EXPIRED); feedback finds the packet's record.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { errorOf } from '../../test/helpers/errors.js';
import { createClock, openStore, type InjectKit, type ReopenableStore } from '../../test/helpers/inject.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { INJECT_DEFAULTS } from './config.js';
import type { MemoryPacket, PacketBuildResult } from './packet-schema.js';

const OWNER = 'user:qian';
const at = Date.parse('2026-11-10T02:00:00Z');
type Delivered = { packet_id: string; status: string; delivered_cursor: number; delivered_at: string };

describe.each(ENGINES)('memory.packet.delivered on %s', (engine) => {
  let store: ReopenableStore;
  let one: InjectKit;
  let two: InjectKit;
  const clock = createClock();
  beforeEach(async () => {
    clock.set(Date.parse('2026-11-16T02:00:00Z'));
    store = await openStore(engine);
    one = await store.open({ now: clock.now });
    two = await store.open({ now: clock.now });
    await one.client.call('memory.events.ingest', {
      owner: OWNER,
      events: [
        'The quarterly report is due on the 5th',
        '季度报告每季度第五天之前交',
        'The report template lives in the finance share',
        '报告模板放在财务共享盘里',
      ].map((text, i) => ({ event_id: `q${i}`, kind: 'user_message', role: 'user', at: at + i, text })),
    });
  });
  afterEach(() => store.close());

  const build = async (kit: InjectKit, query: string, params: Record<string, unknown> = {}) => {
    const out = await kit.client.call<PacketBuildResult>('memory.packet.build', {
      owner: OWNER,
      session_id: 's1',
      query,
      wait_ms: 60_000,
      budget_bytes: 320,
      ...params,
    });
    if (!out.packet) throw new Error(`no packet: ${out.reason}`);
    return out.packet;
  };
  const deliver = (kit: InjectKit, packet: MemoryPacket) =>
    kit.client.call<Delivered>('memory.packet.delivered', { owner: OWNER, packet_id: packet.packet_id });

  it('delivers once under concurrent calls from two services; a second call answers the same', async () => {
    const packet = await build(one, 'quarterly report 季度报告');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => deliver(i % 2 === 0 ? one : two, packet)),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 'delivered', delivered_cursor: 1 });
    expect(await deliver(two, packet)).toEqual(answers[0]);
    const [a, b] = [await build(one, 'report template 模板'), await build(two, 'finance share 财务共享盘')];
    const both = await Promise.all([deliver(two, a), deliver(one, b)]);
    expect(both.map((d) => d.delivered_cursor).sort()).toEqual([2, 3]);
    const [session] = await sqlRows<{ delivered_cursor: number }>(
      one.service.driver,
      'SELECT delivered_cursor FROM inject_sessions WHERE owner = ? AND session_id = ?',
      [OWNER, 's1'],
    );
    expect(Number(session?.delivered_cursor)).toBe(3);
  });

  it('drops an expired packet, never delivers it, and moves no cursor (fake clock)', async () => {
    const packet = await build(one, 'quarterly report 季度报告');
    clock.advance(INJECT_DEFAULTS.packet.ttlMs);
    const error = await errorOf(deliver(one, packet));
    expect(error).toMatchObject({ code: 'PACKET_EXPIRED', data: { packet_id: packet.packet_id } });
    clock.advance(-1);
    // Once dropped it stays dropped, even asked from another process before its time.
    expect((await errorOf(deliver(two, packet))).code).toBe('PACKET_EXPIRED');
    const rows = await sqlRows<{ status: string; delivered_seq: number | null }>(
      one.service.driver,
      'SELECT status, delivered_seq FROM packets WHERE packet_id = ?',
      [packet.packet_id],
    );
    expect(rows).toEqual([{ status: 'dropped', delivered_seq: null }]);
    // Never delivered: its items are not duplicates for the session's next packet.
    const next = await build(two, 'quarterly report 季度报告');
    expect(next.items.map((i) => i.id)).toEqual(packet.items.map((i) => i.id));
    expect((await deliver(two, next)).delivered_cursor).toBe(1);
  });

  it('drops the session’s expired packets when it builds the next one, without a delivered call', async () => {
    const old = await build(one, 'quarterly report 季度报告');
    const live = await build(two, 'report template 模板');
    clock.advance(INJECT_DEFAULTS.packet.ttlMs / 2);
    const fresh = await build(two, 'finance share 财务共享盘');
    clock.advance(INJECT_DEFAULTS.packet.ttlMs / 2);
    await build(one, 'quarterly report 季度报告');
    const rows = await sqlRows<{ packet_id: string; status: string }>(
      one.service.driver,
      'SELECT packet_id, status FROM packets WHERE packet_id IN (?, ?, ?) ORDER BY created_at, packet_id',
      [old.packet_id, live.packet_id, fresh.packet_id],
    );
    expect(new Map(rows.map((r) => [r.packet_id, r.status]))).toEqual(
      new Map([
        [old.packet_id, 'dropped'],
        [live.packet_id, 'dropped'],
        [fresh.packet_id, 'built'],
      ]),
    );
    expect((await deliver(one, fresh)).delivered_cursor).toBe(1);
  });

  it('refuses a shadow packet and an unknown or another owner’s packet', async () => {
    const shadow = await build(one, 'quarterly report', { shadow: true });
    expect(shadow.shadow).toBe(true);
    expect((await errorOf(deliver(one, shadow))).code).toBe('INVALID_PARAMS');
    const packet = await build(one, 'quarterly report');
    const stranger = await errorOf(
      one.client.call('memory.packet.delivered', { owner: 'user:other', packet_id: packet.packet_id }),
    );
    expect(stranger.code).toBe('NOT_FOUND');
  });

  it('feedback finds the packet’s record: its session and trigger, the audit’s outcome', async () => {
    const packet = await build(one, 'quarterly report 季度报告');
    const feedback = await two.client.call<{ session_id: string; trigger: string }>(
      'memory.packet.feedback',
      {
        owner: OWNER,
        packet_id: packet.packet_id,
        outcome: 'used',
      },
    );
    expect(feedback).toMatchObject({ session_id: 's1', trigger: 'query' });
    const { items } = await one.client.call<{ items: Array<{ outcome: string | null }> }>(
      'memory.audit.query',
      {
        owner: OWNER,
        packet_id: packet.packet_id,
      },
    );
    expect(items.map((i) => i.outcome)).toEqual(['used']);
  });
});
