import { describe, expect, it } from 'vitest';
import { charTokenize, createBaseline } from './baseline.js';
import { dulemon, stripCjkSpaces } from './datasets/dulemon.js';
import { locomo, normalizeEvidenceIds } from './datasets/locomo.js';
import { longmemeval } from './datasets/longmemeval.js';
import { zhAgent } from './datasets/zh-agent.js';
import { cjkCharTokenize, createCharBm25 } from './bm25.js';
import { locomoFixture, longMemEvalFixture } from './fixtures.js';

describe('normalizeEvidenceIds', () => {
  it('splits, trims and repairs the malformed ids found in LoCoMo', () => {
    const result = normalizeEvidenceIds([
      'D8:6; D9:17',
      'D',
      'D:11:26',
      'D1:3 ',
      'D10:16;D10:17',
      'D1:3',
      'D01:04',
    ]);
    expect(result.ids).toEqual(['D8:6', 'D9:17', 'D11:26', 'D1:3', 'D10:16', 'D10:17', 'D1:4']);
    expect(result.unreadable).toEqual(['D']);
    expect(result.repaired).toEqual([
      '"D8:6; D9:17" → D8:6, D9:17',
      '"D:11:26" → D11:26',
      '"D1:3 " → D1:3',
      '"D10:16;D10:17" → D10:16, D10:17',
      '"D01:04" → D1:4',
    ]);
  });
});

describe('the LoCoMo loader', () => {
  const loaded = locomo.load(JSON.stringify(locomoFixture), {});
  if (!loaded.ok) throw new Error(loaded.issues.join('; '));
  const [first] = loaded.value.conversations;

  it('makes one unit per turn with speaker, caption, session date and role by speaker', () => {
    expect(first?.owner).toBe('conv-a');
    expect(first?.units.map((u) => u.id)).toEqual([
      'conv-a:D1:1',
      'conv-a:D1:2',
      'conv-a:D2:1',
      'conv-a:D2:2',
    ]);
    expect(first?.units[0]).toMatchObject({
      role: 'user',
      session: 'conv-a:session_1',
      at: Date.UTC(2023, 4, 8, 13, 56),
    });
    expect(first?.units[1]?.role).toBe('agent');
    expect(first?.units[1]?.text).toBe('Bob: Look at my new canoe! [image: a red canoe on a lake]');
  });

  it('asks at the last session date, keeps category 5 apart and skips questions without evidence', () => {
    const q = first?.queries ?? [];
    expect(q.map((x) => x.id)).toEqual(['conv-a:q1', 'conv-a:q2', 'conv-a:q3']);
    expect(q[0]).toMatchObject({ at: Date.UTC(2023, 4, 25, 9, 5), group: '4 single-hop', inOverall: true });
    expect(q[1]?.evidence).toEqual(['conv-a:D1:1', 'conv-a:D2:2']);
    expect(q[2]).toMatchObject({ group: '5 adversarial', inOverall: false });
    expect(loaded.value.skipped).toEqual([{ id: 'conv-a:q4', reason: 'no evidence' }]);
  });

  it('reports bad input as issues, not throws', () => {
    expect(locomo.load('{', {}).ok).toBe(false);
    expect(locomo.load('[{"sample_id": 3}]', {}).ok).toBe(false);
  });
});

