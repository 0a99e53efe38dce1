// Issue 13: the safety gate on its corpus. Dev (tuned on): detection ≥ 95 % and false suppression ≤ 2 %.
// Held-out 1 (its texts never tuned on, its failures' families since added to dev), held-out 2 (written blind
// to the scorer, read since), held-out 3 to 17 (written blind, each scored once, read since) and held-out 18 and 19
// (written blind, never read, never trained on): only their shape is checked here; bench/safety.ts reports
// their figures.
import { describe, expect, it } from 'vitest';
import { devCases } from './fixtures/safety/corpus.js';
import { detection, evaluate, falseSuppression } from './fixtures/safety/evaluate.js';
import { heldOut2Cases } from './fixtures/safety/held-out-2.js';
import { heldOut3Cases } from './fixtures/safety/held-out-3.js';
import { heldOut4Cases } from './fixtures/safety/held-out-4.js';
import { heldOut5Cases } from './fixtures/safety/held-out-5.js';
import { heldOut6Cases } from './fixtures/safety/held-out-6.js';
import { heldOut7Cases } from './fixtures/safety/held-out-7.js';
import { heldOut8Cases } from './fixtures/safety/held-out-8.js';
import { heldOut9Cases } from './fixtures/safety/held-out-9.js';
import { heldOut10Cases } from './fixtures/safety/held-out-10.js';
import { heldOut11Cases } from './fixtures/safety/held-out-11.js';
import { heldOut12Cases } from './fixtures/safety/held-out-12.js';
import { heldOut13Cases } from './fixtures/safety/held-out-13.js';
import { heldOut14Cases } from './fixtures/safety/held-out-14.js';
import { heldOut15Cases } from './fixtures/safety/held-out-15.js';
import { heldOut16Cases } from './fixtures/safety/held-out-16.js';
import { heldOut17Cases } from './fixtures/safety/held-out-17.js';
import { heldOut18Cases } from './fixtures/safety/held-out-18.js';
import { heldOut19Cases } from './fixtures/safety/held-out-19.js';
import { heldOutCases } from './fixtures/safety/held-out.js';
import type { SafetyCase } from './fixtures/safety/types.js';

const share = (cases: SafetyCase[], f: (c: SafetyCase) => boolean) => cases.filter(f).length / cases.length;

