// The writes that settle a session's write guard: memory.track.add and memory.todo.add that added an entry,
// memory.chain.upsert that created an object or a relation, each naming its session_id. A suggestion adds
// nothing to memory until a person approves it, and a restated entry adds nothing: neither settles it.
import type { Handlers } from '../protocol/catalog.js';
import type { Driver } from '../storage/driver.js';
import { resetGuard } from './write-guard.js';

type Guarded = 'memory.track.add' | 'memory.todo.add' | 'memory.chain.upsert';

export interface GuardWriteDeps {
  driver: Driver;
  now(): number;
  /** Off (null): nothing is counted, nothing settled. */
  threshold: number | null;
}

export function guardWrites(h: Handlers<Guarded>, deps: GuardWriteDeps): Handlers<Guarded> {
  if (deps.threshold === null) return h;
  const settle = async (owner: string, session: string | undefined, added: boolean) => {
    if (session === undefined || !added) return;
    await deps.driver.transaction((tx) => resetGuard(tx, owner, session, deps.now()));
  };
  return {
    'memory.track.add': async (p, ctx) => {
      const out = await h['memory.track.add'](p, ctx);
      await settle(p.owner, p.session_id, out.added);
      return out;
    },
    'memory.todo.add': async (p, ctx) => {
      const out = await h['memory.todo.add'](p, ctx);
      await settle(p.owner, p.session_id, out.added);
      return out;
    },
    'memory.chain.upsert': async (p, ctx) => {
      const out = await h['memory.chain.upsert'](p, ctx);
      const created = out.objects.some((o) => o.created) || out.relations.some((r) => r.created);
      await settle(p.owner, p.session_id, created);
      return out;
    },
  };
}
