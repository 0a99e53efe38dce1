import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { errorOf } from '../../test/helpers/errors.js';
import { ORGANIZE_DEFAULTS, organizeOptions } from './options.js';

describe('organize settings', () => {
  it('defaults to the seed’s numbers', () => {
    const config = loadConfig({ dataDir: '/tmp/x' }, {});
    expect(config).toMatchObject({ organizer: 'builtin', tokenizer: 'estimate' });
    const options = organizeOptions(config);
    expect(options).toMatchObject({
      thresholdTokens: 8_000,
      keepRecentTokens: 2_000,
      nodesPerJob: { compact: 8, organize: 8, deep: 12 },
      leaseMs: 300_000,
      maxFailures: 5,
      quietWindow: { start: 210, end: 360 },
      timeZone: 'Asia/Shanghai',
    });
    expect(organizeOptions({})).toEqual({ ...ORGANIZE_DEFAULTS });
  });

  it('reads MNEMO_ORGANIZER, MNEMO_TOKENIZER and MNEMO_ORGANIZE_*; the raw window stays a quarter of the threshold', () => {
    const config = loadConfig(
      { dataDir: '/tmp/x' },
      {
        MNEMO_ORGANIZER: 'external',
        MNEMO_TOKENIZER: 'exact',
        MNEMO_ORGANIZE_THRESHOLD_TOKENS: '1000',
        MNEMO_ORGANIZE_LEASE_MS: '5000',
        MNEMO_ORGANIZE_QUIET_WINDOW: '04:00-05:30',
        MNEMO_TIMEZONE: 'Europe/Berlin',
      },
    );
    expect(config).toMatchObject({ organizer: 'external', tokenizer: 'exact' });
    expect(organizeOptions(config)).toMatchObject({
      thresholdTokens: 1_000,
      keepRecentTokens: 250,
      leaseMs: 5_000,
      quietWindow: { start: 240, end: 330 },
      timeZone: 'Europe/Berlin',
    });
  });

  it('refuses a window before the 03:30 boundary, a malformed one and unknown choices, naming the variable', async () => {
    for (const [name, value] of [
      ['MNEMO_ORGANIZE_QUIET_WINDOW', '01:00-05:00'],
      ['MNEMO_ORGANIZE_QUIET_WINDOW', 'night'],
      ['MNEMO_ORGANIZE_QUIET_WINDOW', '05:00-04:00'],
      ['MNEMO_TOKENIZER', 'tiktoken'],
      ['MNEMO_ORGANIZER', 'both'],
      ['MNEMO_ORGANIZE_THRESHOLD_TOKENS', '10'],
    ] as const) {
      const error = await errorOf(
        Promise.resolve().then(() => loadConfig({ dataDir: '/tmp/x' }, { [name]: value })),
      );
      expect(error.code, `${name}=${value}`).toBe('CONFIG_INVALID');
      expect(error.message, `${name}=${value}`).toContain(name);
    }
  });
});