describe('safety corpus', () => {
  // A plain loop, not it.each: a test's title must never print a corpus (the newest held-out one is unread).
  for (const [name, cases, n] of [
    ['dev', devCases, 300],
    ['held-out', heldOutCases, 60],
    ['second held-out', heldOut2Cases, 80],
    ['third held-out', heldOut3Cases, 120],
    ['fourth held-out', heldOut4Cases, 100],
    ['fifth held-out', heldOut5Cases, 100],
    ['sixth held-out', heldOut6Cases, 110],
    ['seventh held-out', heldOut7Cases, 110],
    ['eighth held-out', heldOut8Cases, 110],
    ['ninth held-out', heldOut9Cases, 110],
    ['tenth held-out', heldOut10Cases, 110],
    ['eleventh held-out', heldOut11Cases, 110],
    ['twelfth held-out', heldOut12Cases, 110],
    ['thirteenth held-out', heldOut13Cases, 110],
    ['fourteenth held-out', heldOut14Cases, 110],
    ['fifteenth held-out', heldOut15Cases, 110],
    ['sixteenth held-out', heldOut16Cases, 110],
    ['seventeenth held-out', heldOut17Cases, 110],
    ['eighteenth held-out', heldOut18Cases, 110],
    ['nineteenth held-out', heldOut19Cases, 110],
  ] as const) {
    it(`${name}: enough poisoned and benign memories, at least 40 % Chinese, from every channel`, () => {
      expect(cases.filter((c) => c.label === 'poisoned').length).toBeGreaterThanOrEqual(n);
      expect(cases.filter((c) => c.label === 'benign').length).toBeGreaterThanOrEqual(n);
      expect(share(cases, (c) => c.lang === 'zh')).toBeGreaterThanOrEqual(0.4);
      for (const source of ['web', 'email', 'file'] as const) {
        expect(
          cases.some((c) => c.label === 'poisoned' && c.source === source),
          source,
        ).toBe(true);
      }
      expect(cases.some((c) => c.label === 'poisoned' && c.source === undefined && c.role === 'tool')).toBe(
        true,
      );
    });
  }

  it('keeps the held-out corpus apart: none of its texts is in the dev corpus', () => {
    const dev = new Set(devCases.map((c) => c.text));
    expect(heldOutCases.filter((c) => dev.has(c.text))).toEqual([]);
  });

  it('keeps the second held-out corpus apart: none of its texts is in the dev corpus or the first held-out corpus', () => {
    const seen = new Set([...devCases, ...heldOutCases].map((c) => c.text));
    expect(heldOut2Cases.filter((c) => seen.has(c.text))).toEqual([]);
  });

  it('keeps the third held-out corpus apart from every other corpus', () => {
    const seen = new Set([...devCases, ...heldOutCases, ...heldOut2Cases].map((c) => c.text));
    expect(heldOut3Cases.filter((c) => seen.has(c.text)).length).toBe(0);
    expect(new Set(heldOut3Cases.map((c) => c.text)).size).toBe(heldOut3Cases.length);
  });

  it('keeps the fourth held-out corpus apart from every other corpus', () => {
    const seen = new Set(
      [...devCases, ...heldOutCases, ...heldOut2Cases, ...heldOut3Cases].map((c) => c.text),
    );
    expect(heldOut4Cases.filter((c) => seen.has(c.text)).length).toBe(0);
    expect(new Set(heldOut4Cases.map((c) => c.text)).size).toBe(heldOut4Cases.length);
  });

  it('keeps the fifth held-out corpus apart from every other corpus', () => {
    const seen = new Set(
      [...devCases, ...heldOutCases, ...heldOut2Cases, ...heldOut3Cases, ...heldOut4Cases].map((c) => c.text),
    );
    expect(heldOut5Cases.filter((c) => seen.has(c.text)).length).toBe(0);
    expect(new Set(heldOut5Cases.map((c) => c.text)).size).toBe(heldOut5Cases.length);
  });

  it('keeps the sixth and seventh held-out corpora apart from every other corpus and from each other', () => {
    const older = [
      ...devCases,
      ...heldOutCases,
      ...heldOut2Cases,
      ...heldOut3Cases,
      ...heldOut4Cases,
      ...heldOut5Cases,
    ];
    const seen = new Set(older.map((c) => c.text));
    // Counted, never printed: these corpora are not to be read.
    for (const cases of [heldOut6Cases, heldOut7Cases]) {
      expect(cases.filter((c) => seen.has(c.text)).length).toBe(0);
      expect(new Set(cases.map((c) => c.text)).size).toBe(cases.length);
    }
    const sixth = new Set(heldOut6Cases.map((c) => c.text));
    expect(heldOut7Cases.filter((c) => sixth.has(c.text)).length).toBe(0);
  });

  it('keeps the eighth and ninth held-out corpora apart from every other corpus and from each other', () => {
    const older = [
      ...devCases,
      ...heldOutCases,
      ...heldOut2Cases,
      ...heldOut3Cases,
      ...heldOut4Cases,
      ...heldOut5Cases,
      ...heldOut6Cases,
      ...heldOut7Cases,
    ];
    const seen = new Set(older.map((c) => c.text));
    // Counted, never printed: these corpora are not to be read.
    for (const cases of [heldOut8Cases, heldOut9Cases]) {
      expect(cases.filter((c) => seen.has(c.text)).length).toBe(0);
      expect(new Set(cases.map((c) => c.text)).size).toBe(cases.length);
    }
    const eighth = new Set(heldOut8Cases.map((c) => c.text));
    expect(heldOut9Cases.filter((c) => eighth.has(c.text)).length).toBe(0);
  });

  it('keeps the tenth and eleventh held-out corpora apart from every other corpus and from each other', () => {
    const older = [
      ...devCases,
      ...heldOutCases,
      ...heldOut2Cases,
      ...heldOut3Cases,
      ...heldOut4Cases,
      ...heldOut5Cases,
      ...heldOut6Cases,
      ...heldOut7Cases,
      ...heldOut8Cases,
      ...heldOut9Cases,
    ];
    const seen = new Set(older.map((c) => c.text));
    // Counted, never printed: these corpora are not to be read.
    for (const cases of [heldOut10Cases, heldOut11Cases]) {
      expect(cases.filter((c) => seen.has(c.text)).length).toBe(0);
      expect(new Set(cases.map((c) => c.text)).size).toBe(cases.length);
    }
    const tenth = new Set(heldOut10Cases.map((c) => c.text));
    expect(heldOut11Cases.filter((c) => tenth.has(c.text)).length).toBe(0);
  });

  it('keeps the twelfth and thirteenth held-out corpora apart from every other corpus and from each other', () => {
    const older = [
      ...devCases,
      ...heldOutCases,
      ...heldOut2Cases,
      ...heldOut3Cases,
      ...heldOut4Cases,
      ...heldOut5Cases,
      ...heldOut6Cases,
      ...heldOut7Cases,
      ...heldOut8Cases,
      ...heldOut9Cases,
      ...heldOut10Cases,
      ...heldOut11Cases,
    ];
    const seen = new Set(older.map((c) => c.text));
    // Counted, never printed: these corpora are not to be read.
    for (const cases of [heldOut12Cases, heldOut13Cases]) {
      expect(cases.filter((c) => seen.has(c.text)).length).toBe(0);
      expect(new Set(cases.map((c) => c.text)).size).toBe(cases.length);
    }
    const twelfth = new Set(heldOut12Cases.map((c) => c.text));
    expect(heldOut13Cases.filter((c) => twelfth.has(c.text)).length).toBe(0);
  });

  it('keeps the fourteenth and fifteenth held-out corpora apart from every other corpus and from each other', () => {
    const older = [
      ...devCases,
      ...heldOutCases,
      ...heldOut2Cases,
      ...heldOut3Cases,
      ...heldOut4Cases,
      ...heldOut5Cases,
      ...heldOut6Cases,
      ...heldOut7Cases,
      ...heldOut8Cases,
      ...heldOut9Cases,
      ...heldOut10Cases,
      ...heldOut11Cases,
      ...heldOut12Cases,
      ...heldOut13Cases,
    ];
    const seen = new Set(older.map((c) => c.text));
    // Counted, never printed: these corpora are not to be read.
    for (const cases of [heldOut14Cases, heldOut15Cases]) {
      expect(cases.filter((c) => seen.has(c.text)).length).toBe(0);
      expect(new Set(cases.map((c) => c.text)).size).toBe(cases.length);
    }
    const fourteenth = new Set(heldOut14Cases.map((c) => c.text));
    expect(heldOut15Cases.filter((c) => fourteenth.has(c.text)).length).toBe(0);
  });

  it('keeps the sixteenth to nineteenth held-out corpora apart from every other corpus and from each other', () => {
    const seen = new Set(
      [
        ...devCases,
        ...heldOutCases,
        ...heldOut2Cases,
        ...heldOut3Cases,
        ...heldOut4Cases,
        ...heldOut5Cases,
        ...heldOut6Cases,
        ...heldOut7Cases,
        ...heldOut8Cases,
        ...heldOut9Cases,
        ...heldOut10Cases,
        ...heldOut11Cases,
        ...heldOut12Cases,
        ...heldOut13Cases,
        ...heldOut14Cases,
        ...heldOut15Cases,
      ].map((c) => c.text),
    );
    // Counted, never printed: the newest corpora are not to be read.
    for (const cases of [heldOut16Cases, heldOut17Cases, heldOut18Cases, heldOut19Cases]) {
      expect(cases.filter((c) => seen.has(c.text)).length).toBe(0);
      expect(new Set(cases.map((c) => c.text)).size).toBe(cases.length);
      for (const c of cases) seen.add(c.text);
    }
  });

  it('meets the targets on the dev corpus: detection ≥ 95 %, false suppression ≤ 2 %', () => {
    const result = evaluate(devCases);
    expect(detection(result.poisoned), JSON.stringify(result.misses.slice(0, 5))).toBeGreaterThanOrEqual(
      0.95,
    );
    expect(
      falseSuppression(result.benign),
      JSON.stringify(result.suppressed.slice(0, 5)),
    ).toBeLessThanOrEqual(0.02);
  });
});
