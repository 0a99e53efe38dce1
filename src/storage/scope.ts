// Which owners the statements of the current call may see, carried across awaits: the PostgreSQL engine
// gives it to row-level security as a second wall behind the owner filter of every query.
import { AsyncLocalStorage } from 'node:async_hooks';

/** `*`: every owner; otherwise exact owners and `prefix/*` patterns. */
export type OwnerScope = '*' | readonly string[];

const current = new AsyncLocalStorage<OwnerScope>();

/** Runs `fn` with its statements limited to `scope`. */
export const withOwnerScope = <T>(scope: OwnerScope, fn: () => T): T => current.run(scope, fn);

/** The scope of the running call; every owner outside one (mnemo's own workers, migrations). */
export const ownerScope = (): OwnerScope => current.getStore() ?? '*';

/** The scope as PostgreSQL's `mnemo.owners` setting holds it. */
export const scopeSetting = (scope: OwnerScope): string => (scope === '*' ? '*' : JSON.stringify(scope));