describe('the LongMemEval loader', () => {
  const loaded = longmemeval.load(JSON.stringify(longMemEvalFixture), {});
  if (!loaded.ok) throw new Error(loaded.issues.join('; '));

  it('makes <question_id>:<session_id>:<turn> units and skips abstention questions', () => {
    const [conv] = loaded.value.conversations;
    expect(loaded.value.conversations).toHaveLength(1);
    expect(loaded.value.skipped).toEqual([{ id: 'q2_abs', reason: 'abstention question' }]);
    expect(conv?.units.map((u) => u.id)).toEqual(['q1:s-a:1', 'q1:s-a:2', 'q1:answer_x:1', 'q1:answer_x:2']);
    expect(conv?.units[2]).toMatchObject({
      session: 'answer_x',
      role: 'user',
      at: Date.UTC(2023, 4, 21, 8, 0),
    });
    expect(conv?.queries[0]).toMatchObject({
      at: Date.UTC(2023, 5, 1, 12, 0),
      evidence: ['q1:answer_x:1'],
      evidenceSessions: ['answer_x'],
      group: 'single-session-user',
    });
  });

  it('scores sessions by their best turn', () => {
    const conv = loaded.value.conversations[0];
    const query = conv?.queries[0];
    if (!conv || !query) throw new Error('fixture');
    const scores = longmemeval.score(
      query,
      ['q1:s-a:2', 'q1:answer_x:2', 'q1:s-a:1', 'q1:answer_x:1'],
      [1, 2],
      conv,
    );
    expect(scores['session_recall_all@1']).toBe(0);
    expect(scores['session_recall_all@2']).toBe(1);
    expect(scores['session_ndcg@2']).toBeCloseTo(1 / Math.log2(3), 10);
    expect(scores['turn_recall_all@2']).toBe(0);
  });
});

describe('the DuLeMon loader', () => {
  const sample = {
    bot_persona: ['B1: 我 喜欢 喜剧'],
    user_said_persona: ['U1: 我 养 猫 ， 会 在 网上 发 它 的 照片', 'U2: 我 在 IT 部门 工作'],
    user_no_said_persona: ['U3: 我 是 男性'],
    conversation: [
      'Usr: 在 么 ？',
      'Bot:hi ， 你 的 猫咪 叫 什么 名字\tU1',
      'Usr: 我 是 个 壮年 男子\tU3',
      'Bot: 好 的\tU9',
    ],
  };
  const loaded = dulemon.load(`${JSON.stringify(sample)}\n`, {});
  if (!loaded.ok) throw new Error(loaded.issues.join('; '));
  const conv = loaded.value.conversations[0];

  it('stores persona memories first and asks each labelled turn before it is stored', () => {
    expect(conv?.units.map((u) => u.id)).toEqual([
      'dulemon-1:persona:B1',
      'dulemon-1:persona:U1',
      'dulemon-1:persona:U2',
      'dulemon-1:persona:U3',
      'dulemon-1:t1',
      'dulemon-1:t2',
      'dulemon-1:t3',
      'dulemon-1:t4',
    ]);
    expect(conv?.units[1]?.text).toBe('我养猫，会在网上发它的照片');
    expect(conv?.queries).toMatchObject([
      {
        id: 'dulemon-1:t2',
        text: 'hi，你的猫咪叫什么名字',
        evidence: ['dulemon-1:persona:U1'],
        visibleUnits: 5,
      },
      { id: 'dulemon-1:t3', group: 'user persona (not said before)', visibleUnits: 6 },
    ]);
    expect(loaded.value.skipped).toEqual([
      { id: 'dulemon-1:t4', reason: 'label U9 names no persona memory' },
    ]);
  });

  it('removes segmentation spaces between CJK characters only', () => {
    expect(stripCjkSpaces('我 在 IT 部门 工作 ， 在 同 一 家 公司 工作 了 15 年')).toBe(
      '我在 IT 部门工作，在同一家公司工作了 15 年',
    );
  });
});

describe('the baseline', () => {
  it('splits Chinese into characters for the Chinese case', () => {
    expect(charTokenize('我喜欢IT部门, ok 2023')).toEqual(['我', '喜', '欢', 'IT', '部', '门', 'ok', '2023']);
  });

  it('ranks by BM25 with its default tokenizer', () => {
    const base = createBaseline();
    base.add([
      { id: 'a', session: 's', role: 'user', at: 0, text: 'I adopted a dog named Rex' },
      { id: 'b', session: 's', role: 'user', at: 0, text: 'the weather is nice' },
      { id: 'c', session: 's', role: 'agent', at: 0, text: 'Rex the dog likes the park, the dog park' },
    ]);
    expect(base.search('dog Rex', 5).sort()).toEqual(['a', 'c']);
    expect(base.search('weather', 5)).toEqual(['b']);
    expect(base.search('nothing here', 5)).toEqual([]);
  });
});

