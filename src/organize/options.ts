// Organize's settings: defaults from ARCHITECTURE.md §8, and the slice of the configuration they come from.
import type { Config } from '../config.js';
import type { JobKind } from './schema-jobs.js';

export interface OrganizeOptions {
  /** Unorganised tokens (portable estimate) of an owner above which a compaction is queued. */
  thresholdTokens: number;
  /** The newest events worth this many tokens stay raw; compaction takes only older ones. */
  keepRecentTokens: number;
  /** Active nodes a level keeps; beyond it the oldest are merged into a node one level up. */
  nodesPerLevel: number;
  /** Pieces a step takes at most, per kind (halved on each failure, at least 1). */
  nodesPerJob: Readonly<Record<JobKind, number>>;
  /** The extractive summary's size in tokens (a model is asked for about the same). */
  nodeTokens: number;
  /** The longest summary a commit accepts. */
  nodeMaxChars: number;
  leaseMs: number;
  /** Failures after which a job stops retrying (and an automatic one leaves a notice). */
  maxFailures: number;
  retryBaseMs: number;
  retryCapMs: number;
  /** Hourly organize: once the owner has written nothing for this long, at most once per this long. */
  hourlyIdleMs: number;
  /** Nightly deep review: the quiet window (minutes after local midnight) and the owner's idle time. */
  quietWindow: { start: number; end: number };
  nightlyIdleMs: number;
  timeZone: string;
  /** Events read per owner per scan (the token count of new events is kept incrementally). */
  scanLimit: number;
}

/** ARCHITECTURE.md §8: compaction nodes ≤ 8 (deep ≤ 12), halved on failure; organize failures kept: 5. */
export const ORGANIZE_DEFAULTS: Readonly<OrganizeOptions> = Object.freeze({
  thresholdTokens: 8_000,
  keepRecentTokens: 2_000,
  nodesPerLevel: 8,
  nodesPerJob: Object.freeze({ compact: 8, organize: 8, deep: 12 }),
  nodeTokens: 300,
  nodeMaxChars: 2_000,
  leaseMs: 300_000,
  maxFailures: 5,
  retryBaseMs: 10_000,
  retryCapMs: 600_000,
  hourlyIdleMs: 3_600_000,
  quietWindow: Object.freeze({ start: 3 * 60 + 30, end: 6 * 60 }),
  nightlyIdleMs: 1_800_000,
  timeZone: 'Asia/Shanghai',
  scanLimit: 5_000,
});

/** The options a service's configuration asks for; the raw window stays a quarter of the threshold at most. */
export function organizeOptions(
  config: Partial<Pick<Config, 'organize' | 'timezone'>>,
  overrides: Partial<OrganizeOptions> = {},
): OrganizeOptions {
  const threshold = config.organize?.thresholdTokens ?? ORGANIZE_DEFAULTS.thresholdTokens;
  return {
    ...ORGANIZE_DEFAULTS,
    thresholdTokens: threshold,
    keepRecentTokens: Math.min(ORGANIZE_DEFAULTS.keepRecentTokens, Math.floor(threshold / 4)),
    leaseMs: config.organize?.leaseMs ?? ORGANIZE_DEFAULTS.leaseMs,
    quietWindow: config.organize?.quietWindow ?? ORGANIZE_DEFAULTS.quietWindow,
    timeZone: config.timezone ?? ORGANIZE_DEFAULTS.timeZone,
    ...overrides,
  };
}

export const formatWindow = (w: { start: number; end: number }): string => {
  const hm = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return `${hm(w.start)}-${hm(w.end)}`;
};
