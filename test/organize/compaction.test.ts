// Compaction: nested timeline nodes over contiguous ranges of one owner's events; the raw events never
// change, and every one of them stays reachable from the context through the nodes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContextResult } from '../../src/organize/organize.js';
import { ENGINES } from '../helpers/engines.js';
import { sqlRows } from '../helpers/sql.js';
import { conversation, openOrganizeFixture, type OrganizeFixture } from './fixture.js';

interface NodeAnswer {
  node: { node_id: string; level: number; events: number; first_event_id: string; last_event_id: string };
  children: Array<{ type: 'event' | 'node'; id: string; level?: number; events: number }>;
}

describe.each(ENGINES)('compaction on %s', (engine) => {
  let f: OrganizeFixture;
  beforeEach(async () => {
    f = await openOrganizeFixture(engine);
  });
  afterEach(() => f.close());

  /** Every event under a node, read down through `memory.chain.expand` to the raw events. */
  async function expand(owner: string, nodeId: string, level: number): Promise<string[]> {
    const answer = await f.client.call<NodeAnswer>('memory.chain.expand', { owner, node_id: nodeId });
    expect(answer.node.level).toBe(level);
    const ids: string[] = [];
    for (const child of answer.children) {
      if (child.type === 'event') {
        expect(level, 'only level-1 nodes hold events').toBe(1);
        ids.push(child.id);
      } else {
        expect(child.level, 'a node covers nodes one level down or lower').toBeLessThan(level);
        ids.push(...(await expand(owner, child.id, child.level ?? 0)));
      }
    }
    expect(ids.length).toBe(answer.node.events);
    expect([ids[0], ids.at(-1)]).toEqual([answer.node.first_event_id, answer.node.last_event_id]);
    return ids;
  }

  it('keeps every event reachable: read and expand through nested nodes to the raw events, unchanged', async () => {
    const events = conversation(600);
    await f.ingest('alice', events);
    await f.ingest('bob', conversation(30, { prefix: 'b' }));
    const before = await sqlRows(f.service.driver, 'SELECT seq, event_id, text, at FROM events ORDER BY seq');
    await f.client.call('memory.organize.request', {
      owner: 'alice',
      kind: 'compact',
      keep_recent_tokens: 0,
    });
    expect(await f.drain()).toBeGreaterThan(50);

    const context = await f.client.call<ContextResult>('memory.chain.context', {
      owner: 'alice',
      max_tokens: 1_000_000,
      max_bytes: 4_000_000,
    });
    expect(context.truncated).toBe(false);
    expect(Math.max(...context.nodes.map((n) => n.level))).toBeGreaterThanOrEqual(3);
    const reached: string[] = [];
    for (const node of context.nodes) reached.push(...(await expand('alice', node.node_id, node.level)));
    reached.push(...context.events.map((e) => e.event_id));
    expect(reached).toEqual(events.map((e) => e.event_id));

    // The raw events are exactly as they were; the other owner's are untouched and not compacted.
    expect(
      await sqlRows(f.service.driver, 'SELECT seq, event_id, text, at FROM events ORDER BY seq'),
    ).toEqual(before);
    expect(await f.count(`SELECT count(*) AS n FROM memory_nodes WHERE owner = 'bob'`)).toBe(0);
    // Every level-1 node queued its events for the organize run, once.
    const archive = await sqlRows<{ n: number; events: number }>(
      f.service.driver,
      `SELECT count(*) AS n, sum(n.events) AS events FROM organize_archive a JOIN memory_nodes n ON n.node_id = a.node_id`,
    );
    expect(Number(archive[0]?.events)).toBe(600);
    expect(Number(archive[0]?.n)).toBe(
      await f.count(`SELECT count(*) AS n FROM memory_nodes WHERE level = 1`),
    );
  });

  it('keeps the most recent events raw and a level at most 8 active nodes', async () => {
    await f.ingest('alice', conversation(600));
    await f.client.call('memory.organize.request', { owner: 'alice', kind: 'compact' });
    await f.drain();
    const status = await f.client.call<{
      owners: Array<{ raw_tokens: number; levels: Array<{ level: number; active: number }> }>;
    }>('memory.chain.status', { owner: 'alice' });
    const [alice] = status.owners;
    expect(alice?.raw_tokens).toBeGreaterThan(0);
    expect(alice?.raw_tokens).toBeLessThanOrEqual(f.organize.options.keepRecentTokens + 200);
    for (const level of alice?.levels ?? []) expect(level.active).toBeLessThanOrEqual(8);
  });

  it('redacts a summary before it is stored, and nodes refuse to change', async () => {
    await f.ingest('alice', conversation(10));
    await f.client.call('memory.organize.request', {
      owner: 'alice',
      kind: 'compact',
      keep_recent_tokens: 0,
    });
    const job = await f.client.call<{ job_id: string; token: string }>('memory.organize.claim', {});
    const secret = 'sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0';
    const { receipt } = await f.client.call<{ receipt: { node_id: string } }>('memory.organize.commit', {
      owner: 'alice',
      ...job,
      summary: { text: `the user pasted ${secret} by mistake` },
    });
    const [node] = await sqlRows<{ text: string }>(
      f.service.driver,
      'SELECT text FROM memory_nodes WHERE node_id = ?',
      [receipt.node_id],
    );
    expect(node?.text).not.toContain(secret);
    expect(node?.text).toContain('[redacted:');
    await expect(
      f.service.driver.run(`UPDATE memory_nodes SET first_seq = first_seq + 1 WHERE node_id = ?`, [
        receipt.node_id,
      ]),
    ).rejects.toThrow(/append-only/);
    await expect(
      f.service.driver.run('DELETE FROM memory_nodes WHERE node_id = ?', [receipt.node_id]),
    ).rejects.toThrow(/append-only/);
  });
});
