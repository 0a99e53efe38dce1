import { describe, expect, it } from 'vitest';
import { proposeHeuristically } from './heuristic.js';
import { standingFact } from './heuristic-facts.js';
import type { BatchEvent } from './schema.js';
import { validateProposal } from './validate.js';

let n = 0;
const ev = (text: string, extra: Partial<BatchEvent> = {}): BatchEvent => ({
  event_id: `f${++n}`,
  kind: 'user_message',
  role: 'user',
  at: '2026-09-17T10:00:00.000Z',
  text,
  session_id: 's1',
  task_id: null,
  ...extra,
});

const triple = (text: string) => {
  const fact = standingFact(ev(text), text);
  return fact ? [fact.subject, fact.predicate, fact.object] : null;
};

describe('standingFact / 固定规则与陈述的值', () => {
  it('reads the examples of the issue', () => {
    expect(triple('以后会议纪要都用 Word')).toEqual(['会议纪要', '格式', 'Word']);
    expect(triple('from now on book aisle seats')).toEqual(['seat', 'preference', 'aisle']);
    expect(triple('羽毛球课改到周六')).toEqual(['羽毛球课', '时间', '周六']);
  });

  it('takes the predicate from the kind of value, not from the sentence', () => {
    expect(triple('从现在起周报一律发 PDF。')).toEqual(['周报', '格式', 'PDF']);
    expect(triple('今后，报销单都用Excel')).toEqual(['报销单', '格式', 'Excel']);
    expect(triple('往后组会都定在周三下午')).toEqual(['组会', '时间', '周三下午']);
    expect(triple('周例会改到 3 楼会议室了')).toEqual(['周例会', '地点', '3 楼会议室']);
    expect(triple('以后座位都选靠窗的')).toEqual(['座位', '偏好', '靠窗']);
    expect(triple('以后周报都发给王经理')).toEqual(['周报', '收件人', '王经理']);
    expect(triple('从现在起值班电话是分机 8001')).toEqual(['值班电话', '设定', '分机 8001']);
    expect(triple('Always book window seats.')).toEqual(['seat', 'preference', 'window']);
    expect(triple('From now on, use PDF for meeting notes')).toEqual(['meeting notes', 'format', 'PDF']);
    expect(triple('going forward send the invoices as xlsx')).toEqual(['invoices', 'format', 'xlsx']);
    expect(triple('The standup is now at 10:30')).toEqual(['standup', 'time', '10:30']);
    expect(triple('By the way, the team offsite moved to Hangzhou.')).toEqual([
      'team offsite',
      'place',
      'Hangzhou',
    ]);
    expect(triple('our retro moved to Friday afternoon')).toEqual(['retro', 'time', 'Friday afternoon']);
  });

  it('leaves other sentences alone', () => {
    for (const text of [
      '以后都用 pnpm 安装依赖',
      '以后，周报发给王经理',
      '部署完成以后告诉我',
      '记住：我的工号是 A-1024。',
      'Remember that the staging server is 10.0.0.5.',
      'I moved to Berlin',
      'I prefer window seats on long flights.',
      'it is now broken',
    ]) {
      expect(triple(text), text).toBeNull();
    }
  });

  it('reads only the user: an agent restating a rule states nothing', () => {
    const text = '以后会议纪要都用 Word';
    expect(standingFact(ev(text, { role: 'agent', kind: 'agent_reply' }), text)).toBeNull();
  });

  it('proposes a profile fact quoting the user verbatim, which validation accepts', () => {
    const events = [ev('好的。以后会议纪要都用 Word！谢谢'), ev('from now on book aisle seats')];
    const proposal = proposeHeuristically(events);
    const view = events.map((e, position) => ({ ...e, position, same_as: null }));
    const checked = validateProposal(view, proposal);
    expect(checked.ok ? [] : checked.issues).toEqual([]);
    const facts = proposal.memories.filter((m) => m.kind === 'fact');
    expect(facts).toEqual([
      expect.objectContaining({
        fact_kind: 'profile',
        subject: '会议纪要',
        predicate: '格式',
        object: 'Word',
        text: '以后会议纪要都用 Word！',
        quotes: [{ event_id: events[0]?.event_id, text: '以后会议纪要都用 Word！' }],
      }),
      expect.objectContaining({ subject: 'seat', predicate: 'preference', object: 'aisle' }),
    ]);
  });
});
