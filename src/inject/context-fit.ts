// memory.context.fit: a host's prompt cut to its context budget. The fixed prompt is subtracted first; the
// current request and the live state are kept whole (or the call is refused); logs, history and memory are
// each cut on their own, whole items only, with a marker saying how many were left out. Pure.
import { MemoryError } from '../errors.js';
import { estimateTokens, PORTABLE_TOKENIZER } from '../text/tokens.js';
import { byteLength } from './snapshot-render.js';
import type { ContextFitParams, ContextFitResult } from './snapshot-schema.js';

type PartName = 'history' | 'memory' | 'logs';
type Part = ContextFitResult[PartName];

/** Each part's first share of what the request leaves; what a part does not need goes to the others, in this order. */
export const CONTEXT_SHARES: Readonly<Record<PartName, number>> = Object.freeze({
  history: 0.45,
  memory: 0.35,
  logs: 0.2,
});
const ORDER: readonly PartName[] = ['history', 'memory', 'logs'];

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
export const MARKERS: Readonly<Record<PartName, (n: number) => string>> = Object.freeze({
  history: (n) => `[… ${plural(n, 'older history entry', 'older history entries')} omitted]`,
  logs: (n) => `[… ${plural(n, 'older log entry', 'older log entries')} omitted]`,
  memory: (n) => `[… ${plural(n, 'lower-ranked memory item', 'lower-ranked memory items')} omitted]`,
});

const size = (texts: readonly string[]) => ({
  bytes: texts.reduce((n, t) => n + byteLength(t), 0),
  tokens: texts.reduce((n, t) => n + estimateTokens(t), 0),
});

/**
 * The fewest items dropped (from the start: oldest; or from the end: lowest ranked) for the rest and the
 * marker to fit `allowance`. A marker that does not fit even alone is left out; `omitted` still counts.
 */
function cut(name: PartName, items: readonly string[], allowance: number): Part {
  const fromStart = name !== 'memory';
  const bytes = items.map(byteLength);
  let kept = bytes.reduce((a, b) => a + b, 0);
  for (let dropped = 0; dropped <= items.length; dropped++) {
    const marker = dropped === 0 ? null : MARKERS[name](dropped);
    const markerBytes = marker === null ? 0 : byteLength(marker);
    if (kept + markerBytes <= allowance || dropped === items.length) {
      const rest = fromStart ? items.slice(dropped) : items.slice(0, items.length - dropped);
      const shown = marker !== null && kept + markerBytes <= allowance ? marker : null;
      const all = shown === null ? rest : fromStart ? [shown, ...rest] : [...rest, shown];
      return { items: [...rest], omitted: dropped, marker: shown, allowance, ...size(all) };
    }
    kept -= bytes[fromStart ? dropped : items.length - 1 - dropped] ?? 0;
  }
  throw new Error('unreachable: dropping every item always fits');
}

/**
 * invariant: the kept parts never exceed the budget after the fixed prompt, the request and live state are
 * never cut, and every left-out item is counted (test: src/inject/context-fit.test.ts).
 */
export function fitContext(p: ContextFitParams): ContextFitResult {
  const fixed = p.fixed_prompt_bytes ?? (p.fixed_prompt === undefined ? 0 : byteLength(p.fixed_prompt));
  const available = Math.max(0, p.budget_bytes - fixed);
  const request = size([p.current_request]);
  const live = size(p.live_state === undefined ? [] : [p.live_state]);
  if (request.bytes + live.bytes > available) {
    throw new MemoryError(
      'REQUEST_TOO_LONG',
      `the current request and live state take ${request.bytes + live.bytes} bytes; the budget leaves ${available} after the fixed prompt`,
      {
        budget_bytes: p.budget_bytes,
        fixed_prompt_bytes: fixed,
        available_bytes: available,
        current_request_bytes: request.bytes,
        live_state_bytes: live.bytes,
      },
    );
  }
  const rest = available - request.bytes - live.bytes;
  const need = { history: size(p.history).bytes, memory: size(p.memory).bytes, logs: size(p.logs).bytes };
  const allow = { history: 0, memory: 0, logs: 0 };
  let spare = rest;
  for (const name of ORDER) {
    allow[name] = Math.min(need[name], Math.floor(rest * CONTEXT_SHARES[name]));
    spare -= allow[name];
  }
  for (const name of ORDER) {
    const more = Math.min(spare, need[name] - allow[name]);
    allow[name] += more;
    spare -= more;
  }
  // A part cut short may still need its marker's bytes: they come out of its own allowance.
  const parts = {
    history: cut('history', p.history, allow.history),
    memory: cut('memory', p.memory, allow.memory),
    logs: cut('logs', p.logs, allow.logs),
  };
  const used = [request, live, parts.history, parts.memory, parts.logs];
  return {
    budget_bytes: p.budget_bytes,
    fixed_prompt_bytes: fixed,
    available_bytes: available,
    used: {
      bytes: used.reduce((n, s) => n + s.bytes, 0),
      tokens: used.reduce((n, s) => n + s.tokens, 0),
    },
    tokenizer: PORTABLE_TOKENIZER,
    current_request: request,
    live_state: live,
    ...parts,
  };
}
