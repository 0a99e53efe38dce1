// What a method is: a name, a params schema, a handler and a result schema.
import type { z } from 'zod';

export interface CallContext {
  transport: 'socket' | 'http' | 'mcp' | 'local';
}

export interface MethodDef<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  name: string;
  summary: string;
  params: P;
  result: R;
  handler: (params: z.output<P>, ctx: CallContext) => Promise<z.input<R>>;
}

export const defineMethod = <P extends z.ZodType, R extends z.ZodType>(
  def: MethodDef<P, R>,
): MethodDef<P, R> => def;

export type MethodTable = ReadonlyMap<string, MethodDef>;
