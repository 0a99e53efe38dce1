// Issue 4: atomic publish, initial statuses, append-only memories, and recall over published memories.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClaimedBatch, ProposalInput } from '../../src/observe/observe.js';
import type { RecallResult } from '../../src/recall/schema.js';
import { event, openFixture, type ObserveFixture } from './fixture.js';
import { matchRefs } from '../helpers/index-match.js';
import { sqlRows } from '../helpers/sql.js';
import { ENGINES } from '../helpers/engines.js';

describe.each(ENGINES)('on %s', (engine) => {
  let f: ObserveFixture;
  beforeEach(async () => {
    f = await openFixture({ engine });
  });
  afterEach(() => f.close());

  const EVENTS = [
    event('I prefer window seats when you book my flights to Shanghai', { event_id: 'u1', session_id: 's1' }),
    event('记住：发布前要先跑 npm run check', { event_id: 'u2', session_id: 's1' }),
    event('Booked seat 12A (window) on MU5101.', {
      event_id: 'a1',
      kind: 'agent_reply',
      role: 'agent',
      session_id: 's1',
    }),
    event('thanks', { event_id: 'u3', session_id: 's1' }),
  ];

  const PROPOSAL: ProposalInput = {
    dispositions: [
      { event_id: 'u1', action: 'cited' },
      { event_id: 'u2', action: 'cited' },
      { event_id: 'a1', action: 'cited' },
      { event_id: 'u3', action: 'discarded', reason: 'chit-chat' },
    ],
    memories: [
      {
        kind: 'episode',
        text: 'Booked a window seat 12A on flight MU5101 to Shanghai.',
        sources: ['u1', 'a1'],
      },
      {
        kind: 'preference',
        text: 'Prefers window seats on flights.',
        sources: ['u1'],
        quotes: [{ event_id: 'u1', text: 'I prefer window seats' }],
        cues: ['aisle', 'airplane'],
      },
      {
        kind: 'fact',
        fact_kind: 'project',
        subject: 'release',
        predicate: 'requires',
        object: 'npm run check',
        text: '发布前要先跑 npm run check',
        sources: ['u2'],
        quotes: [{ event_id: 'u2', text: '发布前要先跑 npm run check' }],
      },
      {
        kind: 'procedure',
        text: '发布流程：先检查再发布',
        sources: ['u2'],
        steps: ['npm run check', 'npm publish'],
        risk: 'medium',
      },
    ],
  };

  async function claimBatch(owner = 'u'): Promise<ClaimedBatch> {
    f.clock.advance(30_000);
    const batch = await f.observation.claim({ owner });
    if (!batch) throw new Error('expected a batch');
    return batch;
  }

  const tables = async () => ({
    memories: await f.count('SELECT count(*) AS n FROM memories'),
    sources: await f.count('SELECT count(*) AS n FROM memory_sources'),
    docs: await f.count("SELECT count(*) AS n FROM search_docs WHERE kind != 'event'"),
    consumed: await f.count('SELECT count(*) AS n FROM observation_consumed'),
    published: await f.count("SELECT count(*) AS n FROM observation_batches WHERE state = 'published'"),
    publishSeq: await f.count("SELECT publish_seq AS n FROM observation_owners WHERE owner = 'u'"),
  });

  describe('publish / 发布', () => {
    beforeEach(() => f.ingest('u', EVENTS));

    it('writes memories, sources, index rows, consumed marks and the receipt together / 一次事务发布', async () => {
      const batch = await claimBatch();
      const receipt = await f.observation.commit({
        batch_id: batch.batch_id,
        token: batch.token,
        proposal: PROPOSAL,
      });
      expect(receipt.publish_seq).toBe(1);
      expect(receipt.memory_ids).toHaveLength(4);
      expect(await tables()).toEqual({
        memories: 4,
        sources: 5,
        docs: 4,
        consumed: 4,
        published: 1,
        publishSeq: 1,
      });
      const rows = await sqlRows<{ kind: string; status: string; session_id: string | null }>(
        f.service.driver,
        // In publication order: the order of their index documents.
        `SELECT m.kind, m.status, m.session_id FROM memories m
           JOIN search_docs d ON d.owner = m.owner AND d.kind = m.kind AND d.ref = m.memory_id ORDER BY d.doc_id`,
      );
      expect(rows).toEqual([
        { kind: 'episode', status: 'active', session_id: 's1' },
        { kind: 'preference', status: 'active', session_id: 's1' },
        { kind: 'fact', status: 'candidate', session_id: 's1' },
        { kind: 'procedure', status: 'candidate', session_id: 's1' },
      ]);
      const consumed = await sqlRows<{
        event_id: string;
        disposition: string;
        reason: string | null;
      }>(f.service.driver, 'SELECT event_id, disposition, reason FROM observation_consumed ORDER BY seq');
      expect(consumed.map((c) => `${c.event_id}:${c.disposition}`)).toEqual([
        'u1:cited',
        'u2:cited',
        'a1:cited',
        'u3:discarded',
      ]);
    });

    it('regression for issue 8: redacts what a proposal publishes, in every part / 提案内容同样脱敏', async () => {
      const key = `sk-proj-${'Zq7Xw2Lr'.repeat(4)}`;
      const batch = await claimBatch();
      const leaky: ProposalInput = {
        dispositions: [
          ...PROPOSAL.dispositions.slice(0, 3),
          { event_id: 'u3', action: 'discarded', reason: `user pasted password=Hunter2Hunter2` },
        ],
        memories: [
          {
            kind: 'episode',
            text: `Deployed with the key ${key}`,
            sources: ['u1', 'a1'],
            cues: [`token=${key}`],
          },
          {
            kind: 'fact',
            fact_kind: 'project',
            subject: 'release contact 13912345678',
            predicate: 'requires',
            object: `api_key=${key}`,
            text: '发布前要先跑 npm run check',
            sources: ['u2'],
            quotes: [{ event_id: 'u2', text: '发布前要先跑 npm run check' }],
          },
          {
            kind: 'procedure',
            text: '发布流程',
            sources: ['u2'],
            steps: [`export OPENAI_API_KEY=${key}`, '密码：Xy7kLm9q2 登录'],
            risk: 'medium',
          },
        ],
      };
      await f.observation.commit({ batch_id: batch.batch_id, token: batch.token, proposal: leaky });
      const stored = JSON.stringify(
        await sqlRows(
          f.service.driver,
          'SELECT text, subject, object, cues, procedure, quotes FROM memories',
        ),
      );
      const reasons = JSON.stringify(await sqlRows(f.service.driver, 'SELECT reason FROM observation_items'));
      for (const secret of [key, 'Zq7Xw2Lr', '13912345678', 'Hunter2Hunter2', 'Xy7kLm9q2']) {
        expect(stored).not.toContain(secret);
        expect(reasons).not.toContain(secret);
      }
      expect(stored).toContain('[redacted:api_key]');
      expect(stored).toContain('[redacted:phone]');
      expect(stored).toContain('发布前要先跑 npm run check');
      expect(await matchRefs(f.service.driver, 'u', key.toLowerCase())).toEqual([]);
      const recalled = await f.client.call<RecallResult>('memory.recall', {
        owner: 'u',
        query: key,
        wait_ms: 60_000,
      });
      expect(JSON.stringify(recalled.items)).not.toContain(key);
    });

    it('keeps a publish sequence per owner / 每个 owner 各自的发布序号', async () => {
      await f.ingest('v', [event('hi from v', { event_id: 'v1' })]);
      const first = await claimBatch('u');
      await f.observation.commit({ batch_id: first.batch_id, token: first.token, proposal: PROPOSAL });
      await f.ingest('u', [event('done', { event_id: 'u9', kind: 'task_result', role: 'system' })]);
      const second = await claimBatch('u');
      const seq2 = await f.observation.commit({
        batch_id: second.batch_id,
        token: second.token,
        proposal: { dispositions: [{ event_id: 'u9', action: 'discarded' }], memories: [] },
      });
      const other = await claimBatch('v');
      const seqV = await f.observation.commit({
        batch_id: other.batch_id,
        token: other.token,
        proposal: { dispositions: [{ event_id: 'v1', action: 'discarded' }], memories: [] },
      });
      expect([seq2.publish_seq, seqV.publish_seq]).toEqual([2, 1]);
    });

    it('a failure mid-publish leaves nothing behind / 发布中途失败不留痕迹', async () => {
      const batch = await claimBatch();
      // A real constraint failure after the memories and part of the sources are written.
      await f.service.driver.exec(
        engine === 'sqlite'
          ? `CREATE TRIGGER fail_publish BEFORE INSERT ON memory_sources
             WHEN NEW.event_id = 'u2' BEGIN SELECT RAISE(ABORT, 'disk says no'); END`
          : `CREATE FUNCTION fail_publish() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN RAISE EXCEPTION 'disk says no'; END $$;
             CREATE TRIGGER fail_publish BEFORE INSERT ON memory_sources
             FOR EACH ROW WHEN (NEW.event_id = 'u2') EXECUTE FUNCTION fail_publish()`,
      );
      await expect(
        f.observation.commit({ batch_id: batch.batch_id, token: batch.token, proposal: PROPOSAL }),
      ).rejects.toThrow(/disk says no/);
      expect(await tables()).toEqual({
        memories: 0,
        sources: 0,
        docs: 0,
        consumed: 0,
        published: 0,
        publishSeq: 0,
      });
      // The lease still holds: the same worker can commit once the cause is gone.
      await f.service.driver.exec(
        engine === 'sqlite' ? 'DROP TRIGGER fail_publish' : 'DROP TRIGGER fail_publish ON memory_sources',
      );
      const receipt = await f.observation.commit({
        batch_id: batch.batch_id,
        token: batch.token,
        proposal: PROPOSAL,
      });
      expect(receipt.publish_seq).toBe(1);
    });

    it('keeps published memories append-only / 已发布记忆只追加', async () => {
      const batch = await claimBatch();
      await f.observation.commit({ batch_id: batch.batch_id, token: batch.token, proposal: PROPOSAL });
      await expect(f.service.driver.run("UPDATE memories SET text = 'changed'")).rejects.toThrow(
        /append-only/,
      );
      await expect(f.service.driver.run('UPDATE memory_sources SET position = 9')).rejects.toThrow(
        /append-only/,
      );
    });

    it('refuses a source event of another owner at the storage level too', async () => {
      await f.ingest('v', [event('v secret', { event_id: 'v1' })]);
      await expect(
        f.service.driver.run(
          `INSERT INTO memory_sources (memory_id, owner, event_id, position) VALUES ('mem_x', 'u', 'v1', 0)`,
        ),
      ).rejects.toThrow(/foreign key/i);
    });
  });

  describe('recall over memories / 召回记忆', () => {
    beforeEach(async () => {
      await f.ingest('u', EVENTS);
      const batch = await claimBatch();
      await f.observation.commit({ batch_id: batch.batch_id, token: batch.token, proposal: PROPOSAL });
    });

    const recall = (query: string, extra: Record<string, unknown> = {}) =>
      f.client.call<RecallResult>('memory.recall', { owner: 'u', query, wait_ms: 60_000, ...extra });

    it('finds a memory with its status and source_refs, which expand through memory.evidence.get / 来源可展开', async () => {
      const result = await recall('window seats', { kinds: ['preference'] });
      expect(result.items).toHaveLength(1);
      const [item] = result.items;
      expect(item).toMatchObject({ kind: 'preference', status: 'active', source_refs: ['u1'] });
      const evidence = await f.client.call<{ items: Array<{ id: string; text: string }> }>(
        'memory.evidence.get',
        {
          owner: 'u',
          ids: item?.source_refs,
        },
      );
      expect(evidence.items.map((e) => e.text)).toEqual([
        'I prefer window seats when you book my flights to Shanghai',
      ]);
    });

    it('marks candidates and finds Chinese memory text / 候选状态与中文检索', async () => {
      const result = await recall('发布前', { kinds: ['fact', 'procedure'] });
      expect(result.items.map((i) => [i.kind, i.status])).toEqual([
        ['fact', 'candidate'],
        // The lifecycle where it has one (issue 10): a procedure taught by the user is a draft.
        ['procedure', 'draft'],
      ]);
    });

    it('filters by kind and leaves events to the event kind', async () => {
      const events = await recall('window', { kinds: ['event'] });
      expect(events.items.every((i) => i.kind === 'event' && i.status === undefined)).toBe(true);
      const all = await recall('window');
      expect(new Set(all.items.map((i) => i.kind))).toEqual(new Set(['event', 'episode', 'preference']));
    });

    it('weights cue terms below body terms / 线索权重低于正文', async () => {
      // "airplane" is only a cue of the preference; add an episode whose body says it.
      await f.ingest('u', [
        event('airplane food was fine', { event_id: 'u7', kind: 'task_result', role: 'system' }),
      ]);
      const batch = await claimBatch();
      await f.observation.commit({
        batch_id: batch.batch_id,
        token: batch.token,
        proposal: {
          dispositions: [{ event_id: 'u7', action: 'cited' }],
          memories: [{ kind: 'episode', text: 'The airplane food was fine.', sources: ['u7'] }],
        },
      });
      const result = await recall('airplane', { kinds: ['episode', 'preference'] });
      expect(result.items.map((i) => i.kind)).toEqual(['episode', 'preference']);
    });

    it('never returns another owner’s memories', async () => {
      const result = await f.client.call<RecallResult>('memory.recall', {
        owner: 'v',
        query: 'window seats',
        wait_ms: 60_000,
      });
      expect(result.items).toEqual([]);
    });
  });
});
