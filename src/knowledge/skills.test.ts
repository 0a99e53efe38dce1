// Issue 10, procedures and skills: stages from evidence (two sessions validate), drafts the user taught, risk
// and the user's explicit approval to activate, checklists rather than instructions, and confidence from the
// tool and task results that follow a procedure.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventInput } from '../index.js';
import type { ProposalInput } from '../observe/schema.js';
import { recordOutcomes } from './skill-evidence.js';
import { noteRecalledProcedures } from './skill-status.js';
import { ENGINES } from '../../test/helpers/engines.js';
import { errorOf } from '../../test/helpers/errors.js';
import { at, openFactsFixture, said, type FactsFixture } from '../../test/helpers/facts.js';

type MemoryInput = ProposalInput['memories'][number];
const OWNER = 'user:lin';

interface Skill {
  id: string;
  text: string;
  status: string;
  risk: string;
  confidence: number;
  sessions: number;
  approved_by: string | null;
  approved_event: string | null;
  note: string;
  checklist: string[];
  preconditions: string[];
  checks: string[];
  risk_reasons: string[];
  evidence: Array<{ event_id: string; outcome: string; via: string; session_id: string | null }>;
}

const tool = (
  text: string,
  local: string,
  id: string,
  session: string,
  kind = 'tool_result',
): EventInput => ({
  ...said(text, local, { event_id: id, session_id: session }),
  kind: kind as EventInput['kind'],
  role: kind === 'tool_result' ? 'tool' : 'agent',
});

const procedure = (sources: string[], extra: Partial<MemoryInput> = {}): MemoryInput => ({
  kind: 'procedure',
  text: 'Release the docs site',
  steps: ['Run npm test in the docs folder', 'Run npm run build for the docs site'],
  preconditions: ['The docs branch is merged'],
  checks: ['The build folder holds index.html'],
  risk: 'low',
  sources,
  ...extra,
});

