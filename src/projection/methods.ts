// The methods after which objects' files may differ from the database: once the call has answered (its
// transactions committed), what changed since it started reaches the files (the background sweep catches
// the rest); a file failure is logged and recorded, never turned into the call's error.
import type { Logger } from '../log.js';
import type { CallContext, MethodDef, MethodTable } from '../protocol/method.js';
import { syncCallChanges, syncChanges } from './sweep.js';
import type { ProjectionDeps } from './sync.js';

export const PROJECTED_METHODS: readonly string[] = [
  'memory.chain.upsert',
  'memory.chain.project_decision',
  'memory.observation.commit',
  'memory.revoke',
  'memory.facts.resolve',
  'memory.tick',
  'memory.todo.add',
  'memory.todo.update',
  'memory.track.add',
  'memory.track.archive',
  'memory.suggestions.decide',
];

export function projectAfterWrites(table: MethodTable, deps: ProjectionDeps, log: Logger): MethodTable {
  const out = new Map<string, MethodDef>(table);
  for (const name of PROJECTED_METHODS) {
    const def = table.get(name);
    if (!def) continue;
    const handler = def.handler;
    out.set(name, {
      ...def,
      handler: async (params: unknown, ctx: CallContext) => {
        const started = deps.now();
        const result = await handler(params, ctx);
        const owner = (params as { owner?: unknown }).owner;
        try {
          if (typeof owner === 'string') await syncCallChanges(deps, owner, started);
          else await syncChanges(deps);
        } catch (error) {
          log.warn({ err: error, method: name }, 'object files not brought up to date; the next sweep will');
        }
        return result;
      },
    });
  }
  return out;
}
