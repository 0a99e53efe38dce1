// What a method is: a name, its metadata, a params schema, a handler and a result schema.
import type { z } from 'zod';
import type { Principal } from './principal.js';

export interface CallContext {
  transport: 'socket' | 'http' | 'mcp' | 'local';
  /** Who calls: decides which owners the call may touch (never taken from params). */
  principal: Principal;
}

/**
 * How a method finds the owner it touches, checked where the call enters the table:
 * - `param`: `params.owner`, required;
 * - `optional`: `params.owner`, or every owner when absent (only for principals allowed all owners);
 * - `resource`: the owner of a resource named in params (a batch); the handler checks it;
 * - `none`: no owner's data (health, text checks).
 */
export type OwnerRule = 'param' | 'optional' | 'resource' | 'none';

/**
 * - `read`: changes nothing;
 * - `write`: a client's write: background workers yield to it, and per connection writes commit in the
 *   order they were sent;
 * - `background`: writes done on behalf of background work (external observers); ordered like writes
 *   but never yielded to.
 */
export type Access = 'read' | 'write' | 'background';

export interface MethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  summary: string;
  params: P;
  result: R;
  access: Access;
  owner: OwnerRule;
  /** `all`: only principals allowed every owner may call it (token administration); others get FORBIDDEN. */
  callers?: 'all';
  /** An HTTP route of its own besides POST /rpc. */
  http?: { method: 'GET' | 'POST'; path: string };
  /** The MCP tool that exposes it. */
  mcp?: string;
  /** It deletes for real (memory.forget): its MCP tool says so (destructiveHint). */
  destructive?: true;
}

export type Handler<S extends MethodSpec> = (
  params: z.output<S['params']>,
  ctx: CallContext,
) => Promise<z.input<S['result']>>;

export interface MethodDef<
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> extends MethodSpec<P, R> {
  name: string;
  handler: (params: z.output<P>, ctx: CallContext) => Promise<z.input<R>>;
}

export const defineMethod = <P extends z.ZodType, R extends z.ZodType>(
  def: MethodDef<P, R>,
): MethodDef<P, R> => def;

export const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

export type MethodTable = ReadonlyMap<string, MethodDef>;