describe.each(ENGINES)('skills on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  const get = (id: string) => f.client.call<Skill>('memory.skill.get', { owner: OWNER, id });
  const setStatus = (id: string, status: string, event_id?: string) =>
    f.client.call<{ status: string; approved_by: string; approved_event: string | null }>(
      'memory.skill.set_status',
      { owner: OWNER, id, status, approved_by: '林晓', ...(event_id ? { event_id } : {}) },
    );
  /** Publishes the procedure from these events; answers its id. */
  const learn = async (events: EventInput[], m: MemoryInput) =>
    (await f.publish(OWNER, events, [m])).memory_ids[0] ?? '';
  const outcomes = (events: EventInput[]) => f.publish(OWNER, events, []);

  it('observed once, a candidate when seen again, validated by evidence from two separate sessions', async () => {
    const first = [
      said('How do we release the docs?', '2026-11-16 10:00', { event_id: 'a1', session_id: 's1' }),
      tool('npm test ok; npm run build ok', '2026-11-16 10:05', 'a2', 's1'),
    ];
    const id = await learn(first, procedure(['a1', 'a2']));
    expect(await get(id)).toMatchObject({ status: 'observed', sessions: 1, confidence: 0.5 });
    const again = [tool('docs released the same way', '2026-11-16 11:00', 'a3', 's1')];
    expect(await learn(again, procedure(['a3']))).toBe(id);
    expect(await get(id)).toMatchObject({ status: 'candidate', sessions: 1 });
    const other = [tool('released the docs again', '2026-11-17 10:00', 'b1', 's2')];
    expect(await learn(other, procedure(['b1']))).toBe(id);
    expect(await get(id)).toMatchObject({ status: 'validated', sessions: 2 });
    const listed = await f.client.call<{ items: Skill[] }>('memory.skill.list', {
      owner: OWNER,
      status: 'validated',
    });
    expect(listed.items.map((s) => s.id)).toEqual([id]);
  });

  it('invariant: a skill the user taught is a draft until the user enables it', async () => {
    const taught = [
      said('以后周报这样写：先列本周完成，再列下周计划。', '2026-11-16 10:00', {
        event_id: 't1',
        session_id: 's1',
      }),
    ];
    const id = await learn(
      taught,
      procedure(['t1'], {
        text: '周报写法',
        steps: ['先列本周完成', '再列下周计划'],
        preconditions: [],
        checks: [],
      }),
    );
    expect((await get(id)).status).toBe('draft');
    expect((await errorOf(setStatus(id, 'active'))).code).toBe('APPROVAL_REQUIRED');
    await f.ingest(OWNER, [
      { ...said('我会按这个写', '2026-11-16 10:01', { event_id: 'r1' }), kind: 'agent_reply', role: 'agent' },
      said('好的，启用这个周报流程', '2026-11-16 10:02', { event_id: 'ok1' }),
    ]);
    expect((await errorOf(setStatus(id, 'active', 'r1'))).code).toBe('APPROVAL_REQUIRED');
    expect(await setStatus(id, 'active', 'ok1')).toMatchObject({
      status: 'active',
      approved_by: '林晓',
      approved_event: 'ok1',
    });
    expect((await get(id)).status).toBe('active');
  });

  it("invariant: activating needs the user's approval when high risk (English and Chinese) or unvalidated", async () => {
    const sessions = (p: string) => [
      said('how do we ship it?', '2026-11-16 10:00', { event_id: `${p}1`, session_id: `${p}-a` }),
      tool('shipped', '2026-11-17 10:00', `${p}2`, `${p}-b`),
    ];
    const zh = await learn(
      sessions('z'),
      procedure(['z1', 'z2'], { text: '上线流程', steps: ['跑完单元测试', '部署到生产环境'], risk: 'low' }),
    );
    const en = await learn(
      sessions('e'),
      procedure(['e1', 'e2'], {
        text: 'Clean up',
        steps: ['Open the bucket', 'Delete last month’s exports'],
      }),
    );
    const safe = await learn(sessions('s'), procedure(['s1', 's2']));
    expect(await get(zh)).toMatchObject({ status: 'validated', risk: 'high', risk_reasons: ['deployment'] });
    expect(await get(en)).toMatchObject({ risk: 'high', risk_reasons: ['deletion'] });
    await f.ingest(OWNER, [
      said('可以部署吗？', '2026-11-18 09:00', { event_id: 'q1' }),
      said('No, do not delete anything yet', '2026-11-18 09:01', { event_id: 'no1' }),
      said('同意，上线流程可以启用', '2026-11-18 09:02', { event_id: 'yes1' }),
      said('Yes, approved: enable the clean-up checklist', '2026-11-18 09:03', { event_id: 'yes2' }),
    ]);
    for (const [id, event] of [
      [zh, undefined],
      [zh, 'q1'],
      [en, 'no1'],
      [en, 'missing-event'],
    ] as const) {
      const error = await errorOf(setStatus(id, 'active', event));
      expect([id, event, error.code]).toEqual([
        id,
        event,
        event === 'missing-event' ? 'NOT_FOUND' : 'APPROVAL_REQUIRED',
      ]);
    }
    expect((await get(zh)).status).toBe('validated');
    expect(await setStatus(zh, 'active', 'yes1')).toMatchObject({ status: 'active', approved_event: 'yes1' });
    expect(await setStatus(en, 'active', 'yes2')).toMatchObject({ status: 'active' });
    // A validated low-risk procedure needs no user event; an unvalidated one does.
    expect(await setStatus(safe, 'active')).toMatchObject({ status: 'active', approved_event: null });
    const once = await learn(
      [
        said('restart the dev server like this', '2026-11-18 10:00', { event_id: 'o1', session_id: 's9' }),
        tool('ok', '2026-11-18 10:01', 'o2', 's9'),
      ],
      procedure(['o1', 'o2'], {
        text: 'Restart the dev server',
        steps: ['Stop the dev server', 'Start the dev server'],
      }),
    );
    expect((await errorOf(setStatus(once, 'active'))).code).toBe('APPROVAL_REQUIRED');
    expect(await setStatus(once, 'deprecated')).toMatchObject({ status: 'deprecated' });
  });

  it('invariant: comes back as a checklist with a note, never as instructions', async () => {
    const id = await learn(
      [said('the release', '2026-11-16 10:00', { event_id: 'c1', session_id: 's1' })],
      procedure(['c1'], {
        steps: [
          'You must run npm test first',
          '请务必先备份数据库',
          'Delete the old build folder',
          '把周报发给产品组',
        ],
        preconditions: ['please check the branch is green'],
        checks: ['一定要确认首页能打开'],
      }),
    );
    const skill = await get(id);
    expect(skill.checklist).toEqual([
      '☐ Run npm test first',
      '☐ 先备份数据库',
      '☐ Delete the old build folder — ⚠ ask the user first (deletion)',
      '☐ 把周报发给产品组 — ⚠ 先征得用户同意（发送）',
    ]);
    expect(skill.preconditions).toEqual(['☐ Check the branch is green']);
    expect(skill.checks).toEqual(['☐ 确认首页能打开']);
    expect(skill.note).toMatch(/checklist/i);
    expect(skill.note).toMatch(/not an instruction/i);
    expect(skill).toMatchObject({ risk: 'high', risk_reasons: ['deletion', 'sending'] });
  });

  it('invariant: confidence from later results: success raises, failure lowers, with the evidence listed', async () => {
    const id = await learn(
      [
        said('release the docs', '2026-11-16 10:00', { event_id: 'd1', session_id: 's1' }),
        tool('npm test in the docs folder failed: 2 errors', '2026-11-16 10:01', 'd2', 's1'),
      ],
      procedure(['d1', 'd2']),
    );
    // Its own source, though a failure, is no evidence; an unrelated result in another session neither.
    expect((await get(id)).evidence).toEqual([]);
    await outcomes([tool('weather: sunny, 21°C', '2026-11-17 09:00', 'x1', 's3')]);
    expect((await get(id)).evidence).toEqual([]);
    // A result naming its steps is a success: confidence rises, and the session vouches for it.
    await outcomes([
      tool(
        'ran npm test in the docs folder: 42 passed, 0 failed; npm run build for the docs site done',
        '2026-11-17 10:00',
        'ok1',
        's3',
      ),
    ]);
    expect(await get(id)).toMatchObject({ confidence: 0.667, sessions: 2, status: 'validated' });
    // A session that follows it: its failed task lowers confidence, whatever its text.
    f.clock.set(at('2026-11-18 09:00'));
    await f.client.call('memory.skill.follow', { owner: OWNER, id, session_id: 's4' });
    await outcomes([tool('the task was abandoned', '2026-11-18 10:00', 'bad1', 's4', 'task_failed')]);
    const skill = await get(id);
    expect(skill.confidence).toBe(0.5);
    expect(skill.evidence).toEqual([
      { event_id: 'ok1', session_id: 's3', outcome: 'success', via: 'steps', at: expect.any(String) },
      { event_id: 'bad1', session_id: 's4', outcome: 'failure', via: 'followed', at: expect.any(String) },
    ]);
    // 中文结果同样计入：失败降低信心。
    await f.client.call('memory.skill.follow', { owner: OWNER, id, session_id: 's5' });
    await outcomes([tool('构建报错：找不到模块', '2026-11-18 11:00', 'zh1', 's5')]);
    expect((await get(id)).confidence).toBe(0.4);
    // An event counts once, however often it is seen.
    const again = {
      event_id: 'zh1',
      kind: 'tool_result',
      at: at('2026-11-18 11:00'),
      text: '构建报错',
      session_id: 's5',
    };
    const ctx = { timeZone: 'Asia/Shanghai', now: f.clock.now() };
    expect(await f.service.driver.transaction((tx) => recordOutcomes(tx, OWNER, [again], ctx))).toBe(0);
    expect((await get(id)).evidence).toHaveLength(3);
    // Recalled in a session (recall's hook): that session's results count as if it followed the procedure.
    const marked = await noteRecalledProcedures(
      f.service.driver,
      OWNER,
      's6',
      [id, 'mem_x', id],
      f.clock.now(),
    );
    expect(marked).toEqual([id]);
    await outcomes([tool('done', '2026-11-18 12:00', 'rc1', 's6', 'task_result')]);
    expect((await get(id)).evidence.at(-1)).toMatchObject({
      event_id: 'rc1',
      outcome: 'success',
      via: 'followed',
    });
    expect(
      await errorOf(f.client.call('memory.skill.follow', { owner: OWNER, id: 'mem_x', session_id: 's' })),
    ).toMatchObject({ code: 'NOT_FOUND' });
  });
});
