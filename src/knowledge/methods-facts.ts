// Handlers of the facts methods: history, resolve, revoke and the tick that retires stale candidates.
import type { Handlers } from '../protocol/catalog.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { DEFAULT_TIME_ZONE } from './evidence.js';
import { factHistory, resolveConflict } from './history.js';
import { retireStaleCandidates } from './retire.js';
import { revokeMemory } from './revoke.js';

export interface FactsMethodDeps {
  driver: Driver;
  redactor: Redactor;
  now(): number;
  timeZone?: string | undefined;
}

type FactsMethod = 'memory.facts.history' | 'memory.facts.resolve' | 'memory.revoke' | 'memory.tick';

export function factsHandlers(deps: FactsMethodDeps): Handlers<FactsMethod> {
  const timeZone = deps.timeZone ?? DEFAULT_TIME_ZONE;
  const context = () => ({ timeZone, now: deps.now() });
  return {
    'memory.facts.history': async (p) => ({
      subject: p.subject,
      predicate: p.predicate,
      versions: await factHistory(deps.driver, p.owner, p.subject, p.predicate),
    }),
    'memory.facts.resolve': (p) => resolveConflict(deps.driver, p.owner, p.conflict_id, p.keep, context()),
    'memory.revoke': async (p) => {
      // A reason is stored text: redacted like everything a client writes.
      const reason = (await deps.redactor.redact(p.reason)).text;
      return revokeMemory(deps.driver, p.owner, p.id, reason, context());
    },
    'memory.tick': async (p) => {
      const now = deps.now();
      return {
        now: new Date(now).toISOString(),
        retired: await retireStaleCandidates(deps.driver, now, timeZone, p.owner),
      };
    },
  };
}
