// How the CLI reaches mnemo: a server's HTTP address when given (--url), else the running server's socket,
// or the store opened directly when none runs. Each is the typed client of `mnemo-memory/client`.
import type { Config } from '../config.js';
import { probeSocket } from '../client.js';
import { connect as connectServer } from '../connect.js';
import { createLocalClient } from '../local-client.js';
import { createMemoryClient, type MemoryClient } from '../memory-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { openMemory } from '../service.js';

export interface CliConnection extends MemoryClient {
  mode: 'server' | 'direct';
  /** The socket path or URL of the server, in server mode. */
  via: string | null;
}

const TIMEOUT_MS = 120_000;

export async function connect(config: Config): Promise<CliConnection> {
  if (config.serverUrl) {
    const client = connectServer({
      url: config.serverUrl,
      timeoutMs: TIMEOUT_MS,
      ...(config.httpToken ? { token: config.httpToken } : { dataDir: config.dataDir }),
    });
    return Object.assign(client, { mode: 'server' as const, via: config.serverUrl });
  }
  if (await probeSocket(config.socketPath)) {
    const client = connectServer({ socket: config.socketPath, timeoutMs: TIMEOUT_MS });
    return Object.assign(client, { mode: 'server' as const, via: config.socketPath });
  }
  const service = await openMemory({ config });
  const local = createLocalClient(createMethodTable(service));
  const client = createMemoryClient(
    { call: (method, params) => local.call(method, params), close: () => service.close() },
    { target: 'in-process', timeoutMs: 0 },
  );
  return Object.assign(client, { mode: 'direct' as const, via: null });
}
