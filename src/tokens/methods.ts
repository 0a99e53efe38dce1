// The token methods' handlers: create, list, revoke (only for principals allowed every owner; the
// catalog's `callers: 'all'` enforces it).
import type { Handlers } from '../protocol/catalog.js';
import type { Queryable } from '../storage/driver.js';
import { createToken, listTokens, revokeToken } from './tokens.js';

export interface TokenMethodDeps {
  driver: Queryable;
  now(): number;
}

export const tokenHandlers = (
  deps: TokenMethodDeps,
): Handlers<'tokens.create' | 'tokens.list' | 'tokens.revoke'> => ({
  'tokens.create': (p) => createToken(deps.driver, p, deps.now()),
  'tokens.list': async () => ({ tokens: await listTokens(deps.driver) }),
  'tokens.revoke': (p) => revokeToken(deps.driver, p.id, deps.now()),
});
