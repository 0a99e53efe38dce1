// Request envelopes shared by every transport: {id, method, params} → {id, ok, result | error}.
import { MemoryError } from '../errors.js';
import type { CallContext, MethodTable } from './method.js';
import { withOwnerScope } from '../storage/scope.js';
import { assertOwner } from './principal.js';
import { toWireError, zodIssues, type WireError } from './wire-errors.js';

export type RequestId = string | number | null;

export type RpcResponse =
  { id: RequestId; ok: true; result: unknown } | { id: RequestId; ok: false; error: WireError };

export const errorResponse = (id: RequestId, error: unknown): RpcResponse => ({
  id,
  ok: false,
  error: toWireError(error),
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function requestIdOf(raw: Record<string, unknown>): RequestId {
  const id = raw.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export interface HandleOptions {
  /** Validate results against their schema (tests turn this on). */
  checkResults?: boolean;
  onError?: (error: unknown, method: string) => void;
}

/** Runs one parsed request through the method table; never throws. */
export async function handleEnvelope(
  table: MethodTable,
  raw: unknown,
  ctx: CallContext,
  options: HandleOptions = {},
): Promise<RpcResponse> {
  if (!isObject(raw)) {
    return errorResponse(
      null,
      new MemoryError('INVALID_REQUEST', 'the request must be a JSON object {id, method, params}'),
    );
  }
  const id = requestIdOf(raw);
  if (raw.id !== undefined && raw.id !== null && id === null) {
    return errorResponse(
      null,
      new MemoryError('INVALID_REQUEST', 'id must be a string or a number', { field: 'id' }),
    );
  }
  if (typeof raw.method !== 'string' || raw.method.length === 0) {
    return errorResponse(
      id,
      new MemoryError('INVALID_REQUEST', 'method must be a non-empty string', { field: 'method' }),
    );
  }
  const def = table.get(raw.method);
  if (!def) {
    return errorResponse(
      id,
      new MemoryError('UNKNOWN_METHOD', `unknown method: ${raw.method}`, { method: raw.method }),
    );
  }
  const parsed = def.params.safeParse(raw.params ?? {});
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    const first = issues[0];
    const message = first ? `invalid params: ${first.path}: ${first.message}` : 'invalid params';
    return errorResponse(id, new MemoryError('INVALID_PARAMS', message, { issues }));
  }
  try {
    if (def.owner === 'param' || def.owner === 'optional') {
      assertOwner(ctx.principal, (parsed.data as { owner?: string }).owner);
    }
    // invariant: every statement of the call runs in its principal's owner scope, which PostgreSQL's
    // row-level security checks behind each query's own owner filter (test: src/storage/row-security.test.ts).
    const scope = ctx.principal.kind === 'all' ? '*' : ctx.principal.owners;
    const result = await withOwnerScope(scope, () => def.handler(parsed.data, ctx));
    if (options.checkResults) {
      const checked = def.result.safeParse(result);
      if (!checked.success) {
        throw new Error(
          `result of ${def.name} breaks its schema: ${JSON.stringify(zodIssues(checked.error))}`,
        );
      }
    }
    return { id, ok: true, result };
  } catch (error) {
    options.onError?.(error, def.name);
    return errorResponse(id, error);
  }
}
