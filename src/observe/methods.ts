// The observation methods' handlers: claim, commit, fail, status.
import type { Handlers } from '../protocol/catalog.js';
import { allows } from '../protocol/principal.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { createObservation, type ObserveOptions } from './observe.js';

export interface ObserveMethodDeps {
  driver: Driver;
  redactor: Redactor;
  now(): number;
  observe?: Partial<ObserveOptions>;
  timeZone?: string | undefined;
  /** Whether mnemo's own observation worker defers to client writes now; undefined when none runs. */
  deferring?: () => boolean | undefined;
}

type ObserveMethod =
  | 'memory.observation.claim'
  | 'memory.observation.commit'
  | 'memory.observation.fail'
  | 'memory.observation.status';

export function observeHandlers(service: ObserveMethodDeps): Handlers<ObserveMethod> {
  const observation = createObservation({
    driver: service.driver,
    redactor: service.redactor,
    now: () => service.now(),
    timeZone: service.timeZone,
    ...(service.observe ? { options: service.observe } : {}),
  });
  return {
    'memory.observation.claim': async (p) => (await observation.claim(p)) ?? { batch_id: null },
    // A batch of an owner outside the caller's scope answers like one that does not exist.
    'memory.observation.commit': async (p, ctx) => ({
      receipt: await observation.commit(p, (owner) => allows(ctx.principal, owner)),
    }),
    'memory.observation.fail': (p, ctx) => observation.fail(p, (owner) => allows(ctx.principal, owner)),
    'memory.observation.status': async (p) => {
      const status = await observation.status(p.owner);
      const deferring = service.deferring?.();
      return deferring === undefined ? status : { ...status, deferring_to_clients: deferring };
    },
  };
}
