// Batch selection without a model: a pure planner over an owner's pending events.

export interface SelectLimits {
  maxEvents: number;
  maxEventBytes: number;
  maxBatchBytes: number;
  maxWaitMs: number;
}

export const TERMINAL_KINDS: ReadonlySet<string> = new Set([
  'task_result',
  'task_failed',
  'task_blocked',
  'needs_input',
]);

export interface PendingEvent {
  seq: number;
  event_id: string;
  kind: string;
  text: string;
  ingested_at: number;
  /** A schedule run whose text equals the previous run of the same schedule. */
  unchanged: boolean;
}

/** Where the next batch begins: event seq and byte offset into its UTF-8 text. */
export interface Cursor {
  seq: number;
  offset: number;
}

export interface PlannedItem {
  seq: number;
  event_id: string;
  byteStart: number;
  byteEnd: number;
  byteLength: number;
  text: string;
  /** Index of an earlier item with the identical text (merged, costs no bytes). */
  sameAs: number | null;
}

export type ClosedBy = 'size' | 'bytes' | 'terminal' | 'wait' | 'split';

export interface Plan {
  /** A closed batch, or null when the pending events must wait. */
  batch: { items: PlannedItem[]; bytes: number; events: number; closedBy: ClosedBy } | null;
  /** Unchanged schedule runs to mark consumed now (before or inside the closed batch). */
  filtered: PendingEvent[];
  cursor: Cursor;
  /** The events ran out before the batch closed and more exist: plan again with more. */
  needMore: boolean;
}

/** End of a byte range of at most `max` bytes from `start`, moved back to a character boundary. */
export function cutUtf8(bytes: Uint8Array, start: number, max: number): number {
  let end = Math.min(bytes.length, start + max);
  while (end > start && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  if (end === start && start < bytes.length) {
    // max is smaller than one character: take the whole character rather than stall.
    end = start + 1;
    while (end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end++;
  }
  return end;
}

/**
 * Plans the next batch from `events` (in seq order, starting at the cursor's event).
 * invariant: a batch closes at maxEvents events, at the byte budget, at a terminal event, after a split,
 * or when its oldest event waited maxWaitMs; a split event's tail starts the next batch, so no byte is
 * skipped (test: "splits a long event across batches and keeps its tail").
 */
export function planBatch(
  events: readonly PendingEvent[],
  cursor: Cursor,
  now: number,
  limits: SelectLimits,
  more: boolean,
): Plan {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const items: PlannedItem[] = [];
  const before: PendingEvent[] = []; // filtered before the first item: consumed whether or not a batch closes
  const within: PendingEvent[] = []; // filtered between items: consumed when the batch closes
  let trailing: PendingEvent[] = []; // filtered after the latest item: left for the next plan
  let bytes = 0;
  let oldest = Number.POSITIVE_INFINITY;
  let next = cursor;
  const close = (closedBy: ClosedBy): Plan => ({
    batch: { items, bytes, events: items.length, closedBy },
    filtered: [...before, ...within],
    cursor: next,
    needMore: false,
  });

  for (const event of events) {
    const start = event.seq === cursor.seq ? cursor.offset : 0;
    if (start === 0 && event.unchanged) {
      if (items.length === 0) {
        before.push(event);
        next = { seq: event.seq + 1, offset: 0 };
      } else {
        trailing.push(event);
      }
      continue;
    }
    const all = encoder.encode(event.text);
    const end = cutUtf8(all, start, limits.maxEventBytes);
    const text = decoder.decode(all.subarray(start, end));
    const twin = items.findIndex((i) => i.text === text);
    const cost = twin === -1 ? end - start : 0;
    if (items.length > 0 && bytes + cost > limits.maxBatchBytes) return close('bytes');
    items.push({
      seq: event.seq,
      event_id: event.event_id,
      byteStart: start,
      byteEnd: end,
      byteLength: all.length,
      text,
      sameAs: twin === -1 ? null : twin,
    });
    bytes += cost;
    oldest = Math.min(oldest, event.ingested_at);
    within.push(...trailing);
    trailing = [];
    next = end < all.length ? { seq: event.seq, offset: end } : { seq: event.seq + 1, offset: 0 };
    if (end < all.length) return close('split');
    if (TERMINAL_KINDS.has(event.kind)) return close('terminal');
    if (items.length >= limits.maxEvents) return close('size');
  }
  if (items.length > 0 && !more && now - oldest >= limits.maxWaitMs) return close('wait');
  const first = items[0];
  return {
    batch: null,
    filtered: before,
    cursor: first ? { seq: first.seq, offset: first.byteStart } : next,
    needMore: more && items.length > 0,
  };
}
