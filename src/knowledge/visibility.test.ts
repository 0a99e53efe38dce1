import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RECALL_VISIBILITY_PARAMS, visibilityOf, visibleMemory } from './visibility.js';

const T1 = Date.parse('2026-11-16T10:00:00+08:00');
const T2 = Date.parse('2026-11-18T10:00:00+08:00');
const memory = (status: string, lifecycle: string | null, validTo: number | null = null) => ({
  status,
  lifecycle,
  at: T1,
  valid_from: T1,
  valid_to: validTo,
});

describe('visibleMemory', () => {
  it('hides revoked memories always, superseded and retired ones unless asked for', () => {
    const revoked = memory('revoked', 'revoked');
    const superseded = memory('deprecated', 'superseded', T2);
    const retired = memory('deprecated', 'retired', T2);
    expect(visibleMemory(memory('candidate', null))).toBe(true);
    expect(visibleMemory(memory('active', 'active'))).toBe(true);
    expect(visibleMemory(revoked)).toBe(false);
    expect(visibleMemory(revoked, { includeSuperseded: true })).toBe(false);
    expect(visibleMemory(revoked, { asOf: T1 })).toBe(false);
    for (const hidden of [superseded, retired, memory('deprecated', null)]) {
      expect(visibleMemory(hidden)).toBe(false);
      expect(visibleMemory(hidden, { includeSuperseded: true })).toBe(true);
    }
  });

  it('as_of: exactly what was valid then (valid_from <= as_of < valid_to)', () => {
    const superseded = memory('deprecated', 'superseded', T2);
    const current = { ...memory('candidate', 'candidate'), valid_from: T2, at: T2 };
    expect(visibleMemory(superseded, { asOf: T1 - 1 })).toBe(false);
    expect(visibleMemory(superseded, { asOf: T1 })).toBe(true);
    expect(visibleMemory(superseded, { asOf: T2 - 1 })).toBe(true);
    expect(visibleMemory(superseded, { asOf: T2 })).toBe(false);
    expect(visibleMemory(current, { asOf: T2 - 1 })).toBe(false);
    expect(visibleMemory(current, { asOf: T2 })).toBe(true);
    // A memory from before migration 0010 is valid from its time.
    expect(visibleMemory({ ...current, valid_from: null }, { asOf: T2 })).toBe(true);
  });

  it('gives recall params it can spread into its schema', () => {
    const schema = z.object({ query: z.string(), ...RECALL_VISIBILITY_PARAMS });
    const params = schema.parse({ query: 'q', as_of: '2026-11-17T00:00:00+08:00', include_superseded: true });
    expect(visibilityOf(params)).toEqual({
      asOf: Date.parse('2026-11-16T16:00:00Z'),
      includeSuperseded: true,
    });
    expect(visibilityOf(schema.parse({ query: 'q' }))).toEqual({
      asOf: undefined,
      includeSuperseded: undefined,
    });
    expect(schema.safeParse({ query: 'q', as_of: 'last week' }).success).toBe(false);
  });
});
