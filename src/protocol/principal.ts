// Who a call acts for: every owner (the 0600 socket, an all-owners token, mnemo's own workers) or the
// owners a scoped token's patterns allow. It travels in the call context, never in params.
import { MemoryError } from '../errors.js';

export type Principal =
  | { kind: 'all'; name: string }
  | {
      kind: 'scoped';
      name: string;
      /** Exact owners, or prefixes written `team:acme/*` (every owner starting with `team:acme/`). */
      owners: readonly string[];
    };

export const allOwners = (name: string): Principal => Object.freeze({ kind: 'all', name });

/** The principal of the socket, the in-process client and mnemo's own workers. */
export const LOCAL_PRINCIPAL = allOwners('local');

export function matchesOwnerPattern(pattern: string, owner: string): boolean {
  return pattern.endsWith('/*') ? owner.startsWith(pattern.slice(0, -1)) : owner === pattern;
}

export function allows(principal: Principal, owner: string): boolean {
  if (principal.kind === 'all') return true;
  return principal.owners.some((pattern) => matchesOwnerPattern(pattern, owner));
}

/** The same answer whether or not the owner exists: nothing is learnt about other owners. */
export const forbidden = (): MemoryError =>
  new MemoryError('FORBIDDEN', 'this credential may not act for that owner');

/**
 * invariant: a call touches only owners its principal allows; a call without an owner only comes from a
 * principal allowed all owners (test: src/protocol/envelope.test.ts "owner scope").
 */
export function assertOwner(principal: Principal, owner: string | undefined): void {
  if (owner === undefined ? principal.kind !== 'all' : !allows(principal, owner)) throw forbidden();
}
