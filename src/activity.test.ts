import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualTimers, type ManualTimers } from '../test/helpers/manual-timers.js';
import {
  createClientActivity,
  createTurnGate,
  MAX_DEFER_MS,
  QUIET_MS,
  trackClientWrites,
  turnDelay,
  type ClientActivity,
  type TurnGate,
} from './activity.js';
import { defineMethod, type MethodTable } from './protocol/method.js';
import { LOCAL_PRINCIPAL } from './protocol/principal.js';

/** Lets every promise that is ready run (no I/O is involved, so this does not depend on machine speed). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function setup(): { timers: ManualTimers; activity: ClientActivity; gate: TurnGate } {
  const timers = createManualTimers();
  const activity = createClientActivity({ now: timers.now });
  const gate = createTurnGate({ activity, name: 'w', sleep: timers.sleep });
  return { timers, activity, gate };
}

/** A waitTurn call whose resolution the test can look at. */
function watch(turn: Promise<void>): { done: boolean } {
  const state = { done: false };
  void turn.then(() => (state.done = true));
  return state;
}

describe('turnDelay', () => {
  const limits = { quietMs: QUIET_MS, maxDeferMs: MAX_DEFER_MS };
  it.each([
    ['no write ever', { inFlight: 0, lastEndedAt: -Infinity, lastTurnAt: 0, now: 100 }, 0],
    ['a write in flight', { inFlight: 1, lastEndedAt: -Infinity, lastTurnAt: 0, now: 100 }, 4_900],
    ['a write ended 100 ms ago', { inFlight: 0, lastEndedAt: 1_000, lastTurnAt: 0, now: 1_100 }, 150],
    ['a write ended 250 ms ago', { inFlight: 0, lastEndedAt: 1_000, lastTurnAt: 0, now: 1_250 }, 0],
    ['the longest deferral is reached', { inFlight: 3, lastEndedAt: 4_990, lastTurnAt: 0, now: 5_000 }, 0],
    [
      'the quiet window ends after the deadline',
      { inFlight: 0, lastEndedAt: 4_900, lastTurnAt: 0, now: 4_950 },
      50,
    ],
  ])('%s', (_, state, expected) => {
    expect(turnDelay(state, limits)).toBe(expected);
  });
});

describe('the turn gate / 后台让路', () => {
  it('gives the turn at once when no client writes (idle behaviour unchanged)', async () => {
    const { timers, activity, gate } = setup();
    await gate.waitTurn();
    timers.advance(60_000);
    activity.begin()();
    timers.advance(QUIET_MS);
    await gate.waitTurn();
    expect(timers.sleeps).toEqual([]);
    expect(activity.deferring('w')).toBe(false);
  });

  it('lets I/O that is already waiting run before each turn, so a busy worker never holds the event loop', async () => {
    const { gate } = setup();
    const order: string[] = [];
    setImmediate(() => order.push('socket read'));
    await gate.waitTurn();
    order.push('turn');
    expect(order).toEqual(['socket read', 'turn']);
  });

  it('invariant: waits while a write is in flight and for the quiet window after it, then runs', async () => {
    const { timers, activity, gate } = setup();
    const end = activity.begin();
    let next = timers.nextSleep();
    const turn = watch(gate.waitTurn());
    expect(await next).toBe(MAX_DEFER_MS);
    expect(activity.deferring('w')).toBe(true);

    timers.advance(1_000);
    next = timers.nextSleep();
    end();
    expect(await next).toBe(QUIET_MS);

    timers.advance(QUIET_MS - 1);
    await settle();
    expect(turn.done).toBe(false);
    timers.advance(1);
    await settle();
    expect(turn.done).toBe(true);
    expect(activity.deferring('w')).toBe(false);
  });

  it('starts the quiet window over when another write ends inside it', async () => {
    const { timers, activity, gate } = setup();
    activity.begin()();
    const turn = watch(gate.waitTurn());
    await settle();
    timers.advance(200);
    const next = timers.nextSleep();
    activity.begin()();
    expect(await next).toBe(QUIET_MS);
    timers.advance(QUIET_MS - 1);
    await settle();
    expect(turn.done).toBe(false);
    timers.advance(1);
    await settle();
    expect(turn.done).toBe(true);
  });

  it('invariant: runs at least once per maximum deferral under continuous writes, never earlier', async () => {
    const { timers, activity, gate } = setup();
    // A bulk client: a write every 100 ms, each running 90 ms, for 20 s.
    let end = activity.begin();
    const stop = new AbortController();
    const turns: number[] = [];
    const worker = (async () => {
      while (!stop.signal.aborted) {
        await gate.waitTurn(stop.signal);
        if (!stop.signal.aborted) turns.push(timers.now());
      }
    })();
    for (let t = 0; t < 20_000; t += 10) {
      if (t % 100 === 0 && t > 0) end = activity.begin();
      if (t % 100 === 90) end();
      await settle();
      timers.advance(10);
      await settle();
    }
    expect(turns).toEqual([5_000, 10_000, 15_000, 20_000]);
    stop.abort();
    await worker;
  });

  it('stops waiting at once when its signal aborts', async () => {
    const { timers, activity, gate } = setup();
    activity.begin();
    const stop = new AbortController();
    const next = timers.nextSleep();
    const turn = gate.waitTurn(stop.signal);
    await next;
    stop.abort();
    await turn;
    expect(activity.deferring('w')).toBe(false);
  });
});

describe('trackClientWrites', () => {
  const LOCAL = { transport: 'local' as const, principal: LOCAL_PRINCIPAL };
  const seen: Array<{ name: string; inFlight: number }> = [];
  const activity = createClientActivity({ now: () => 42 });
  const method = (name: string, access: 'read' | 'write' | 'background', fail = false) =>
    defineMethod({
      name,
      summary: name,
      access,
      owner: 'none',
      params: z.object({}),
      result: z.object({}),
      handler: async () => {
        seen.push({ name, inFlight: activity.snapshot().inFlight });
        if (fail) throw new Error('boom');
        return {};
      },
    });
  const table: MethodTable = new Map(
    [
      method('memory.events.ingest', 'write', true),
      method('timeline.append', 'write'),
      method('memory.recall', 'read'),
      method('memory.observation.commit', 'background'),
    ].map((m) => [m.name, m]),
  );

  it('marks client writes while they run, even when they throw; reads and background writes are not marked', async () => {
    const tracked = trackClientWrites(table, activity);
    let settled = 0;
    activity.onSettled(() => settled++);
    await expect(tracked.get('memory.events.ingest')?.handler({}, LOCAL)).rejects.toThrow();
    await tracked.get('timeline.append')?.handler({}, LOCAL);
    await tracked.get('memory.recall')?.handler({}, LOCAL);
    await tracked.get('memory.observation.commit')?.handler({}, LOCAL);
    expect(seen).toEqual([
      { name: 'memory.events.ingest', inFlight: 1 },
      { name: 'timeline.append', inFlight: 1 },
      { name: 'memory.recall', inFlight: 0 },
      { name: 'memory.observation.commit', inFlight: 0 },
    ]);
    expect(settled).toBe(2);
    expect(activity.snapshot()).toEqual({ inFlight: 0, lastEndedAt: 42 });
  });
});
