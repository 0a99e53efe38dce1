// Issue 13, the write guard (MNEMO_WRITE_GUARD_THRESHOLD): after N human turns that used a tool and wrote
// nothing to memory, the session's snapshot carries the static backlog notice until a write that adds
// something lands; sub-agent sessions never see it; the counter survives a restart (both engines).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { createClock, openStore, type InjectKit, type ReopenableStore } from '../../test/helpers/inject.js';
import { sqlRows } from '../../test/helpers/sql.js';
import type { SnapshotResult } from './snapshot-schema.js';
import { backlogNotice, foldEvent } from './write-guard.js';

const OWNER = 'user:guard';

describe('foldEvent', () => {
  const start = { scannedSeq: 0, turns: 0, inTurn: false, turnCounted: false, subAgent: false };
  const ev = (seq: number, kind: string, role: string, meta: unknown = null) => ({
    seq,
    kind,
    role,
    meta: meta === null ? null : JSON.stringify(meta),
  });

  it('counts a human turn once, however many tools it used, and a tool use before any turn not at all', () => {
    let s = foldEvent(start, ev(1, 'tool_result', 'tool'));
    expect(s.turns).toBe(0);
    for (const e of [
      ev(2, 'user_message', 'user'),
      ev(3, 'tool_result', 'tool'),
      ev(4, 'tool_result', 'tool'),
    ])
      s = foldEvent(s, e);
    expect([s.turns, s.scannedSeq]).toEqual([1, 4]);
    s = foldEvent(
      foldEvent(s, ev(5, 'user_message', 'user')),
      ev(6, 'agent_reply', 'agent', { tool_calls: [{}] }),
    );
    expect(s.turns).toBe(2);
  });

  it('does not count a goal’s or a plugin’s turn, nor a turn that only talked', () => {
    let s = start;
    for (const kind of ['goal', 'plugin']) {
      s = foldEvent(s, ev(1, 'user_message', 'user', { source: { kind } }));
      s = foldEvent(s, ev(2, 'tool_result', 'tool'));
    }
    s = foldEvent(foldEvent(s, ev(3, 'user_message', 'user')), ev(4, 'agent_reply', 'agent'));
    expect(s.turns).toBe(0);
  });

  it('marks a sub-agent’s session by agent, origin or parent_session_id', () => {
    for (const meta of [{ agent: 'sub' }, { origin: 'subagent' }, { parent_session_id: 'main-1' }])
      expect(foldEvent(start, ev(1, 'user_message', 'user', meta)).subAgent).toBe(true);
  });

  it('has a static notice naming only the threshold, in English and Chinese', () => {
    expect(backlogNotice(2)).toMatchInlineSnapshot(`
      "## ⚠️ Memory Write Backlog
      2 or more turns of this session used tools but wrote nothing to memory. If something worth keeping happened (a decision, a fix, a finding), record it now (memory.track.add, daily or project); never write filler.
      本会话已有 2 个或更多使用了工具的回合没有写入记忆。如有值得保留的内容（决定、修复、发现），请现在记下（memory.track.add，daily 或 project）；不要写凑数的条目。"
    `);
  });
});

