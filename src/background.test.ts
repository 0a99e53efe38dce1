import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createManualTimers } from '../test/helpers/manual-timers.js';
import { createBackgroundLoop } from './background.js';

describe('createBackgroundLoop', () => {
  it('pauses as each step asks, logs a failed step and pauses its error pause, and stops between steps', async () => {
    const timers = createManualTimers();
    const lines: string[] = [];
    const waits = [0, 0, 700, -1];
    let steps = 0;
    const loop = createBackgroundLoop({
      name: 'test worker',
      log: pino({ level: 'error' }, { write: (line: string) => void lines.push(line) }),
      step: async () => {
        const wait = waits[steps++] ?? 0;
        if (wait < 0) throw new Error('boom');
        return wait;
      },
      errorPauseMs: 5_000,
      sleep: timers.sleep,
    });
    let next = timers.nextSleep();
    loop.start();
    expect(await next).toBe(700);
    expect(steps).toBe(3);
    next = timers.nextSleep();
    timers.advance(700);
    expect(await next).toBe(5_000);
    expect(steps).toBe(4);
    expect(lines.join('')).toContain('test worker step failed');
    await loop.stop();
    expect(steps).toBe(4);
    expect(timers.sleeps).toEqual([700, 5_000]);
  });

  it('aborts the call in flight on stop, and gives a fresh signal to a call after it', async () => {
    let seen: AbortSignal | undefined;
    const loop = createBackgroundLoop({
      name: 'test worker',
      log: pino({ level: 'silent' }),
      step: async () => {
        const call = loop.call();
        seen = call.signal;
        await new Promise((resolve) => call.signal.addEventListener('abort', resolve, { once: true }));
        call.done();
        return 0;
      },
      errorPauseMs: 1,
    });
    loop.start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen?.aborted).toBe(false);
    await loop.stop();
    expect(seen?.aborted).toBe(true);
    expect(String(seen?.reason)).toContain('test worker stopping');
    expect(loop.call().signal.aborted).toBe(false);
  });
});

describe('createBackgroundLoop backs off', () => {
  it('doubles its pause with each failure in a row up to the cap, logs once per doubling, and resets on success', async () => {
    const timers = createManualTimers();
    const lines: string[] = [];
    // Seven failures, a success, then one more failure.
    const script = [1, 1, 1, 1, 1, 1, 1, 0, 1];
    let steps = 0;
    const loop = createBackgroundLoop({
      name: 'store worker',
      log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
      step: async () => {
        if ((script[steps++] ?? 0) === 1) throw new Error('disk full');
        return 10;
      },
      errorPauseMs: 100,
      maxErrorPauseMs: 1_000,
      sleep: timers.sleep,
    });
    loop.start();
    for (let i = 0; i < script.length; i++) {
      const next = timers.nextSleep();
      if (i > 0) timers.advance(timers.sleeps.at(-1) ?? 0);
      await next;
    }
    await loop.stop();
    expect(timers.sleeps).toEqual([100, 200, 400, 800, 1_000, 1_000, 1_000, 10, 100]);
    // Logged at each doubling and at the first failure at the cap, not at every failure.
    expect(lines.filter((l) => l.includes('step failed'))).toHaveLength(6);
    expect(lines.filter((l) => l.includes('recovered'))).toHaveLength(1);
  });
});
