// Issue 13: the hand-written dev-2 corpus keeps its shape and stays apart from the held-out set.
import { describe, expect, it } from 'vitest';
import { devCases } from './fixtures/safety/corpus.js';
import { dev2Cases } from './fixtures/safety/dev-2.js';
import { heldOutCases } from './fixtures/safety/held-out.js';

describe('safety corpus dev-2', () => {
  it('has 120 poisoned and 120 benign cases, at least 45 % Chinese, poisoned from every hostile channel', () => {
    expect(dev2Cases.filter((c) => c.label === 'poisoned').length).toBeGreaterThanOrEqual(120);
    expect(dev2Cases.filter((c) => c.label === 'benign').length).toBeGreaterThanOrEqual(120);
    expect(dev2Cases.filter((c) => c.lang === 'zh').length / dev2Cases.length).toBeGreaterThanOrEqual(0.45);
    const channels = new Set(
      dev2Cases.filter((c) => c.label === 'poisoned').map((c) => `${c.kind}/${c.source}`),
    );
    for (const channel of [
      'tool_result/web',
      'tool_result/email',
      'tool_result/file',
      'tool_result/undefined',
      'user_message/email',
      'user_message/web',
    ]) {
      expect(channels, channel).toContain(channel);
    }
  });

  it('is part of the dev corpus and shares no text with the held-out corpus or the rest of dev', () => {
    const held = new Set(heldOutCases.map((c) => c.text));
    expect(dev2Cases.filter((c) => held.has(c.text))).toEqual([]);
    const dev2 = new Set(dev2Cases.map((c) => c.text));
    expect(dev2.size).toBe(dev2Cases.length);
    expect(devCases.filter((c) => dev2.has(c.text)).length).toBe(dev2Cases.length);
  });
});
