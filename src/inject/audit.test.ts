// Issue 13, the audit: one record per gate decision answering why, what, source, cost and expiry, with ids,
// digests and numbers only — the segment's text is in no audit row.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { openStore, type InjectKit, type ReopenableStore } from '../../test/helpers/inject.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { newAuditId, writeAudit } from './audit.js';
import type { AuditRecord, GateResult } from './schema.js';

const OWNER = 'user:a';
const SECRET = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';
const WARM = 'where did the zanzibar ledger go';
const SEGMENT = `李卫东 asked again for the zanzibar ledger; key ${SECRET}`;

describe.each(ENGINES)('the audit on %s', (engine) => {
  let store: ReopenableStore;
  let kit: InjectKit;
  beforeEach(async () => {
    store = await openStore(engine);
    kit = await store.open();
  });
  afterEach(() => store.close());

  const audit = (params: Record<string, unknown> = {}) =>
    kit.client.call<{ items: AuditRecord[] }>('memory.audit.query', { owner: OWNER, ...params });

  it('holds no segment text: one record per decision with why, what, source, cost and expiry', async () => {
    const upsert = await kit.client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      owner: OWNER,
      objects: [{ type: 'person', name: '李卫东' }],
    });
    await kit.client.call('memory.events.ingest', {
      owner: OWNER,
      events: ['the zanzibar ledger moved', 'zanzibar ledger audit', 'ledger of zanzibar'].map((text, i) => ({
        event_id: `h${i}`,
        session_id: 'old',
        kind: 'note',
        role: 'system',
        at: 1_790_000_000_000 + i,
        text,
      })),
    });
    const decisions: GateResult[] = [];
    for (const text of [WARM, SEGMENT]) {
      decisions.push(
        await kit.client.call<GateResult>('memory.gate', {
          owner: OWNER,
          session_id: 's1',
          segment: { kind: 'user_message', text },
        }),
      );
    }
    expect(decisions.map((d) => d.action)).toEqual(['prefetch', 'retrieve']);
    const { items } = await audit({ session_id: 's1' });
    expect(items.map((r) => r.audit_id)).toEqual(decisions.map((d) => d.audit_id).reverse());
    const second = items[0];
    expect(second).toMatchObject({
      kind: 'gate',
      session_id: 's1',
      trigger: decisions[1]?.trigger,
      action: 'retrieve',
      reason: decisions[1]?.reason,
      score: decisions[1]?.score,
      signals: decisions[1]?.signals,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      cursor: 2,
      bytes: Buffer.byteLength(SEGMENT.replace(SECRET, '[redacted:api_key]')),
      tokens: expect.any(Number),
      request_id: null,
      expires_at: null,
    });
    expect(second?.sources).toEqual(expect.arrayContaining([upsert.objects[0]?.id, 'h0', 'h1', 'h2']));
    const prefetched = items.find((r) => r.action === 'prefetch');
    expect(prefetched?.request_id).toMatch(/^rq_/);
    expect(prefetched?.expires_at).toEqual(expect.any(String));
    expect(prefetched?.sources).toContain(prefetched?.request_id);
    await kit.runtime.idle();

    const rows = JSON.stringify(await sqlRows(kit.service.driver, 'SELECT * FROM inject_audit'));
    for (const word of ['李卫东', 'zanzibar', 'ledger', 'asked', SECRET, 'sk-live'])
      expect(rows).not.toContain(word);
    const ring = JSON.stringify(await sqlRows(kit.service.driver, 'SELECT * FROM working_segments'));
    expect(ring).not.toContain(SEGMENT);
    expect(ring).not.toContain('4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c');
    expect(
      (await kit.client.call<{ items: unknown[] }>('memory.audit.query', { owner: 'user:b' })).items,
    ).toEqual([]);
  });

  it('takes a packet’s session and trigger from its record, and records the feedback as its outcome', async () => {
    // Part 3 writes packet records; one is written here the way it will be.
    await kit.service.driver.transaction((tx) =>
      writeAudit(tx, newAuditId(), {
        owner: OWNER,
        sessionId: 's9',
        packetId: 'pk_1',
        kind: 'packet',
        trigger: 'unresolved',
        action: 'inject',
        reason: 'above_threshold',
        score: 0.7,
        signals: { unresolved: 2 },
        sources: ['e1'],
        digest: 'd'.repeat(64),
        cursor: 4,
        bytes: 120,
        tokens: 40,
        requestId: null,
        at: 1_790_000_000_000,
        expiresAt: 1_790_000_300_000,
      }),
    );
    const feedback = await kit.client.call('memory.packet.feedback', {
      owner: OWNER,
      packet_id: 'pk_1',
      outcome: 'ignored',
    });
    expect(feedback).toEqual({
      packet_id: 'pk_1',
      outcome: 'ignored',
      session_id: 's9',
      trigger: 'unresolved',
    });
    expect((await audit({ packet_id: 'pk_1' })).items).toEqual([
      expect.objectContaining({ kind: 'packet', outcome: 'ignored', expires_at: '2026-09-21T14:18:20.000Z' }),
    ]);
  });
});
