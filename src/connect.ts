// `import { connect } from 'mnemo-memory/client'`: a typed client for a running mnemo, over its Unix socket
// or HTTP. It connects on the first call; see memory-client.ts for timeouts and resends.
import { join } from 'node:path';
import { createHttpClient, createSocketClient } from './client.js';
import { loadConfig } from './config.js';
import { createMemoryClient, type MemoryClient, type RetryOptions } from './memory-client.js';

export { MemoryError, isMemoryError, ERROR_CODES, type ErrorCode } from './errors.js';
export type { MethodName, MethodParams, MethodResult } from './protocol/catalog.js';
export type { MemoryClient, ParamsArg, RetryEvent, RetryOptions } from './memory-client.js';

interface CommonOptions {
  /** For each call, resends included; 0 waits forever (default 30 s). */
  timeoutMs?: number;
  retry?: RetryOptions;
}

export type ConnectOptions = CommonOptions &
  (
    | { socket: string }
    /** HTTP; the token is `token`, else read from `<dataDir>/http-token`, else MNEMO_HTTP_TOKEN or the
     * default data directory's file. */
    | { url: string; token?: string; dataDir?: string }
    /** The socket of the server whose data directory this is (default: MNEMO_HOME or ~/.mnemo). */
    | { dataDir?: string }
  );

const DEFAULT_TIMEOUT_MS = 30_000;

export function connect(options: ConnectOptions = {}): MemoryClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const common = { timeoutMs, ...(options.retry ? { retry: options.retry } : {}) };
  if ('socket' in options) {
    return createMemoryClient(createSocketClient(options.socket, { timeoutMs }), {
      ...common,
      target: options.socket,
    });
  }
  if ('url' in options) {
    const { token, dataDir } = options;
    const config = token === undefined && dataDir === undefined ? loadConfig() : null;
    const found = token ?? config?.httpToken;
    const http = createHttpClient(options.url, {
      timeoutMs,
      ...(found === undefined ? { dataDir: dataDir ?? config?.dataDir } : { token: found }),
    });
    return createMemoryClient(http, { ...common, target: options.url });
  }
  const socket =
    options.dataDir === undefined ? loadConfig().socketPath : join(options.dataDir, 'mnemo.sock');
  return createMemoryClient(createSocketClient(socket, { timeoutMs }), { ...common, target: socket });
}
