// How the CLI reaches mnemo: the running server's socket, or the store opened directly when none runs.
import type { Config } from '../config.js';
import { createSocketClient, probeSocket, type MnemoClient } from '../client.js';
import { createLocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { openMemory } from '../service.js';

export interface CliConnection extends MnemoClient {
  mode: 'server' | 'direct';
}

export async function connect(config: Config): Promise<CliConnection> {
  if (await probeSocket(config.socketPath)) {
    const client = createSocketClient(config.socketPath, { timeoutMs: 120_000 });
    return { mode: 'server', call: client.call.bind(client), close: () => client.close() };
  }
  const service = await openMemory({ config });
  const local = createLocalClient(createMethodTable(service));
  return { mode: 'direct', call: local.call.bind(local), close: () => service.close() };
}
