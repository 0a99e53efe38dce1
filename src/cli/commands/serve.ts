// `mnemo serve`: run the service until SIGINT/SIGTERM, then drain and exit.
import type { Config } from '../../config.js';
import { createLogger } from '../../log.js';
import { startServer } from '../../server.js';
import { VERSION } from '../../version.js';

/** Where the HTTP token is; never the token itself. */
function tokenLine(config: Config, file: string | null): string {
  if (file) return file;
  return config.httpAuth === 'off' ? 'none (MNEMO_HTTP_AUTH=off)' : 'MNEMO_HTTP_TOKEN';
}

export async function serveCommand(config: Config, out: NodeJS.WritableStream): Promise<number> {
  const log = createLogger(config.logLevel);
  const server = await startServer(config, log);
  out.write(
    [
      `mnemo ${VERSION} is running`,
      `  data:   ${config.dataDir}`,
      `  socket: ${server.socket.path}`,
      `  http:   ${server.http ? server.http.url : 'off'}`,
      ...(server.http
        ? [`  token:  ${tokenLine(config, server.httpTokenFile)}`, `  inspector: ${server.http.url}/`]
        : []),
      '',
    ].join('\n'),
  );
  log.info(
    { dataDir: config.dataDir, socket: server.socket.path, http: server.http?.url ?? null },
    'listening',
  );
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'stopping: finishing acknowledged work');
      server.close().then(
        () => {
          out.write(`mnemo stopped (${signal})\n`);
          resolve(0);
        },
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
