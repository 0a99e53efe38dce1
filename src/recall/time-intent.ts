// What a query says about time: the spans it names (relative to its reference time) and whether it
// asks for the latest or the earliest memory.
import { zoneOffset, type Span } from './calendar.js';
import { EARLIEST_EN, RECENT_EN, findEnglishTimes } from './time-en.js';
import { EARLIEST_ZH, RECENT_ZH, findChineseTimes } from './time-zh.js';

export type TimeOrder = 'recent' | 'earliest';

export interface TimeIntent {
  /** Epoch-millisecond spans, both ends inclusive. */
  spans: Span[];
  /** The words that named each span. */
  phrases: string[];
  order?: TimeOrder;
}

/** Reads time expressions in English and Chinese relative to `at`, on the calendar of `timeZone`. */
export function parseTimeIntent(query: string, at: number, timeZone = 'UTC'): TimeIntent {
  const text = query.normalize('NFKC').toLowerCase();
  const offset = zoneOffset(timeZone, at);
  const wall = at + offset;
  const found = [...findEnglishTimes(text, wall), ...findChineseTimes(text, wall)];
  const recent = RECENT_EN.test(text) || RECENT_ZH.test(text);
  const earliest = EARLIEST_EN.test(text) || EARLIEST_ZH.test(text);
  const intent: TimeIntent = {
    spans: found.map((f) => ({ from: f.span.from - offset, to: f.span.to - offset })),
    phrases: found.map((f) => f.phrase.trim()),
  };
  if (recent !== earliest) intent.order = recent ? 'recent' : 'earliest';
  return intent;
}
