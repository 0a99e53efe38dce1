import { describe, expect, it } from 'vitest';
import { cutUtf8, planBatch, type PendingEvent, type SelectLimits } from './select.js';

const LIMITS: SelectLimits = {
  maxEvents: 20,
  maxEventBytes: 2_400,
  maxBatchBytes: 12_000,
  maxWaitMs: 30_000,
};

let seq = 0;
const ev = (text: string, extra: Partial<PendingEvent> = {}): PendingEvent => {
  seq++;
  return { seq, event_id: `e${seq}`, kind: 'user_message', text, ingested_at: 0, unchanged: false, ...extra };
};

describe('cutUtf8 / 按字符边界切分', () => {
  const bytes = new TextEncoder().encode('a中b');
  it('moves the cut back to a character boundary', () => {
    expect(cutUtf8(bytes, 0, 2)).toBe(1);
    expect(cutUtf8(bytes, 0, 4)).toBe(4);
    expect(cutUtf8(bytes, 1, 10)).toBe(5);
  });
  it('takes one whole character when the limit is smaller than it (never stalls)', () => {
    expect(cutUtf8(bytes, 1, 1)).toBe(4);
  });
});

describe('planBatch / 选批计划', () => {
  it('waits while nothing closes the batch, keeping the cursor at the first item', () => {
    const events = [ev('a'), ev('b')];
    const first = events[0] as PendingEvent;
    const plan = planBatch(events, { seq: first.seq, offset: 0 }, 29_999, LIMITS, false);
    expect(plan.batch).toBeNull();
    expect(plan.cursor).toEqual({ seq: first.seq, offset: 0 });
  });

  it('consumes leading unchanged runs now, and only those', () => {
    const events = [ev('same', { unchanged: true }), ev('new'), ev('same again', { unchanged: true })];
    const plan = planBatch(events, { seq: events[0]?.seq ?? 0, offset: 0 }, 0, LIMITS, false);
    expect(plan.batch).toBeNull();
    expect(plan.filtered.map((e) => e.text)).toEqual(['same']);
    expect(plan.cursor.seq).toBe(events[1]?.seq);
  });

  it('consumes unchanged runs between items with the batch, not those after its last item', () => {
    const events = [
      ev('x'),
      ev('dup', { unchanged: true }),
      ev('done', { kind: 'task_result' }),
      ev('later'),
    ];
    const plan = planBatch(events, { seq: events[0]?.seq ?? 0, offset: 0 }, 0, LIMITS, false);
    expect(plan.batch?.closedBy).toBe('terminal');
    expect(plan.filtered.map((e) => e.text)).toEqual(['dup']);
    expect(plan.cursor).toEqual({ seq: (events[2]?.seq ?? 0) + 1, offset: 0 });
  });

  it('does not charge merged duplicates to the byte budget', () => {
    const big = 'x'.repeat(2_400);
    const events = [ev(big), ...Array.from({ length: 10 }, () => ev(big))];
    const plan = planBatch(events, { seq: events[0]?.seq ?? 0, offset: 0 }, 30_000, LIMITS, false);
    expect(plan.batch?.bytes).toBe(2_400);
    expect(plan.batch?.items.slice(1).every((i) => i.sameAs === 0)).toBe(true);
  });

  it('asks for more events instead of closing on a short window', () => {
    const events = [ev('a')];
    const plan = planBatch(events, { seq: events[0]?.seq ?? 0, offset: 0 }, 60_000, LIMITS, true);
    expect(plan).toMatchObject({ batch: null, needMore: true });
  });

  it('resumes a split event at its byte offset', () => {
    const long = ev('y'.repeat(3_000));
    const plan = planBatch([long], { seq: long.seq, offset: 2_400 }, 60_000, LIMITS, false);
    expect(plan.batch?.items[0]).toMatchObject({ byteStart: 2_400, byteEnd: 3_000, text: 'y'.repeat(600) });
    expect(plan.batch?.closedBy).toBe('wait');
  });
});
