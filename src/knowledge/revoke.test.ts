// Issue 10: memory.revoke withdraws a memory of any kind; a revoked fact gives its place back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fake } from '../../test/fixtures/redaction/corpus.js';
import { ENGINES } from '../../test/helpers/engines.js';
import { at, openFactsFixture, said, type FactsFixture } from '../../test/helpers/facts.js';
import { memoryVisibility, visibleMemory } from './visibility.js';

const OWNER = 'user:wu';

describe.each(ENGINES)('memory.revoke on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  const fact = (object: string, source: string) => ({
    kind: 'fact',
    fact_kind: 'project' as const,
    subject: '羽毛球课',
    predicate: '时间',
    object,
    text: `羽毛球课在${object}`,
    sources: [source],
  });
  const revoke = (id: string, reason: string) =>
    f.client.call<Record<string, unknown>>('memory.revoke', { owner: OWNER, id, reason });

  it('revokes a fact with its reason; the version it had superseded is current again / 撤销', async () => {
    const [saturday] = (
      await f.publish(
        OWNER,
        [said('羽毛球课改到周六', '2026-11-16 10:00', { event_id: 'b1' })],
        [fact('周六', 'b1')],
      )
    ).memory_ids;
    const [sunday] = (
      await f.publish(
        OWNER,
        [said('羽毛球课改到周日', '2026-11-17 10:00', { event_id: 'b2' })],
        [fact('周日', 'b2')],
      )
    ).memory_ids;
    f.clock.set(at('2026-11-17 12:00'));
    expect(await revoke(sunday ?? '', '说错了，还是周六')).toEqual({
      id: sunday,
      kind: 'fact',
      status: 'revoked',
      reason: '说错了，还是周六',
      revoked_at: '2026-11-17T04:00:00.000Z',
    });
    const rows = new Map((await f.rows(OWNER)).map((r) => [r.memory_id, r]));
    expect(rows.get(sunday ?? '')).toMatchObject({
      lifecycle: 'revoked',
      status: 'revoked',
      revoked_reason: '说错了，还是周六',
      text: '羽毛球课在周日',
    });
    expect(rows.get(saturday ?? '')).toMatchObject({ lifecycle: 'candidate', valid_to: null });
    const seen = await memoryVisibility(f.service.driver, OWNER, [saturday ?? '', sunday ?? '']);
    const visible = (id = '', options = {}) => {
      const row = seen.get(id);
      if (!row) throw new Error(`no memory ${id}`);
      return visibleMemory(row, options);
    };
    expect(visible(sunday)).toBe(false);
    expect(visible(sunday, { includeSuperseded: true })).toBe(false);
    expect(visible(sunday, { asOf: at('2026-11-17 11:00') })).toBe(false);
    expect(visible(saturday)).toBe(true);
    const { versions } = await f.client.call<{ versions: Array<{ value: string; status: string }> }>(
      'memory.facts.history',
      { owner: OWNER, subject: '羽毛球课', predicate: '时间' },
    );
    expect(versions.map((v) => [v.value, v.status])).toEqual([
      ['周六', 'candidate'],
      ['周日', 'revoked'],
    ]);
  });

  it('revokes any kind, keeps the first reason, redacts the reason, answers NOT_FOUND otherwise', async () => {
    const [episode] = (
      await f.publish(
        OWNER,
        [said('deploy done', '2026-11-16 10:00', { event_id: 'e1' })],
        [{ kind: 'episode', text: 'deployed the site', sources: ['e1'] }],
      )
    ).memory_ids;
    const first = await revoke(episode ?? '', `wrong: the token was ${fake.github}`);
    expect(first).toMatchObject({ kind: 'episode', status: 'revoked' });
    expect(String(first.reason)).toContain('[redacted:');
    expect(String(first.reason)).not.toContain(fake.github);
    expect(await revoke(episode ?? '', 'another reason')).toEqual(first);
    await expect(revoke('mem_missing', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      f.client.call('memory.revoke', { owner: 'user:else', id: episode, reason: 'x' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a revoked memory absorbs no restatement: said again, it is a new memory', async () => {
    const pref = (id: string) => ({
      kind: 'preference',
      text: 'Prefers short answers.',
      sources: [id],
      quotes: [{ event_id: id, text: 'short answers' }],
    });
    const [old] = (
      await f.publish(
        OWNER,
        [said('short answers please', '2026-11-16 10:00', { event_id: 's1' })],
        [pref('s1')],
      )
    ).memory_ids;
    await revoke(old ?? '', 'no longer true');
    const [fresh] = (
      await f.publish(
        OWNER,
        [said('short answers, really', '2026-11-18 10:00', { event_id: 's2' })],
        [pref('s2')],
      )
    ).memory_ids;
    expect(fresh).not.toBe(old);
    expect((await f.rows(OWNER)).map((r) => r.status)).toEqual(['revoked', 'active']);
  });
});
