// A memory's life: the fine-grained `lifecycle` every answer reports, the coarse `status` recall has always
// read, and who stated it (`origin`), which decides whether a newer statement may replace an older one.

/** Facts: candidate → active → superseded | retired | revoked; procedures and skills have their own stages. */
export const LIFECYCLES = [
  'candidate',
  'active',
  'superseded',
  'retired',
  'revoked',
  'observed',
  'validated',
  'deprecated',
  'draft',
] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

export type CoarseStatus = 'candidate' | 'active' | 'deprecated' | 'revoked';

/** The coarse status stored beside a lifecycle (the `status` CHECK constraint cannot grow on SQLite). */
export function coarseStatus(lifecycle: Lifecycle): CoarseStatus {
  switch (lifecycle) {
    case 'active':
    case 'revoked':
    case 'deprecated':
    case 'candidate':
      return lifecycle;
    case 'superseded':
    case 'retired':
      return 'deprecated';
    default:
      return 'candidate';
  }
}

/** What every answer calls the item's status: its lifecycle where it has one. */
export const reportedStatus = (row: { status: string; lifecycle: string | null }): Lifecycle => {
  const state = row.lifecycle ?? row.status;
  return LIFECYCLES.find((l) => l === state) ?? 'candidate';
};

export const isRevoked = (row: { status: string; lifecycle: string | null }): boolean =>
  row.status === 'revoked' || row.lifecycle === 'revoked';

export const ORIGINS = ['user', 'host', 'agent', 'tool', 'inference'] as const;
export type Origin = (typeof ORIGINS)[number];

/** A user's explicit statement outranks a host's write, which outranks an agent's, a tool's or an inference. */
export const originRank = (origin: string | null): number =>
  origin === 'user' ? 3 : origin === 'host' ? 2 : 1;

const ROLE_ORIGIN: Readonly<Record<string, Origin>> = {
  user: 'user',
  system: 'host',
  agent: 'agent',
  tool: 'tool',
};
const ROLE_ORDER = ['user', 'system', 'agent', 'tool'];

/** Who stated a memory, from its source events' roles: the highest-ranked one (as migration 0010 does). */
export function originOf(roles: readonly string[]): Origin | null {
  const role = ROLE_ORDER.find((r) => roles.includes(r));
  return role === undefined ? null : (ROLE_ORIGIN[role] ?? null);
}
