// Issue 13, sessions and working memory: per-session state in the store (a ring of 32 segments living 15
// minutes, a monotonic context cursor), created on first use, ended by memory.session.end; concurrent
// sessions of several owners leak nothing into each other's ring, gate signals or inbox.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { createClock, openStore, type InjectKit, type ReopenableStore } from '../../test/helpers/inject.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { INJECT_DEFAULTS } from './config.js';
import type { GateResult } from './schema.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Words no other index shares: segment i's terms are its own. */
const words = (i: number): string => {
  const w = `q${LETTERS[i % 26]}${LETTERS[Math.floor(i / 26)]}v`;
  return `${w}ul ${w}ot`;
};

interface Ring {
  owner: string;
  session_id: string;
  digest: string;
}

describe.each(ENGINES)('sessions on %s', (engine) => {
  let store: ReopenableStore;
  let kit: InjectKit;
  const clock = createClock();
  beforeEach(async () => {
    store = await openStore(engine);
    kit = await store.open({ now: clock.now });
  });
  afterEach(() => store.close());

  const gate = (owner: string, session: string, text: string) =>
    kit.client.call<GateResult>('memory.gate', {
      owner,
      session_id: session,
      segment: { kind: 'user_message', text },
    });
  const ring = (owner: string, session: string) =>
    sqlRows<Ring & { context_cursor: number }>(
      kit.service.driver,
      `SELECT owner, session_id, digest, context_cursor FROM working_segments
        WHERE owner = ? AND session_id = ? ORDER BY context_cursor`,
      [owner, session],
    );

  it('keeps 32 segments for 15 minutes, with a cursor that only grows', async () => {
    const cursors: number[] = [];
    for (let i = 0; i < INJECT_DEFAULTS.session.ringSize + 1; i++) {
      cursors.push((await gate('user:a', 's1', words(i))).cursor);
    }
    expect(cursors).toEqual(cursors.map((_, i) => i + 1));
    const kept = await ring('user:a', 's1');
    expect(kept.map((r) => r.context_cursor)).toEqual(cursors.slice(1));
    // The oldest segment left the ring: it is new again; the newest is not.
    expect((await gate('user:a', 's1', words(0))).signals.novelty).toBe(1);
    expect((await gate('user:a', 's1', words(0))).signals.novelty).toBe(0);
    clock.advance(INJECT_DEFAULTS.session.segmentTtlMs + 1);
    expect((await gate('user:a', 's1', words(0))).signals.novelty).toBe(1);
    expect((await ring('user:a', 's1')).length).toBe(1);
  });

  it('ends a session: its ring and inbox go, and the same id starts afresh', async () => {
    await gate('user:a', 's1', 'hello there');
    await gate('user:a', 's2', 'hello there');
    await kit.client.call('memory.inbox.inject', {
      owner: 'user:a',
      session_id: 's1',
      item: { text: 'waiting', source_role: 'system' },
    });
    const ended = await kit.client.call('memory.session.end', { owner: 'user:a', session_id: 's1' });
    expect(ended).toEqual({ session_id: 's1', ended: true, removed: { segments: 1, inbox_items: 1 } });
    expect(await ring('user:a', 's1')).toEqual([]);
    expect(await ring('user:a', 's2')).toHaveLength(1);
    expect((await gate('user:a', 's1', 'hello there')).cursor).toBe(1);
    const again = await kit.client.call('memory.session.end', { owner: 'user:a', session_id: 'never' });
    expect(again).toMatchObject({ ended: false });
  });

  it('leaks nothing between concurrent sessions and owners: rings, gate signals, inboxes', async () => {
    const other = await store.open({ now: clock.now });
    const pairs = [
      ['user:a', 's1'],
      ['user:a', 's2'],
      ['user:b', 's1'],
    ] as const;
    const services = [kit, other];
    // Each session pushes its own words and inbox items, all at once, through two services.
    const work = pairs.flatMap(([owner, session], p) =>
      Array.from({ length: 6 }, (_, i) => {
        const via = services[(p + i) % 2] as InjectKit;
        const words = `${owner} ${session} private${p}x${i} words`;
        return Promise.all([
          via.client.call('memory.gate', {
            owner,
            session_id: session,
            segment: { kind: 'user_message', text: words },
          }),
          via.client.call('memory.inbox.inject', {
            owner,
            session_id: session,
            item: { text: words, source_role: 'system' },
          }),
        ]);
      }),
    );
    await Promise.all(work);
    for (const [p, [owner, session]] of pairs.entries()) {
      const rows = await ring(owner, session);
      expect(rows).toHaveLength(6);
      expect(rows.map((r) => r.context_cursor)).toEqual([1, 2, 3, 4, 5, 6]);
      const claimed = await kit.client.call<{ items: Array<{ text: string }> }>('memory.inbox.claim', {
        owner,
        session_id: session,
      });
      expect(claimed.items).toHaveLength(6);
      for (const item of claimed.items) expect(item.text).toMatch(new RegExp(`private${p}x`));
    }
    const digests = await sqlRows<Ring>(
      kit.service.driver,
      'SELECT owner, session_id, digest FROM working_segments',
    );
    const seen = new Map<string, string>();
    for (const r of digests) {
      const where = `${r.owner} ${r.session_id}`;
      if (seen.has(r.digest) && seen.get(r.digest) !== where) expect.fail(`${r.digest} in two sessions`);
      seen.set(r.digest, where);
    }
    // What one session pushed is new to every other: its gate compares to its own ring only.
    const words = 'user:a s1 private0x0 words';
    expect((await gate('user:a', 's1', words)).signals.novelty).toBe(0);
    expect((await gate('user:a', 's2', words)).signals.novelty).toBeGreaterThan(0);
    expect((await gate('user:b', 's1', words)).signals.novelty).toBeGreaterThan(0);
  });
});
