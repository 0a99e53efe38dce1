import { describe, expect, it } from 'vitest';
import { baseSlug, disambiguated } from './slug.js';

describe('object slugs', () => {
  it('keeps Chinese and Latin names readable', () => {
    expect(baseSlug('李卫东')).toBe('李卫东');
    expect(baseSlug('Project Mnemo 2026')).toBe('project-mnemo-2026');
    expect(baseSlug('  杭州 出差 / Hangzhou trip  ')).toBe('杭州-出差-hangzhou-trip');
  });

  it('is safe on every filesystem', () => {
    expect(baseSlug('a<b>c:d"e/f\\g|h?i*j')).toBe('a-b-c-d-e-f-g-h-i-j');
    expect(baseSlug('CON')).toBe('_con');
    expect(baseSlug('aux.notes')).toBe('_aux.notes');
    expect(baseSlug('console')).toBe('console');
    expect(baseSlug('...')).toBe('object');
    expect(baseSlug('end.')).toBe('end');
    expect(baseSlug('..hidden')).toBe('hidden');
    expect(baseSlug('tab\there\u0000')).toBe('tab-here');
    expect([...baseSlug('长'.repeat(200))]).toHaveLength(64);
    expect(Buffer.byteLength(baseSlug('长'.repeat(200)))).toBeLessThan(255);
  });

  it('disambiguates by the object id, in lower case', () => {
    expect(disambiguated('李卫东', 'obj_AbC123')).toBe('李卫东-abc123');
  });
});
