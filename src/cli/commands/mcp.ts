// `mnemo mcp`: MCP over stdio for one owner (--owner, MNEMO_OWNER). stdout carries the protocol alone and
// logs go to stderr; it talks to the running server over its socket, or opens the store directly.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from '../../config.js';
import { createLogger } from '../../log.js';
import { createMcpServer } from '../../mcp/mcp.js';
import { connect } from '../client.js';

/** How often `mnemo mcp` looks for changes to subscribed resources made by other writers. */
export const DEFAULT_WATCH_MS = 2_000;

export async function mcpCommand(
  config: Config,
  io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream } = process,
  options: { watchMs?: number } = {},
): Promise<number> {
  // invariant: nothing but MCP messages reaches stdout; logs go to stderr (test: test/mcp-stdio.test.ts).
  const log = createLogger(config.logLevel);
  const conn = await connect(config);
  const owner = config.defaultOwner;
  const server = createMcpServer({
    owner,
    call: (m, p) => conn.call(m, p),
    via: conn.mode,
    log,
    watch: { intervalMs: options.watchMs ?? DEFAULT_WATCH_MS },
  });
  const transport = new StdioServerTransport(io.stdin as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream);
  const ended = new Promise<string>((resolve) => {
    transport.onclose = () => resolve('transport closed');
    io.stdin.once('end', () => resolve('stdin ended'));
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  await server.connect(transport);
  log.info({ owner, via: conn.mode, target: conn.via }, 'mcp serving on stdio');
  const why = await ended;
  log.info({ why }, 'mcp stopping');
  await server.close();
  await conn.close();
  return 0;
}
