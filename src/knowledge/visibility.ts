// What recall may return of a memory: revoked never; superseded and retired only when asked for; with
// `as_of`, exactly what was valid at that time. Of an object: revoked never.
import { z } from 'zod';
import { TimeSchema } from '../ingest/schema.js';
import type { Queryable } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';

/** The params recall adds: `RecallParamsSchema = z.object({ …, ...RECALL_VISIBILITY_PARAMS })`. */
export const RECALL_VISIBILITY_PARAMS = {
  /** Superseded and retired memories too (revoked ones never). */
  include_superseded: z.boolean().optional(),
  /** What was valid at this time: valid_from <= as_of < valid_to. */
  as_of: TimeSchema.optional(),
};

export interface VisibilityOptions {
  asOf?: number | undefined;
  includeSuperseded?: boolean | undefined;
}

export const visibilityOf = (params: {
  as_of?: number;
  include_superseded?: boolean;
}): VisibilityOptions => ({
  asOf: params.as_of,
  includeSuperseded: params.include_superseded,
});

export const VisibilityRow = row({
  memory_id: str,
  status: str,
  lifecycle: nstr,
  at: int,
  valid_from: nint,
  valid_to: nint,
});
export type VisibilityRow = z.output<typeof VisibilityRow>;

const HIDDEN_BY_DEFAULT: ReadonlySet<string> = new Set(['superseded', 'retired', 'deprecated']);

/**
 * invariant: a revoked memory never reaches recall, and a superseded or retired one only when asked for
 * (test: src/knowledge/visibility.test.ts).
 */
export function visibleMemory(
  m: Pick<VisibilityRow, 'status' | 'lifecycle' | 'at' | 'valid_from' | 'valid_to'>,
  options: VisibilityOptions = {},
): boolean {
  if (m.status === 'revoked' || m.lifecycle === 'revoked') return false;
  if (options.asOf !== undefined) {
    const from = m.valid_from ?? m.at;
    return from <= options.asOf && (m.valid_to === null || options.asOf < m.valid_to);
  }
  return options.includeSuperseded === true || !HIDDEN_BY_DEFAULT.has(m.lifecycle ?? m.status);
}

/** The rows visibleMemory needs, for memories of one owner by id. */
export async function memoryVisibility(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<Map<string, VisibilityRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all(
    VisibilityRow,
    `SELECT memory_id, status, lifecycle, at, valid_from, valid_to FROM memories
      WHERE owner = ? AND memory_id IN (${ids.map(() => '?').join(', ')})`,
    [owner, ...ids],
  );
  return new Map(rows.map((r) => [r.memory_id, r]));
}

export const ObjectVisibilityRow = row({ object_id: str, status: str, revoked_at: nint });
export type ObjectVisibilityRow = z.output<typeof ObjectVisibilityRow>;

/**
 * invariant: a revoked object never reaches recall (nor find, browse or read); archived ones are for the
 * caller to choose (test: src/knowledge/revoke-object.test.ts).
 */
export const visibleObject = (o: Pick<ObjectVisibilityRow, 'revoked_at'>): boolean => o.revoked_at === null;

/** The rows visibleObject needs, for objects of one owner by id. */
export async function objectVisibility(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<Map<string, ObjectVisibilityRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all(
    ObjectVisibilityRow,
    `SELECT object_id, status, revoked_at FROM objects
      WHERE owner = ? AND object_id IN (${ids.map(() => '?').join(', ')})`,
    [owner, ...ids],
  );
  return new Map(rows.map((r) => [r.object_id, r]));
}
