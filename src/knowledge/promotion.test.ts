// Issue 10: promotion by evidence on two workdays (03:30 in MNEMO_TIMEZONE) and retirement of stale
// candidates, with a fake clock across the boundary.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProposalInput } from '../observe/schema.js';
import { ENGINES } from '../../test/helpers/engines.js';
import { at, openFactsFixture, said, ZONE, type FactsFixture } from '../../test/helpers/facts.js';
import { retireStaleCandidates } from './retire.js';

type MemoryInput = ProposalInput['memories'][number];
const OWNER = 'user:zhou';

const seat = (sources: string[], object = 'aisle'): MemoryInput => ({
  kind: 'fact',
  fact_kind: 'project',
  subject: 'seat',
  predicate: 'preference',
  object,
  text: `prefers ${object} seats`,
  sources,
});

describe.each(ENGINES)('promotion and retirement on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  /** The user states the seat preference at a Shanghai time. */
  const state = (local: string, extra: Record<string, unknown> = {}, owner = OWNER) => {
    const event = said('aisle seat please / 靠过道', local, extra);
    return f.publish(owner, [event], [seat([event.event_id ?? ''])]);
  };
  const lifecycle = async (owner = OWNER) => (await f.rows(owner)).map((r) => r.lifecycle);

  it('evidence on one workday keeps a candidate; the next workday starts at 03:30 and promotes', async () => {
    await state('2026-11-16 23:00');
    await state('2026-11-17 03:29');
    expect(await lifecycle()).toEqual(['candidate']);
    await state('2026-11-17 03:30');
    const [row] = await f.rows(OWNER);
    expect(row).toMatchObject({ lifecycle: 'active', status: 'active' });
    expect(await f.sources(OWNER, row?.memory_id ?? '')).toHaveLength(3);
  });

  it('an agent or a tool restating a fact is not evidence; a host write is', async () => {
    await state('2026-11-16 10:00');
    await state('2026-11-17 10:00', { kind: 'agent_reply', role: 'agent' });
    await state('2026-11-18 10:00', { kind: 'tool_result', role: 'tool' });
    expect(await lifecycle()).toEqual(['candidate']);
    await state('2026-11-19 10:00', { kind: 'note', role: 'system' });
    expect(await lifecycle()).toEqual(['active']);
  });

  it('retires a candidate three workdays after its first evidence, not a minute before 03:30', async () => {
    await state('2026-11-16 10:00');
    const other = said('window', '2026-11-16 10:00');
    await f.publish('user:other', [other], [seat([other.event_id ?? ''], 'window')]);
    expect(await retireStaleCandidates(f.service.driver, at('2026-11-19 03:29'), ZONE)).toBe(0);
    f.clock.set(at('2026-11-19 03:30'));
    expect(await f.client.call('memory.tick', { owner: OWNER })).toEqual({
      now: '2026-11-18T19:30:00.000Z',
      retired: 1,
    });
    expect(await f.rows(OWNER)).toMatchObject([
      { lifecycle: 'retired', status: 'deprecated', valid_to: at('2026-11-19 03:30') },
    ]);
    // memory.tick for one owner leaves the others; without an owner it does every owner.
    expect(await lifecycle('user:other')).toEqual(['candidate']);
    expect(await f.client.call('memory.tick', {})).toMatchObject({ retired: 1 });
    expect(await lifecycle('user:other')).toEqual(['retired']);
  });

  it('a retired candidate stays retired, even restated on another workday', async () => {
    await state('2026-11-16 10:00');
    await retireStaleCandidates(f.service.driver, at('2026-11-20 10:00'), ZONE);
    await state('2026-11-21 10:00');
    const rows = await f.rows(OWNER);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ lifecycle: 'retired' });
    expect(await f.sources(OWNER, rows[0]?.memory_id ?? '')).toHaveLength(2);
  });

  it('never retires an active or a superseded fact', async () => {
    await state('2026-11-16 10:00');
    await state('2026-11-17 10:00');
    const window = said('window now', '2026-11-16 12:00');
    await f.publish('user:other', [said('aisle', '2026-11-16 10:00', { event_id: 'x1' })], [seat(['x1'])]);
    await f.publish('user:other', [window], [seat([window.event_id ?? ''], 'window')]);
    await retireStaleCandidates(f.service.driver, at('2026-12-30 10:00'), ZONE);
    expect(await lifecycle()).toEqual(['active']);
    expect(await lifecycle('user:other')).toEqual(['superseded', 'retired']);
  });

  it('follows the configured zone', async () => {
    await state('2026-11-16 14:00');
    // 2026-11-19 03:30 in Shanghai is 2026-11-18 20:30 in Berlin: two workdays there, three here.
    expect(await retireStaleCandidates(f.service.driver, at('2026-11-19 03:30'), 'Europe/Berlin')).toBe(0);
    expect(await retireStaleCandidates(f.service.driver, at('2026-11-19 03:30'), ZONE)).toBe(1);
  });
});
