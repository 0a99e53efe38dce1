// Handlers of the inspector's read methods: memory.browse and health.history.
import type { Handlers } from '../protocol/catalog.js';
import type { Queryable } from '../storage/driver.js';
import { healthHistory } from './health-history.js';
import { browseMemories } from './memory-browse.js';
import type { RecallLatency } from './recall-latency.js';

export interface InspectorMethodDeps {
  driver: Queryable;
  now(): number;
  latency: RecallLatency;
}

export function inspectorHandlers(deps: InspectorMethodDeps): Handlers<'memory.browse' | 'health.history'> {
  return {
    'memory.browse': (p) => browseMemories(deps.driver, p),
    'health.history': (p, ctx) =>
      healthHistory(deps.driver, p, { now: deps.now(), principal: ctx.principal, latency: deps.latency }),
  };
}
