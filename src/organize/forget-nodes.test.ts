// Forgetting events rewrites the timeline nodes over them: no summary keeps a forgotten event's words, the
// remaining events stay reachable, and the tree keeps its shape.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_USAGE } from '../llm/llm.js';
import type { Summarizer } from './summarizer.js';
import { conversation, openOrganizeFixture, type OrganizeFixture } from '../../test/organize/fixture.js';
import { ENGINES } from '../../test/helpers/engines.js';
import { sqlRows } from '../../test/helpers/sql.js';

const MARK = 'flamingoquartz';
const MARK_ZH = '火烈鸟密语';

/** A summarizer that keeps the marked words of its pieces, as a model might, so they are surely there. */
const marked = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.includes(MARK) || line.includes(MARK_ZH))
    .join('\n') || text.slice(0, 8);
const verbatim: Summarizer = {
  name: 'verbatim-test',
  summarize: async (step) => ({
    text: step.pieces
      .map((p) => marked(p.text))
      .join('\n')
      .slice(0, step.max_chars),
    usage: { ...NO_USAGE },
  }),
};

describe.each(ENGINES)('forgetting events under timeline nodes on %s', (engine) => {
  let f: OrganizeFixture;
  beforeEach(async () => {
    f = await openOrganizeFixture(engine);
  });
  afterEach(() => f.close());

  it('summarises every node over a forgotten event again from what remains, up the tree', async () => {
    const events = conversation(400);
    const secretAt = 123;
    const secretId = events[secretAt]?.event_id ?? '';
    events[secretAt] = { ...events[secretAt]!, text: `记住暗号 ${MARK_ZH}，英文是 ${MARK}` };
    await f.ingest('alice', events);
    await f.ingest('bob', [{ ...events[0]!, event_id: 'b1', text: `bob 也说 ${MARK}` }]);
    await f.client.call('memory.organize.request', {
      owner: 'alice',
      kind: 'compact',
      keep_recent_tokens: 0,
    });
    await f.drain(f.worker(verbatim));
    const holding = () =>
      sqlRows<{ node_id: string; level: number }>(
        f.service.driver,
        `SELECT node_id, level FROM memory_nodes WHERE owner = 'alice' AND (text LIKE ? OR text LIKE ?)`,
        [`%${MARK}%`, `%${MARK_ZH}%`],
      );
    const before = await holding();
    expect(before.length, 'the marker is summarised before the forget').toBeGreaterThan(0);
    const shape = () =>
      sqlRows(
        f.service.driver,
        `SELECT node_id, level, first_seq, last_seq, parent_id FROM memory_nodes WHERE owner = 'alice' ORDER BY node_id`,
      );
    const treeBefore = await shape();
    const { objects } = await f.client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      owner: 'alice',
      objects: [{ type: 'knowledge', name: '暗号' }],
      source_refs: [secretId],
    });
    const answer = await f.client.call<{ counts: { events: number; nodes_rewritten: number } }>(
      'memory.forget',
      { owner: 'alice', ids: [objects[0]?.id ?? ''], with_events: true },
    );
    expect(answer.counts.events).toBe(1);
    expect(answer.counts.nodes_rewritten).toBeGreaterThanOrEqual(before.length);
    expect(await holding()).toEqual([]);
    expect(await shape()).toEqual(treeBefore);
    // What remains is summarised again, and counted: the level-1 node lost one event, its parents too.
    const [rewritten] = await sqlRows<{ events: number; summarizer: string; text: string }>(
      f.service.driver,
      `SELECT events, summarizer, text FROM memory_nodes WHERE owner = 'alice' AND level = 1
          AND first_seq <= (SELECT seq FROM events WHERE event_id = ?) AND last_seq >= (SELECT seq FROM events WHERE event_id = ?)`,
      [events[secretAt + 1]?.event_id ?? '', events[secretAt + 1]?.event_id ?? ''],
    );
    expect(rewritten?.summarizer).toBe('extractive-v1+forget');
    expect(rewritten?.text).toContain(`第${secretAt + 1}条`);
    const total = await sqlRows<{ n: number }>(
      f.service.driver,
      `SELECT SUM(events) AS n FROM memory_nodes WHERE owner = 'alice' AND parent_id IS NULL`,
    );
    expect(Number(total[0]?.n)).toBe(events.length - 1);
    // Another owner's node keeps its words, and the context reads cleanly.
    const context = await f.client.call<{ text: string }>('memory.chain.context', {
      owner: 'alice',
      max_tokens: 50_000,
      max_bytes: 500_000,
    });
    expect(context.text).not.toContain(MARK);
    expect(context.text).not.toContain(MARK_ZH);
  });

  it('leaves the nodes alone when a forget keeps the events', async () => {
    await f.ingest('alice', conversation(200));
    await f.client.call('memory.organize.request', {
      owner: 'alice',
      kind: 'compact',
      keep_recent_tokens: 0,
    });
    await f.drain(f.worker(verbatim));
    const nodes = () =>
      sqlRows(f.service.driver, `SELECT node_id, text, summarizer FROM memory_nodes ORDER BY node_id`);
    const before = await nodes();
    const { objects } = await f.client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      owner: 'alice',
      objects: [{ type: 'knowledge', name: '发票' }],
      source_refs: ['e00010'],
    });
    const answer = await f.client.call<{ counts: { nodes_rewritten: number } }>('memory.forget', {
      owner: 'alice',
      ids: [objects[0]?.id ?? ''],
    });
    expect(answer.counts.nodes_rewritten).toBe(0);
    expect(await nodes()).toEqual(before);
  });
});
