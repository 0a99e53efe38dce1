// The projection's background sweep: every few seconds, what any process changed (the observation worker's
// publishes, another server's writes) reaches the files; yields to client writes like every worker.
import type { TurnGate } from '../activity.js';
import { createBackgroundLoop, type BackgroundLoop } from '../background.js';
import type { Logger } from '../log.js';
import { syncChanges } from './sweep.js';
import type { ProjectionDeps } from './sync.js';

export const PROJECTION_WORKER = 'projection';

export function createProjectionWorker(
  deps: ProjectionDeps,
  options: { log: Logger; everyMs?: number; gate?: TurnGate },
): BackgroundLoop {
  const everyMs = options.everyMs ?? 5_000;
  return createBackgroundLoop({
    name: 'projection sweep',
    log: options.log,
    step: async () => {
      const r = await syncChanges(deps);
      if (r.failed > 0) options.log.warn(r, 'some object files could not be written');
      return everyMs;
    },
    errorPauseMs: everyMs,
    ...(options.gate ? { gate: options.gate } : {}),
  });
}
