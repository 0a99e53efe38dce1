// Evidence for promotion: the workdays on which a user or a host stated a fact. An agent restating it is
// not evidence, and neither is a tool result.
import { workdayOf, workdaysBetween } from './workday.js';

/** The zone of workdays when the configuration names none (MNEMO_TIMEZONE's default). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
/** Independent evidence on this many workdays makes a candidate fact active. */
export const PROMOTION_WORKDAYS = 2;
/** A candidate whose first evidence is this many workdays old retires. */
export const RETIREMENT_WORKDAYS = 3;

export interface SourceEvent {
  role: string;
  at: number;
}

const EVIDENCE_ROLES: ReadonlySet<string> = new Set(['user', 'system']);

/** The distinct workdays of the user's and the host's source events. */
export function evidenceWorkdays(sources: readonly SourceEvent[], timeZone: string): Set<string> {
  return new Set(sources.filter((s) => EVIDENCE_ROLES.has(s.role)).map((s) => workdayOf(s.at, timeZone)));
}

export const promoted = (sources: readonly SourceEvent[], timeZone: string): boolean =>
  evidenceWorkdays(sources, timeZone).size >= PROMOTION_WORKDAYS;

/** Whether a candidate first seen at `firstAt` has waited long enough at `now` to retire. */
export const stale = (firstAt: number, now: number, timeZone: string): boolean =>
  workdaysBetween(workdayOf(firstAt, timeZone), workdayOf(now, timeZone)) >= RETIREMENT_WORKDAYS;
