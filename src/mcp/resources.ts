// MCP resources: a list that later issues extend (core documents, each object's Markdown under a URI
// template, with change notifications); today mnemo://status and mnemo://snapshot.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { MethodResult } from '../protocol/catalog.js';
import { readStatus } from './adapters.js';
import type { McpContext } from './tools.js';

export interface McpResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  read(ctx: McpContext): Promise<string>;
}

export const RESOURCES: readonly McpResource[] = [
  {
    uri: 'mnemo://status',
    name: 'status',
    title: 'Memory status',
    description: 'Whether mnemo is up, its version and schema, and the owner this server acts for (JSON).',
    mimeType: 'application/json',
    read: async (ctx) => JSON.stringify(await readStatus(ctx), null, 2),
  },
  {
    uri: 'mnemo://snapshot',
    name: 'snapshot',
    title: 'Memory snapshot',
    description:
      'The bounded memory snapshot of the owner this server acts for (USER, MEMORY, KEY, Project Context, ' +
      'Recent Daily within fixed caps), as memory.snapshot renders it without a session or directory.',
    mimeType: 'text/markdown',
    read: async (ctx) =>
      ((await ctx.call('memory.snapshot', { owner: ctx.owner })) as MethodResult<'memory.snapshot'>).text,
  },
];

export function registerResources(
  server: McpServer,
  ctx: McpContext,
  resources: readonly McpResource[] = RESOURCES,
): void {
  for (const r of resources) {
    server.registerResource(
      r.name,
      r.uri,
      { title: r.title, description: r.description, mimeType: r.mimeType },
      async (uri) => ({ contents: [{ uri: uri.href, mimeType: r.mimeType, text: await r.read(ctx) }] }),
    );
  }
}