describe('the zh-agent loader', () => {
  const file = {
    owner: 'device:test',
    events: [
      {
        event_id: 'e1',
        session_id: 's1',
        kind: 'user_message',
        role: 'user',
        at: '2026-10-01T09:00:00+08:00',
        text: '帮我订酒店',
      },
      {
        event_id: 'e2',
        session_id: 's1',
        task_id: 't001',
        kind: 'tool_result',
        role: 'tool',
        at: '2026-10-01T09:01:00+08:00',
        text: '已预订全季酒店',
      },
    ],
    questions: [
      {
        qid: 'q1',
        at: '2026-10-02T10:00:00+08:00',
        query: '订的哪家酒店？',
        type: 'single-hop',
        gold_event_ids: ['e2'],
      },
      {
        qid: 'q2',
        at: '2026-10-02T10:00:00+08:00',
        query: '机票多少钱？',
        type: 'abstention',
        gold_event_ids: [],
      },
    ],
  };
  const loaded = zhAgent.load(JSON.stringify(file), {});
  if (!loaded.ok) throw new Error(loaded.issues.join('; '));
  const conv = loaded.value.conversations[0];

  it('stores every event under the owner with its kind, role, task and zoned time', () => {
    expect(conv?.owner).toBe('device:test');
    expect(conv?.units[1]).toMatchObject({
      id: 'e2',
      kind: 'tool_result',
      role: 'tool',
      taskId: 't001',
      at: Date.UTC(2026, 9, 1, 1, 1),
    });
    expect(zhAgent.timeZone).toBe('Asia/Shanghai');
  });

  it('scores recall of the gold events and keeps abstention questions apart, unscored', () => {
    const [q1, q2] = conv?.queries ?? [];
    expect(q1).toMatchObject({ group: 'single-hop', inOverall: true, evidence: ['e2'] });
    expect(q2).toMatchObject({ group: 'abstention', inOverall: false, abstention: true });
    if (!q1 || !q2 || !conv) throw new Error('fixture');
    expect(zhAgent.score(q1, ['e1', 'e2'], [1, 2], conv)).toEqual({ 'recall@1': 0, 'recall@2': 1 });
    expect(zhAgent.score(q2, ['e1'], [1], conv)).toEqual({});
  });
});

describe('the character BM25 baseline', () => {
  it('reads lower-cased Latin words and digits and single CJK characters', () => {
    expect(cjkCharTokenize('BX-2026-1042 被退回, Hotel OK')).toEqual([
      'bx',
      '2026',
      '1042',
      '被',
      '退',
      '回',
      'hotel',
      'ok',
    ]);
  });

  it('scores Okapi BM25 with each query term counted once', () => {
    const base = createCharBm25();
    base.add([
      { id: 'a', session: 's', role: 'user', at: 0, text: '酒店 酒店' },
      { id: 'b', session: 's', role: 'user', at: 0, text: '机票' },
      { id: 'c', session: 's', role: 'user', at: 0, text: '酒' },
    ]);
    // n = 3, average length 7/3; 酒 in 2 documents, 店 in 1.
    const idf = (df: number) => Math.log(1 + (3 - df + 0.5) / (df + 0.5));
    const tf = (f: number, len: number) => (f * 2.2) / (f + 1.2 * (0.25 + (0.75 * len) / (7 / 3)));
    const [a, c] = base.scores('酒店酒店');
    expect(a).toMatchObject({ id: 'a' });
    expect(a?.score).toBeCloseTo(idf(2) * tf(2, 4) + idf(1) * tf(2, 4), 10);
    expect(c?.score).toBeCloseTo(idf(2) * tf(1, 1), 10);
    expect(base.search('机', 5)).toEqual(['b']);
    expect(base.search('nothing', 5)).toEqual([]);
  });
});
