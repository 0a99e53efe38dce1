// The organize and chain methods' handlers.
import type { Handlers } from '../protocol/catalog.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { createOrganize, type ChainStatus, type OrganizeDeps } from './organize.js';
import type { ORGANIZE_METHODS } from './specs.js';

export { ORGANIZE_WORKER } from './worker.js';

export interface OrganizeMethodDeps {
  driver: Driver;
  redactor: Redactor;
  now(): number;
  config: OrganizeDeps['config'] & { dataDir: string; organizer?: 'builtin' | 'external' | undefined };
  /** Whether mnemo's own organize worker defers to client writes now; undefined when none runs. */
  deferring?: () => boolean | undefined;
  /** The Markdown projection's health, for memory.chain.status. */
  projectionHealth?: (owner?: string) => Promise<NonNullable<ChainStatus['projection']>>;
}

export function organizeHandlers(service: OrganizeMethodDeps): Handlers<keyof typeof ORGANIZE_METHODS> {
  const organize = createOrganize({
    driver: service.driver,
    redactor: service.redactor,
    now: () => service.now(),
    dataDir: service.config.dataDir,
    config: service.config,
  });
  return {
    'memory.chain.context': (p) => organize.context(p),
    'memory.chain.expand': (p) => organize.expand(p),
    'memory.chain.status': async (p) => {
      const status = await organize.status(p.owner);
      const deferring = service.deferring?.();
      return {
        ...status,
        ...(service.config.organizer ? { organizer: service.config.organizer } : {}),
        ...(deferring === undefined ? {} : { deferring_to_clients: deferring }),
        ...(service.projectionHealth ? { projection: await service.projectionHealth(p.owner) } : {}),
      };
    },
    'memory.chain.tick': (p) => organize.tick(p.owner),
    'memory.chain.core.bootstrap': (p) => organize.core.bootstrap(p),
    'memory.chain.core.update': (p) => organize.core.update(p),
    'memory.chain.core.get': (p) => organize.core.get(p),
    'memory.organize.request': (p) => organize.request(p),
    'memory.organize.claim': async (p) => (await organize.claim(p)) ?? { job_id: null },
    'memory.organize.commit': async (p) => ({ receipt: await organize.commit(p) }),
    'memory.organize.fail': (p) => organize.fail(p),
    'memory.organize.inspect': (p) => organize.inspect(p),
    'memory.organize.notices': (p) => organize.notices(p),
  };
}
