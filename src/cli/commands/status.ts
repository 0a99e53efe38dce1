// `mnemo status`: is a server running, where is the data, how much is stored.
import type { Config } from '../../config.js';
import type { EmbeddingStatus } from '../../embed/embed.js';
import { connect } from '../client.js';

function vectorsLine(e: EmbeddingStatus): string {
  const dims = e.dimensions === null ? 'dimension not known yet' : `${e.dimensions} dimensions`;
  const failing = e.failures > 0 ? `; ${e.failures} failed call(s), last: ${e.last_error ?? '?'}` : '';
  return `vectors: ${e.embedded} embedded, ${e.pending} pending (${e.model}, ${dims})${failing}`;
}

export async function statusCommand(
  config: Config,
  json: boolean,
  out: NodeJS.WritableStream,
): Promise<number> {
  const conn = await connect(config);
  try {
    const health = await conn.call('health');
    const status = {
      server: conn.mode === 'server' ? 'running' : 'not running',
      socket: config.socketPath,
      ...health,
    };
    if (json) out.write(`${JSON.stringify(status)}\n`);
    else {
      out.write(
        [
          `server:  ${status.server}${conn.via ? ` (${conn.via})` : ''}`,
          `data:    ${health.data_dir ?? config.dataDir}`,
          `version: ${health.version} (schema ${health.schema_version})`,
          ...(health.counts
            ? [`events:  ${health.counts.events} from ${health.counts.owners} owner(s)`]
            : []),
          ...(health.embedding ? [vectorsLine(health.embedding)] : []),
          '',
        ].join('\n'),
      );
    }
    return 0;
  } finally {
    await conn.close();
  }
}
