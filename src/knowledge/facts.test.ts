// Issue 10, facts over time: duplicates, supersession by time, origin rank, conflict sets, origin.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryError } from '../errors.js';
import type { ProposalInput } from '../observe/schema.js';
import { ENGINES } from '../../test/helpers/engines.js';
import { at, openFactsFixture, said, type FactsFixture } from '../../test/helpers/facts.js';
import { sqlRows } from '../../test/helpers/sql.js';

type MemoryInput = ProposalInput['memories'][number];
const OWNER = 'user:lin';

/** 会议纪要 · 格式 · object, cited from `sources`. */
const format = (object: string, sources: string[], extra: Partial<MemoryInput> = {}): MemoryInput => ({
  kind: 'fact',
  fact_kind: 'project',
  subject: '会议纪要',
  predicate: '格式',
  object,
  text: `会议纪要用 ${object}`,
  sources,
  ...extra,
});

describe.each(ENGINES)('facts over time on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  const byObject = async () => new Map((await f.rows(OWNER)).map((r) => [r.object, r]));
  const history = (subject = '会议纪要', predicate = '格式') =>
    f.client.call<{ versions: Array<Record<string, unknown>> }>('memory.facts.history', {
      owner: OWNER,
      subject,
      predicate,
    });

  describe('duplicates', () => {
    it('a restated preference adds its sources to the stored one; the receipt names it / 重复偏好合并', async () => {
      const quote = (id: string, text: string) => [{ event_id: id, text }];
      const first = await f.publish(
        OWNER,
        [said('I prefer aisle seats.', '2026-11-16 10:00', { event_id: 'p1' })],
        [
          {
            kind: 'preference',
            text: 'Prefers aisle seats.',
            sources: ['p1'],
            quotes: quote('p1', 'aisle seats'),
          },
        ],
      );
      const second = await f.publish(
        OWNER,
        [said('I prefer AISLE seats', '2026-11-17 10:00', { event_id: 'p2' })],
        [
          {
            kind: 'preference',
            text: 'prefers  AISLE seats',
            sources: ['p2'],
            quotes: quote('p2', 'AISLE seats'),
          },
        ],
      );
      const third = await f.publish(
        OWNER,
        [said('以后会议纪要都用 Word。', '2026-11-17 11:00', { event_id: 'p3' })],
        [
          {
            kind: 'preference',
            text: '以后会议纪要都用 Word。',
            sources: ['p3'],
            quotes: quote('p3', 'Word'),
          },
          { kind: 'preference', text: '以后会议纪要都用 word', sources: ['p3'], quotes: quote('p3', 'Word') },
          { kind: 'episode', text: '以后会议纪要都用 Word', sources: ['p3'] },
        ],
      );
      const rows = await f.rows(OWNER);
      expect(rows.map((r) => r.kind).sort()).toEqual(['episode', 'preference', 'preference']);
      expect(second.memory_ids).toEqual(first.memory_ids);
      expect(third.memory_ids[1]).toBe(third.memory_ids[0]);
      expect(await f.sources(OWNER, first.memory_ids[0] ?? '')).toEqual(['p1', 'p2']);
      const docs = await sqlRows(f.service.driver, "SELECT ref FROM search_docs WHERE kind != 'event'");
      expect(docs).toHaveLength(3);
    });

    it('a fact with the same subject, predicate and value is the same fact, whatever its text', async () => {
      const first = await f.publish(
        OWNER,
        [said('会议纪要用 Word', '2026-11-16 10:00', { event_id: 'd1' })],
        [format('Word', ['d1'])],
      );
      const second = await f.publish(
        OWNER,
        [said('纪要格式：word', '2026-11-17 10:00', { event_id: 'd2' })],
        [format('word', ['d2'], { text: '纪要格式是 word', subject: ' 会议纪要 ' })],
      );
      expect(second.memory_ids).toEqual(first.memory_ids);
      const [row] = await f.rows(OWNER);
      expect(row).toMatchObject({
        text: '会议纪要用 Word',
        valid_from: at('2026-11-16 10:00'),
        valid_to: null,
      });
      expect(await f.sources(OWNER, row?.memory_id ?? '')).toEqual(['d1', 'd2']);
    });
  });

  describe('supersession by time', () => {
    it('a newer value supersedes the older one, which keeps its text and sources / 新值取代旧值', async () => {
      await f.publish(
        OWNER,
        [said('会议纪要用 Word', '2026-11-16 10:00', { event_id: 'w1' })],
        [format('Word', ['w1'])],
      );
      await f.publish(
        OWNER,
        [said('会议纪要改用 PDF', '2026-11-18 10:00', { event_id: 'w2' })],
        [format('PDF', ['w2'])],
      );
      const rows = await byObject();
      expect(rows.get('Word')).toMatchObject({
        lifecycle: 'superseded',
        status: 'deprecated',
        text: '会议纪要用 Word',
        valid_from: at('2026-11-16 10:00'),
        valid_to: at('2026-11-18 10:00'),
      });
      expect(rows.get('PDF')).toMatchObject({ lifecycle: 'candidate', status: 'candidate', valid_to: null });
      expect(await f.sources(OWNER, rows.get('Word')?.memory_id ?? '')).toEqual(['w1']);
      const { versions } = await history(' 会议纪要', '格式 ');
      expect(versions.map((v) => [v.value, v.status, v.current])).toEqual([
        ['Word', 'superseded', false],
        ['PDF', 'candidate', true],
      ]);
      expect(versions[0]).toMatchObject({
        valid_from: '2026-11-16T02:00:00.000Z',
        valid_to: '2026-11-18T02:00:00.000Z',
        sources: ['w1'],
        origin: 'user',
        conflict_id: null,
      });
    });

    it('is decided by time, not by the order of observation', async () => {
      await f.publish(
        OWNER,
        [said('纪要改用 PDF', '2026-11-18 10:00', { event_id: 'l2' })],
        [format('PDF', ['l2'])],
      );
      await f.publish(
        OWNER,
        [said('纪要用 Word', '2026-11-16 10:00', { event_id: 'l1' })],
        [format('Word', ['l1'])],
      );
      const rows = await byObject();
      expect(rows.get('Word')).toMatchObject({ lifecycle: 'superseded', valid_to: at('2026-11-18 10:00') });
      expect(rows.get('PDF')).toMatchObject({ lifecycle: 'candidate', valid_to: null });
    });

    it('a value said again after a change is a new version: Word, PDF, Word', async () => {
      await f.publish(
        OWNER,
        [said('用 Word', '2026-11-16 10:00', { event_id: 'r1' })],
        [format('Word', ['r1'])],
      );
      await f.publish(
        OWNER,
        [said('用 PDF', '2026-11-17 10:00', { event_id: 'r2' })],
        [format('PDF', ['r2'])],
      );
      await f.publish(
        OWNER,
        [said('还是用 Word', '2026-11-18 10:00', { event_id: 'r3' })],
        [format('Word', ['r3'])],
      );
      const { versions } = await history();
      expect(versions.map((v) => [v.value, v.status, v.sources])).toEqual([
        ['Word', 'superseded', ['r1']],
        ['PDF', 'superseded', ['r2']],
        ['Word', 'candidate', ['r3']],
      ]);
    });

    it("an agent's newer value does not supersede the user's; a newer user statement closes both", async () => {
      await f.publish(
        OWNER,
        [said('纪要用 Word', '2026-11-16 10:00', { event_id: 'o1' })],
        [format('Word', ['o1'])],
      );
      const reply = said('I will send the notes as Excel.', '2026-11-17 10:00', {
        event_id: 'o2',
        kind: 'agent_reply',
        role: 'agent',
      });
      await f.publish(OWNER, [reply], [format('Excel', ['o2'])]);
      let rows = await byObject();
      expect(rows.get('Word')).toMatchObject({ lifecycle: 'candidate', valid_to: null, origin: 'user' });
      expect(rows.get('Excel')).toMatchObject({ lifecycle: 'candidate', valid_to: null, origin: 'agent' });
      await f.publish(
        OWNER,
        [said('纪要改用 PDF', '2026-11-18 10:00', { event_id: 'o3' })],
        [format('PDF', ['o3'])],
      );
      rows = await byObject();
      expect(rows.get('Word')).toMatchObject({ lifecycle: 'superseded', valid_to: at('2026-11-18 10:00') });
      expect(rows.get('Excel')).toMatchObject({ lifecycle: 'superseded', valid_to: at('2026-11-18 10:00') });
      expect(rows.get('PDF')).toMatchObject({ lifecycle: 'candidate', valid_to: null });
    });
  });

  describe('conflict sets', () => {
    const twoAtOnce = () =>
      f.publish(
        OWNER,
        [
          said('纪要用 Word', '2026-11-16 10:00', { event_id: 'c1' }),
          said('No, the notes are PDF', '2026-11-16 10:00', { event_id: 'c2', session_id: 'other' }),
        ],
        [format('Word', ['c1']), format('PDF', ['c2'])],
      );

    it('same minute, different sources: one conflict set, neither current over the other / 冲突集合', async () => {
      await twoAtOnce();
      const rows = await byObject();
      const id = rows.get('Word')?.conflict_id;
      expect(id).toMatch(/^cf_/);
      expect(rows.get('PDF')).toMatchObject({ conflict_id: id, lifecycle: 'candidate', valid_to: null });
      expect(rows.get('Word')).toMatchObject({ lifecycle: 'candidate', valid_to: null });
      const { versions } = await history();
      expect(versions.map((v) => [v.value, v.current, v.conflict_id])).toEqual(
        expect.arrayContaining([
          ['Word', true, id],
          ['PDF', true, id],
        ]),
      );
    });

    it('memory.facts.resolve keeps one current and supersedes the others, and the choice holds', async () => {
      await twoAtOnce();
      const before = await byObject();
      const conflictId = before.get('Word')?.conflict_id ?? '';
      const pdf = before.get('PDF')?.memory_id ?? '';
      const word = before.get('Word')?.memory_id ?? '';
      const resolved = await f.client.call('memory.facts.resolve', {
        owner: OWNER,
        conflict_id: conflictId,
        keep: pdf,
      });
      expect(resolved).toEqual({ conflict_id: conflictId, kept: pdf, superseded: [word] });
      const check = async () => {
        const rows = await byObject();
        expect(rows.get('Word')).toMatchObject({ lifecycle: 'superseded', valid_to: at('2026-11-16 10:00') });
        expect(rows.get('PDF')).toMatchObject({
          lifecycle: 'candidate',
          valid_to: null,
          conflict_id: conflictId,
        });
      };
      await check();
      // The key is placed again when the kept value is restated: the resolution still holds.
      await f.publish(
        OWNER,
        [said('PDF, yes', '2026-11-16 10:00', { event_id: 'c3' })],
        [format('PDF', ['c3'])],
      );
      await check();
      await expect(
        f.client.call('memory.facts.resolve', { owner: OWNER, conflict_id: conflictId, keep: 'mem_other' }),
      ).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
      await expect(
        f.client.call('memory.facts.resolve', { owner: OWNER, conflict_id: 'cf_none', keep: pdf }),
      ).rejects.toBeInstanceOf(MemoryError);
      await expect(
        f.client.call('memory.facts.resolve', { owner: 'user:other', conflict_id: conflictId, keep: pdf }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('one statement naming two values is no conflict', async () => {
      await f.publish(
        OWNER,
        [said('纪要用 Word 和 PDF 各一份', '2026-11-16 10:00', { event_id: 'm1' })],
        [format('Word', ['m1']), format('PDF', ['m1'])],
      );
      const rows = await f.rows(OWNER);
      expect(rows.map((r) => [r.lifecycle, r.valid_to, r.conflict_id])).toEqual([
        ['candidate', null, null],
        ['candidate', null, null],
      ]);
    });
  });

  it('takes the origin from the source events’ roles / 来源角色', async () => {
    const ids = await f.publish(
      OWNER,
      [
        said('纪要用 Word', '2026-11-16 10:00', { event_id: 'g1' }),
        said('Saved as notes.docx', '2026-11-16 10:01', {
          event_id: 'g2',
          kind: 'tool_result',
          role: 'tool',
        }),
        said('Noted.', '2026-11-16 10:02', { event_id: 'g3', kind: 'agent_reply', role: 'agent' }),
        said('workspace policy: notes in Word', '2026-11-16 10:03', {
          event_id: 'g4',
          kind: 'note',
          role: 'system',
        }),
      ],
      [
        { kind: 'episode', text: 'user said Word', sources: ['g1', 'g3'] },
        { kind: 'episode', text: 'a tool saved', sources: ['g2'] },
        { kind: 'episode', text: 'the agent noted', sources: ['g3', 'g2'] },
        { kind: 'episode', text: 'the host wrote', sources: ['g4', 'g3'] },
      ],
    );
    const rows = new Map((await f.rows(OWNER)).map((r) => [r.memory_id, r.origin]));
    expect(ids.memory_ids.map((id) => rows.get(id))).toEqual(['user', 'tool', 'agent', 'host']);
  });
});
