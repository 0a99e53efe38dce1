// MCP over streamable HTTP at /mcp, stateless: each POST gets a fresh server and transport, acting for the
// owner of the request's token. The HTTP face's Host, Origin and token checks run before this.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { MemoryError } from '../errors.js';
import type { Logger } from '../log.js';
import { handleEnvelope, type HandleOptions } from '../protocol/envelope.js';
import type { MethodTable } from '../protocol/method.js';
import type { Principal } from '../protocol/principal.js';
import { createMcpServer } from './mcp.js';

export interface McpHttpOptions {
  table: MethodTable;
  /** The owner of an all-owners token (the configured default owner, MNEMO_OWNER). */
  defaultOwner: string;
  maxBodyBytes: number;
  log: Logger;
  handleOptions?: HandleOptions;
}

export type McpHttpHandler = (request: Request, principal: Principal) => Promise<Response>;

/**
 * The one owner a principal's MCP session acts for: the default owner for an all-owners token, a scoped
 * token's single exact owner, else none (a token for several owners cannot say which one a model means).
 */
export function mcpOwner(principal: Principal, defaultOwner: string): string | null {
  if (principal.kind === 'all') return defaultOwner;
  const [only] = principal.owners;
  return principal.owners.length === 1 && only !== undefined && !only.endsWith('/*') ? only : null;
}

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  return async (request, principal) => {
    if (request.method !== 'POST') {
      return rpcError(405, -32000, 'this MCP endpoint is stateless: POST JSON-RPC messages', {
        allow: 'POST',
      });
    }
    const owner = mcpOwner(principal, options.defaultOwner);
    if (owner === null) return rpcError(403, -32000, 'MCP needs a token for exactly one owner');
    const call = async (method: string, params: unknown): Promise<unknown> => {
      const ctx = { transport: 'mcp' as const, principal };
      const response = await handleEnvelope(
        options.table,
        { id: null, method, params },
        ctx,
        options.handleOptions,
      );
      if (response.ok) return response.result;
      throw new MemoryError(response.error.code, response.error.message, response.error.data);
    };
    const server = createMcpServer({ owner, call, via: 'http', log: options.log });
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      maxRequestBodySize: options.maxBodyBytes,
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request);
      // JSON mode: the whole answer is known, so the session can end before it is sent.
      const body = response.body === null ? null : await response.text();
      return new Response(body, { status: response.status, headers: response.headers });
    } finally {
      await server.close();
    }
  };
}