describe.each(ENGINES)('the write guard on %s', (engine) => {
  let store: ReopenableStore;
  let kit: InjectKit;
  const clock = createClock();
  let seq = 0;
  const open = (threshold?: number) =>
    store.open({
      now: clock.now,
      ...(threshold === undefined ? {} : { config: { writeGuardThreshold: threshold } }),
    });
  beforeEach(async () => {
    store = await openStore(engine);
    kit = await open(2);
  });
  afterEach(() => store.close());

  const events = (session: string, kinds: string[], meta?: Record<string, unknown>) =>
    kit.client.call('memory.events.ingest', {
      owner: OWNER,
      events: kinds.map((kind) => {
        clock.advance(1_000);
        seq++;
        return {
          event_id: `e${seq}`,
          session_id: session,
          kind,
          role: kind === 'user_message' ? 'user' : kind === 'tool_result' ? 'tool' : 'agent',
          at: clock.now(),
          text: kind === 'user_message' ? `请修复第 ${seq} 个 bug` : `ran the tests (${seq})`,
          ...(meta ? { meta } : {}),
        };
      }),
    });
  const toolTurn = (session: string, meta?: Record<string, unknown>) =>
    events(session, ['user_message', 'tool_result', 'agent_reply'], meta);
  const backlog = async (session: string) => {
    const s = await kit.client.call<SnapshotResult>('memory.snapshot', { owner: OWNER, session_id: session });
    expect(s.text.includes('Memory Write Backlog')).toBe(s.backlog);
    return s.backlog;
  };
  const write = (session: string, text: string) =>
    kit.client.call<{ added: boolean }>('memory.track.add', {
      owner: OWNER,
      track: 'daily',
      text,
      session_id: session,
    });

  it('shows the notice after N tool turns without a write, until a write that adds something', async () => {
    await toolTurn('s1');
    expect(await backlog('s1')).toBe(false);
    await events('s1', ['user_message', 'agent_reply']);
    expect(await backlog('s1')).toBe(false);
    await toolTurn('s1');
    expect(await backlog('s1')).toBe(true);
    const notice = (
      await kit.client.call<SnapshotResult>('memory.snapshot', { owner: OWNER, session_id: 's1' })
    ).text;
    expect(notice.endsWith(`${backlogNotice(2)}\n`)).toBe(true);
    // Another session of the owner, and the same session without its id, see nothing.
    expect(await backlog('s2')).toBe(false);
    expect((await kit.client.call<SnapshotResult>('memory.snapshot', { owner: OWNER })).backlog).toBe(false);
    expect((await write('s1', '修好了登录页的 bug')).added).toBe(true);
    expect(await backlog('s1')).toBe(false);
    await toolTurn('s1');
    await toolTurn('s1');
    expect(await backlog('s1')).toBe(true);
    // The same text again adds nothing: the notice stays.
    expect((await write('s1', '修好了登录页的 bug')).added).toBe(false);
    expect(await backlog('s1')).toBe(true);
    // A write from another session settles only that one.
    await write('s9', 'Fixed the flaky test.');
    expect(await backlog('s1')).toBe(true);
  });

  it('settles on a new todo or chain object too, and counts the write’s own turn as done', async () => {
    await toolTurn('s1');
    await toolTurn('s1');
    expect(await backlog('s1')).toBe(true);
    await events('s1', ['user_message', 'tool_result']);
    await kit.client.call('memory.todo.add', {
      owner: OWNER,
      track: 'work',
      title: '发周报',
      session_id: 's1',
    });
    // The turn the write happened in does not count again for its later tool use.
    await events('s1', ['tool_result']);
    expect(await backlog('s1')).toBe(false);
    await toolTurn('s1');
    expect(await backlog('s1')).toBe(false);
    await toolTurn('s1');
    expect(await backlog('s1')).toBe(true);
    await kit.client.call('memory.chain.upsert', {
      owner: OWNER,
      objects: [{ type: 'project', name: 'Atlas' }],
      session_id: 's1',
    });
    expect(await backlog('s1')).toBe(false);
  });

  it('counts each turn once under concurrent snapshots, and loses no write among them', async () => {
    await toolTurn('s1');
    await toolTurn('s1');
    await toolTurn('s1');
    const all = await Promise.all(Array.from({ length: 6 }, () => backlog('s1')));
    expect(all).toEqual(all.map(() => true));
    const rows = await sqlRows<{ turns: number }>(kit.service.driver, 'SELECT turns FROM write_guards', []);
    expect(rows.map((r) => Number(r.turns))).toEqual([3]);
    // A write landing among snapshots is never undone by one that read the count before it.
    await Promise.all([backlog('s1'), write('s1', '并发时写入的记录'), backlog('s1'), backlog('s1')]);
    expect(await backlog('s1')).toBe(false);
  });

  it('never shows the notice to a sub-agent’s session', async () => {
    await events('sub1', ['user_message'], { parent_session_id: 's1' });
    for (let i = 0; i < 3; i++) await toolTurn('sub1');
    expect(await backlog('sub1')).toBe(false);
  });

  it('keeps the count across a restart, and a write’s reset too', async () => {
    await toolTurn('s1');
    expect(await backlog('s1')).toBe(false);
    await kit.close();
    kit = await open(2);
    await toolTurn('s1');
    expect(await backlog('s1')).toBe(true);
    await write('s1', 'Shipped the fix.');
    await kit.close();
    kit = await open(2);
    // The turns before the write are not counted again.
    expect(await backlog('s1')).toBe(false);
    const rows = await sqlRows<{ turns: number }>(
      kit.service.driver,
      'SELECT turns FROM write_guards WHERE owner = ? AND session_id = ?',
      [OWNER, 's1'],
    );
    expect(rows.map((r) => Number(r.turns))).toEqual([0]);
    await kit.client.call('memory.session.end', { owner: OWNER, session_id: 's1' });
    expect(await sqlRows(kit.service.driver, 'SELECT owner FROM write_guards', [])).toEqual([]);
  });

  it('is off without MNEMO_WRITE_GUARD_THRESHOLD: nothing counted, nothing shown', async () => {
    await kit.close();
    kit = await open();
    for (let i = 0; i < 3; i++) await toolTurn('s1');
    expect(await backlog('s1')).toBe(false);
    await write('s1', 'a note');
    expect(await sqlRows(kit.service.driver, 'SELECT owner FROM write_guards', [])).toEqual([]);
  });
});
