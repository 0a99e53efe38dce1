import { describe, expect, it } from 'vitest';
import { proposeHeuristically, sentences } from './heuristic.js';
import type { BatchEvent } from './schema.js';
import { validateProposal } from './validate.js';

let n = 0;
const ev = (text: string, extra: Partial<BatchEvent> = {}): BatchEvent => ({
  event_id: `e${++n}`,
  kind: 'user_message',
  role: 'user',
  at: '2026-09-17T10:00:00.000Z',
  text,
  session_id: 's1',
  task_id: null,
  ...extra,
});

const check = (events: BatchEvent[]) => {
  const proposal = proposeHeuristically(events);
  const items = events.flatMap((e) => (e.event_ids ?? [e.event_id]).map((id) => ({ event_id: id, e })));
  const view = items.map(({ event_id, e }, position) => ({
    position,
    event_id,
    role: e.role,
    text: e.text,
    same_as: event_id === e.event_id ? null : items.findIndex((i) => i.event_id === e.event_id),
  }));
  const result = validateProposal(view, proposal);
  expect(result.ok ? [] : result.issues).toEqual([]);
  return proposal;
};

describe('sentences', () => {
  it('splits Chinese and English sentences into exact substrings', () => {
    const text = '先部署。 Then run the checks! e.g. this stays. 以后都用 pnpm';
    const parts = sentences(text);
    expect(parts).toEqual(['先部署。', 'Then run the checks!', 'e.g. this stays.', '以后都用 pnpm']);
    for (const p of parts) expect(text.includes(p)).toBe(true);
  });
});

describe('proposeHeuristically / 启发式观察', () => {
  it('writes one episode per task or session with an extractive summary', () => {
    const events = [
      ev('Please deploy the site to staging. Thanks.', { task_id: 't1' }),
      ev('Task t1 started', { kind: 'task_started', role: 'system', task_id: 't1' }),
      ev('Deployed to staging at 10:02.', { kind: 'task_result', role: 'system', task_id: 't1' }),
      ev('今天天气怎么样？', { session_id: 's9' }),
      ev('晴，最高 25 度。', { kind: 'agent_reply', role: 'agent', session_id: 's9' }),
    ];
    const p = check(events);
    const episodes = p.memories.filter((m) => m.kind === 'episode');
    expect(episodes.map((m) => m.text)).toEqual([
      'task t1 — user_message: Please deploy the site to staging. — task_started: Task t1 started — task_result: Deployed to staging at 10:02.',
      'session s9 — user_message: 今天天气怎么样？ — agent_reply: 晴，最高 25 度。',
    ]);
    expect(episodes[0]?.cues).toEqual(['t1', 's1', 'task_started', 'task_result']);
    expect(p.dispositions.every((d) => d.action === 'cited')).toBe(true);
  });

  it('turns explicit remember / 记住 / 以后 statements into facts quoting the user', () => {
    const p = check([
      ev('Remember that the staging server is 10.0.0.5.'),
      ev('记住：我的工号是 A-1024。'),
      ev('以后，周报发给王经理'),
      ev('部署完成以后告诉我'),
      ev('I do not remember the password.'),
    ]);
    const facts = p.memories.filter((m) => m.kind === 'fact');
    expect(facts.map((m) => [m.fact_kind, m.object])).toEqual([
      ['environment', 'the staging server is 10.0.0.5'],
      ['profile', '我的工号是 A-1024'],
      ['project', '周报发给王经理'],
    ]);
    expect(facts[1]?.quotes).toEqual([{ event_id: expect.any(String), text: '记住：我的工号是 A-1024。' }]);
  });

  it("records preferences in the user's verbatim words, never from the agent", () => {
    const p = check([
      ev('I prefer window seats on long flights.'),
      ev('我喜欢简短的回答。'),
      ev('以后都用 pnpm 安装依赖'),
      ev('I prefer to keep answers short.', { role: 'agent', kind: 'agent_reply' }),
    ]);
    const prefs = p.memories.filter((m) => m.kind === 'preference');
    expect(prefs.map((m) => m.text)).toEqual([
      'I prefer window seats on long flights.',
      '我喜欢简短的回答。',
      '以后都用 pnpm 安装依赖',
    ]);
    for (const m of prefs) expect(m.quotes?.[0]?.text).toBe(m.text);
  });

  it('cites every id of a merged group and discards empty events', () => {
    const p = check([
      ev('ok', { event_ids: ['e-a', 'e-b'], count: 2, event_id: 'e-a' }),
      ev('   ', { kind: 'tool_result', role: 'tool' }),
    ]);
    expect(p.memories[0]?.sources).toEqual(['e-a', 'e-b']);
    expect(p.dispositions[1]).toMatchObject({ action: 'discarded' });
  });
});
