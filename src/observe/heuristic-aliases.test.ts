// The explicit name forms the heuristic observer recognises, with look-alikes it must leave alone; every
// proposal it makes passes validation (verbatim quotes, refs that resolve).
import { describe, expect, it } from 'vitest';
import { proposeHeuristically } from './heuristic.js';
import { proposeAliases } from './heuristic-aliases.js';
import type { BatchEvent } from './schema.js';
import { validateProposal } from './validate.js';

let n = 0;
const ev = (text: string, extra: Partial<BatchEvent> = {}): BatchEvent => ({
  event_id: `e${++n}`,
  kind: 'user_message',
  role: 'user',
  at: '2026-11-02T09:00:00.000Z',
  text,
  session_id: 's1',
  task_id: null,
  ...extra,
});

/** Each proposed person as [name, aliases, body]; the self object left out. */
const persons = (text: string) =>
  (proposeAliases([ev(text)]).objects ?? [])
    .filter((o) => o.ref !== 'self')
    .map((o) => [o.name, o.aliases ?? [], o.body ?? null]);

describe('proposeAliases', () => {
  it('reads a parenthesised alias after a name, in full-width and ASCII brackets, Chinese and English', () => {
    expect(persons('李卫东（老李）下周回来')).toEqual([['李卫东', ['老李'], null]]);
    expect(persons('我和李卫东(老李)去吃饭')).toEqual([['李卫东', ['老李'], null]]);
    expect(persons('王总（王建国）明天到')).toEqual([['王建国', ['王总'], null]]);
    expect(persons('微信已发送给 老周（周屹）：今晚家长会')).toEqual([['周屹', ['老周'], null]]);
    expect(persons('Meet Tony (唐志远), our tech lead')).toEqual([['Tony', ['唐志远'], null]]);
    expect(persons('唐志远（Tony）负责排班')).toEqual([['唐志远', ['Tony'], null]]);
  });

  it('reads X就是Y as Y with the alias X', () => {
    expect(persons('其实老李就是李卫东')).toEqual([['李卫东', ['老李'], null]]);
    expect(persons('老李也就是李卫东吧，别搞混了')).toEqual([['李卫东', ['老李'], null]]);
    expect(persons('Kevin 就是黄启航')).toEqual([['黄启航', ['Kevin'], null]]);
  });

  it('reads a relative and their name as a person with the kin word as alias, related to the user', () => {
    const spouse = proposeAliases([ev('我爱人林晓明天来')]);
    expect(spouse.objects?.map((o) => [o.ref, o.name, o.aliases ?? []])).toEqual([
      ['self', '我', []],
      ['p0', '林晓', ['我爱人']],
    ]);
    expect(spouse.relations).toEqual([
      { from: 'self', to: 'p0', type: 'spouse', sources: [expect.any(String)] },
    ]);
    expect(persons('我老公周屹说周末去爬山')).toEqual([['周屹', ['我老公'], null]]);
    expect(persons('我妈王淑芬下周来杭州')).toEqual([['王淑芬', ['我妈'], null]]);
    expect(proposeAliases([ev('我爸林建华的复查改到周五')]).relations?.[0]?.type).toBe('father');
    expect(persons('my wife Sarah Lee is coming too')).toEqual([['Sarah Lee', ['my wife'], null]]);
  });

  it('reads <name>是<role> as a person with that role', () => {
    expect(persons('小赵是行政，负责报销')).toEqual([['小赵', [], '小赵是行政']]);
    expect(persons('我们公司的张磊是财务')).toEqual([['张磊', [], '张磊是财务']]);
    expect(persons('Kevin是技术负责人')).toEqual([['Kevin', [], 'Kevin是技术负责人']]);
    expect(persons('孙莉是测试组长。')).toEqual([['孙莉', [], '孙莉是测试组长']]);
  });

  it('leaves times, counts, places, pronouns and other words alone', () => {
    for (const text of [
      '会议（下午3点）开始',
      '报销单（3张）已交',
      '周报（周五）要发',
      '全季酒店（1 晚）',
      '陈女士（宁波）的包裹',
      '林晓峰（龙坞）发货',
      '项目（潮汐）延期',
      'Singapore (SG) office',
      '我妈说周末回来',
      '我爸爸血糖高',
      '我爱人民币',
      '他是医生',
      '这个是财务',
      '王府井是个好地方',
      '方案是经理定的',
      '这就是我想要的',
    ]) {
      expect(proposeAliases([ev(text)]), text).toEqual({});
    }
  });

  it('reads the user’s words and tool output, never the agent’s', () => {
    expect(proposeAliases([ev('李卫东（老李）到了', { role: 'agent', kind: 'agent_reply' })])).toEqual({});
    expect(
      proposeAliases([ev('出席：茶里茶外钱明总、孟佳', { role: 'agent', kind: 'agent_reply' })]),
    ).toEqual({});
    const tool = proposeAliases([
      ev('微信已发送给 婆婆（许美娟）：辛苦您了', { role: 'tool', kind: 'tool_result' }),
    ]);
    expect(tool.objects?.map((o) => [o.name, o.aliases ?? []])).toEqual([
      ['我', []],
      ['许美娟', ['我婆婆']],
    ]);
    expect(tool.relations?.map((r) => r.type)).toEqual(['mother_in_law']);
  });

  it('reads a relative’s contact entry, a title beside a full name and names side by side', () => {
    expect(persons('微信已发送给 妈（王淑芬）：爸的手术改了')).toEqual([['王淑芬', ['我妈'], null]]);
    expect(persons('我婆婆（许美娟）下午来接')).toEqual([['许美娟', ['我婆婆'], null]]);
    expect(persons('出席：茶里茶外钱明总、孟佳和你')).toEqual([['钱明', ['钱总'], null]]);
    expect(persons('钱明总那边同意了')).toEqual([['钱明', ['钱总'], null]]);
    expect(persons('3. 陈薇 Vivian <vivian.chen@example.com>')).toEqual([['陈薇', ['Vivian'], null]]);
    expect(persons('Meet Tony 唐志远, our tech lead')).toEqual([['唐志远', ['Tony'], null]]);
    expect(persons('李卫东，大家都叫他老李')).toEqual([['李卫东', ['老李'], null]]);
    expect(persons('唐志远，英文名叫 Tony')).toEqual([['唐志远', ['Tony'], null]]);
    expect(persons('老郑即郑伟')).toEqual([['郑伟', ['老郑'], null]]);
  });

  it('never makes a person of a pronoun, a common word, a kin word alone or a mail header (common words)', () => {
    for (const text of [
      '我回去跟我妈商量。',
      '跟我妈商量好了，晶体用进口的',
      '我妈高兴坏了',
      '他妈（王淑芬）',
      '妈（下午）来电',
      '邮件已发送：To 郑伟，Cc 黄启航',
      'From 陈薇 Re 周报',
      '安排 Kevin 去开会',
      '王明就是王刚推荐的',
      '李明总是迟到',
      '我们总结一下',
      '方便的话（明天）回个电话',
      'my wife said so',
    ]) {
      expect(proposeAliases([ev(text, { role: 'tool', kind: 'tool_result' })]), text).toEqual({});
      expect(proposeAliases([ev(text)]), text).toEqual({});
    }
  });
});

describe('the heuristic observer with alias forms', () => {
  it('proposes objects and relations that pass validation, quoting the event verbatim', () => {
    const events = [ev('李卫东（老李）下周回来'), ev('我爱人林晓说周末去爬山'), ev('今天天气不错')];
    const proposal = proposeHeuristically(events);
    const view = events.map((e, position) => ({
      position,
      event_id: e.event_id,
      role: e.role,
      text: e.text,
      same_as: null,
    }));
    const result = validateProposal(view, proposal);
    expect(result.ok ? [] : result.issues).toEqual([]);
    expect(result.ok && result.value.objects?.map((o) => o.name)).toEqual(['我', '李卫东', '林晓']);
    expect(result.ok && result.value.relations?.map((r) => r.type)).toEqual(['spouse']);
    expect(proposeHeuristically([ev('今天天气不错')])).not.toHaveProperty('objects');
  });
});
