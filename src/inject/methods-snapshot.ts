// The snapshot's methods: memory.snapshot (the bounded snapshot) and memory.context.fit (the host's budget).
import type { Handlers } from '../protocol/catalog.js';
import { fitContext } from './context-fit.js';
import { buildSnapshot, type SnapshotDeps } from './snapshot.js';

export function snapshotHandlers(deps: SnapshotDeps): Handlers<'memory.snapshot' | 'memory.context.fit'> {
  return {
    'memory.snapshot': (p) => buildSnapshot(deps, p),
    'memory.context.fit': async (p) => fitContext(p),
  };
}
