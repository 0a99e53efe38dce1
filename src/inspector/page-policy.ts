// What a web page served by mnemo may ask of /rpc: reads, and a person's decision on a suggestion.
import type { MethodDef } from '../protocol/method.js';

/** The only writes a page may send. */
export const PAGE_WRITES: ReadonlySet<string> = new Set(['memory.suggestions.decide']);

/** Declared a write because `ack` acknowledges notices; without `ack` it only reads them. */
const READ_WITHOUT_ACK: ReadonlySet<string> = new Set(['memory.organize.notices']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * invariant: a call from a web page (a request with an Origin) reads, or decides a suggestion; nothing else
 * runs (test: src/inspector/inspector.test.ts "refuses every write from a page but the decisions").
 */
export function pageMayCall(def: Pick<MethodDef, 'name' | 'access'> | undefined, params: unknown): boolean {
  if (def === undefined || def.access === 'read' || PAGE_WRITES.has(def.name)) return true;
  return (
    READ_WITHOUT_ACK.has(def.name) && (params === undefined || (isObject(params) && params.ack === undefined))
  );
}
