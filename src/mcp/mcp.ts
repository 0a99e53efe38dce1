// The MCP face: one McpServer per session with the catalog's tools, the resources and the prompt,
// built with the official SDK; stdio.ts and http.ts give it a transport and an owner.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { METHODS } from '../protocol/catalog.js';
import type { MethodSpec } from '../protocol/method.js';
import { VERSION } from '../version.js';
import { ADAPTERS } from './adapters.js';
import { INSTRUCTIONS, registerPrompt } from './prompt.js';
import type { ResourceWatch, ResourceWatchOptions } from './resource-watch.js';
import { registerResources } from './resources.js';
import { registerTools, type McpContext } from './tools.js';

export type { McpContext } from './tools.js';

export interface McpServerOptions extends McpContext {
  /** Default: the catalog. */
  methods?: Readonly<Record<string, MethodSpec>>;
  /**
   * Resource subscriptions and change notices, for a transport that stays open (stdio); a stateless
   * HTTP exchange ends with its answer, so it has none.
   */
  watch?: ResourceWatchOptions;
}

export function createMcpServer(options: McpServerOptions): McpServer {
  const { methods: given, watch, ...base } = options;
  const methods: Readonly<Record<string, MethodSpec>> = given ?? METHODS;
  const server = new McpServer(
    { name: 'mnemo', title: 'mnemo memory', version: VERSION },
    {
      instructions: INSTRUCTIONS,
      capabilities: {
        tools: {},
        resources: watch ? { subscribe: true, listChanged: true } : {},
        prompts: {},
      },
    },
  );
  let watcher: ResourceWatch | null = null;
  // invariant: a write through this server announces its resource changes before its tool answers (test:
  // test/mcp-resources.test.ts "tells a subscriber when its object changes through `link`…").
  const ctx: McpContext = {
    ...base,
    call: async (method, params) => {
      const result = await base.call(method, params);
      if (methods[method]?.access === 'write') await watcher?.check();
      return result;
    },
  };
  registerTools(server, ctx, methods, ADAPTERS);
  watcher = registerResources(server, ctx, undefined, watch);
  registerPrompt(server);
  const closed = server.server.onclose;
  server.server.onclose = () => {
    watcher?.close();
    closed?.();
  };
  return server;
}
