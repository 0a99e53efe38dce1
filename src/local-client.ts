// An in-process client over the method table: the same envelopes as the wire, without a socket.
import { MemoryError } from './errors.js';
import { handleEnvelope, type HandleOptions } from './protocol/envelope.js';
import type { MethodTable } from './protocol/method.js';
import { LOCAL_PRINCIPAL, type Principal } from './protocol/principal.js';

export interface LocalClient {
  call<T = unknown>(method: string, params?: unknown): Promise<T>;
}

export function createLocalClient(
  table: MethodTable,
  options: HandleOptions & { principal?: Principal } = {},
): LocalClient {
  let seq = 0;
  return {
    async call<T>(method: string, params?: unknown): Promise<T> {
      const response = await handleEnvelope(
        table,
        { id: ++seq, method, params },
        { transport: 'local', principal: options.principal ?? LOCAL_PRINCIPAL },
        options,
      );
      if (response.ok) return response.result as T;
      throw new MemoryError(response.error.code, response.error.message, response.error.data);
    },
  };
}
