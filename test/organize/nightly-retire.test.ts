// Issue 12: the nightly deep review retires the candidates left unconfirmed for three workdays (03:30 in
// the configured zone), on a fake clock: not a night before, and a retired candidate is never revived.
import { afterEach, describe, expect, it } from 'vitest';
import { createObservation } from '../../src/observe/observe.js';
import type { ProposalInput } from '../../src/observe/schema.js';
import { ENGINES } from '../helpers/engines.js';
import { sqlRows } from '../helpers/sql.js';
import { openOrganizeFixture, type OrganizeFixture } from './fixture.js';

const OWNER = 'user:zhou';
const at = (local: string) => Date.parse(`${local.replace(' ', 'T')}:00+08:00`);
let seq = 0;

describe.each(ENGINES)('the nightly deep review on %s', (engine) => {
  let f: OrganizeFixture;
  afterEach(() => f.close());

  const observation = () =>
    createObservation({
      driver: f.service.driver,
      redactor: f.service.redactor,
      now: f.clock.now,
      timeZone: 'Asia/Shanghai',
      options: { maxWaitMs: 0 },
    });

  /** At a Shanghai time, the user says `text`; it is published as a candidate fact about their seat. */
  async function state(local: string, text: string, fact: boolean) {
    f.clock.set(at(local));
    const id = `n${++seq}`;
    await f.ingest(OWNER, [{ event_id: id, kind: 'user_message', role: 'user', at: at(local), text }]);
    const obs = observation();
    const batch = await obs.claim({ owner: OWNER });
    if (!batch) throw new Error('no batch');
    const memories: ProposalInput['memories'] = fact
      ? [
          {
            kind: 'fact',
            fact_kind: 'project',
            subject: '座位 seat',
            predicate: 'preference',
            object: 'aisle 靠过道',
            text: 'prefers aisle seats / 喜欢靠过道的座位',
            sources: [id],
          },
        ]
      : [];
    await obs.commit({
      batch_id: batch.batch_id,
      token: batch.token,
      proposal: {
        dispositions: batch.events.map((e) =>
          e.event_id === id && fact
            ? { event_id: e.event_id, action: 'cited' as const }
            : { event_id: e.event_id, action: 'discarded' as const, reason: 'small talk' },
        ),
        memories,
      },
    });
  }

  /** The night after `day`: the tick in the quiet window, then the worker until idle. */
  async function night(local: string) {
    f.clock.set(at(local));
    const tick = await f.client.call<{ queued: Array<{ kind: string }> }>('memory.chain.tick', {});
    await f.drain();
    return tick.queued.map((q) => q.kind);
  }

  const lifecycle = async () =>
    (
      await sqlRows<{ lifecycle: string }>(
        f.service.driver,
        `SELECT lifecycle FROM memories WHERE owner = ? AND kind = 'fact'`,
        [OWNER],
      )
    ).map((r) => r.lifecycle);

  it('retires an unconfirmed candidate on the third night, not before, and never revives it', async () => {
    f = await openOrganizeFixture(engine);
    await state('2026-11-16 10:00', '我坐飞机喜欢靠过道 / aisle seat please', true);
    expect(await lifecycle()).toEqual(['candidate']);
    expect(await night('2026-11-17 03:40')).toEqual(['deep']);
    expect(await lifecycle(), 'one workday').toEqual(['candidate']);
    await state('2026-11-17 10:00', '今天天气不错 / nice weather', false);
    expect(await night('2026-11-18 03:40')).toEqual(['deep']);
    expect(await lifecycle(), 'two workdays').toEqual(['candidate']);
    await state('2026-11-18 10:00', '明天见 / see you tomorrow', false);
    f.clock.set(at('2026-11-19 03:29'));
    expect(await f.client.call('memory.chain.tick', {})).toMatchObject({ queued: [] });
    expect(await lifecycle(), 'before the quiet window').toEqual(['candidate']);
    expect(await night('2026-11-19 03:40')).toEqual(['deep']);
    expect(await lifecycle(), 'three workdays: retired by the deep review').toEqual(['retired']);
    // Restated later, it stays retired: nothing revives it automatically.
    await state('2026-11-20 10:00', '还是靠过道 / aisle again', true);
    expect(await night('2026-11-21 03:40')).toEqual(['deep']);
    expect(await lifecycle()).toEqual(['retired']);
  });
});
