// The MCP face: one McpServer per session with the catalog's tools, the resources and the prompt,
// built with the official SDK; stdio.ts and http.ts give it a transport and an owner.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { METHODS } from '../protocol/catalog.js';
import type { MethodSpec } from '../protocol/method.js';
import { VERSION } from '../version.js';
import { ADAPTERS } from './adapters.js';
import { INSTRUCTIONS, registerPrompt } from './prompt.js';
import { registerResources } from './resources.js';
import { registerTools, type McpContext } from './tools.js';

export type { McpContext } from './tools.js';

export interface McpServerOptions extends McpContext {
  /** Default: the catalog. */
  methods?: Readonly<Record<string, MethodSpec>>;
}

export function createMcpServer(options: McpServerOptions): McpServer {
  const { methods = METHODS, ...ctx } = options;
  const server = new McpServer(
    { name: 'mnemo', title: 'mnemo memory', version: VERSION },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  registerTools(server, ctx, methods, ADAPTERS);
  registerResources(server, ctx);
  registerPrompt(server);
  return server;
}
