// How the CLI reaches mnemo: a server's HTTP address when given (--url), else the running server's socket,
// or the store opened directly when none runs.
import type { Config } from '../config.js';
import { createHttpClient, createSocketClient, probeSocket, type MnemoClient } from '../client.js';
import { createLocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { openMemory } from '../service.js';

export interface CliConnection extends MnemoClient {
  mode: 'server' | 'direct';
  /** The socket path or URL of the server, in server mode. */
  via: string | null;
}

export async function connect(config: Config): Promise<CliConnection> {
  if (config.serverUrl) {
    const client = createHttpClient(config.serverUrl, {
      timeoutMs: 120_000,
      ...(config.httpToken ? { token: config.httpToken } : { dataDir: config.dataDir }),
    });
    return {
      mode: 'server',
      via: config.serverUrl,
      call: client.call.bind(client),
      close: () => client.close(),
    };
  }
  if (await probeSocket(config.socketPath)) {
    const client = createSocketClient(config.socketPath, { timeoutMs: 120_000 });
    return {
      mode: 'server',
      via: config.socketPath,
      call: client.call.bind(client),
      close: () => client.close(),
    };
  }
  const service = await openMemory({ config });
  const local = createLocalClient(createMethodTable(service));
  return { mode: 'direct', via: null, call: local.call.bind(local), close: () => service.close() };
}
