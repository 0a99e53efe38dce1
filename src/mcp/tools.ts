// MCP tools derived from the method catalog: each method with an `mcp` name is a tool. An adapter may
// shape a tool's arguments and results (short heads); without one, the method's own schemas serve, minus
// `owner`. So a method a later issue declares with an `mcp` name is a tool as soon as it exists.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ERROR_CODES, isMemoryError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Access, MethodSpec } from '../protocol/method.js';

export interface McpContext {
  /** The owner every call acts for: from the configuration or the token's scope. */
  owner: string;
  call(method: string, params: unknown): Promise<unknown>;
  /** How this MCP server reaches the store: `server` (its socket), `direct` (the store opened), `http`. */
  via: string;
  log?: Logger;
}

export interface ToolOutput {
  structured: Record<string, unknown>;
  /** What a model reads: compact lines, not the JSON. */
  text: string;
}

export interface ToolAdapter {
  title: string;
  /** Tells the model when to call the tool. */
  description: string;
  /** Default: the method's params without `owner`. */
  input?: z.ZodObject;
  output: z.ZodObject;
  annotations?: ToolAnnotations;
  run(args: Record<string, unknown>, ctx: McpContext): Promise<ToolOutput>;
}

/** The hints a method's access implies, and whether it deletes (`destructive` in the catalog). */
export function annotationsOf(access: Access, destructive = false): ToolAnnotations {
  const read = access === 'read';
  return { readOnlyHint: read, destructiveHint: destructive, idempotentHint: read, openWorldHint: false };
}

/** The params a model may give: the method's, without `owner`. */
export function toolInput(params: z.ZodType): z.ZodObject | null {
  if (!(params instanceof z.ZodObject)) return null;
  return 'owner' in params.shape ? params.omit({ owner: true }) : params;
}

/**
 * invariant: every call a tool makes acts for the session's owner, set after the model's arguments (the
 * adapters do the same), so no argument can name another (test: test/mcp.test.ts "a tool cannot reach
 * another owner…").
 */
export const withOwner = (spec: MethodSpec, args: Record<string, unknown>, owner: string) =>
  spec.owner === 'param' || spec.owner === 'optional' ? { ...args, owner } : args;

function genericAdapter(method: string, spec: MethodSpec): ToolAdapter | null {
  const input = toolInput(spec.params);
  if (!input) return null;
  const output = spec.result instanceof z.ZodObject ? spec.result : z.object({ result: spec.result });
  return {
    title: method,
    description: spec.summary,
    input,
    output,
    async run(args, ctx) {
      const result = await ctx.call(method, withOwner(spec, args, ctx.owner));
      const structured =
        spec.result instanceof z.ZodObject ? (result as Record<string, unknown>) : { result };
      return { structured, text: JSON.stringify(result) };
    },
  };
}

/** Whether both schemas become JSON Schema (a transform on the output side cannot). */
function representable(adapter: ToolAdapter): boolean {
  try {
    if (adapter.input) z.toJSONSchema(adapter.input, { io: 'input' });
    z.toJSONSchema(adapter.output, { io: 'output' });
    return true;
  } catch {
    return false;
  }
}

export const toolError = (error: unknown): CallToolResult => ({
  isError: true,
  content: [
    {
      type: 'text',
      // An internal error reaches the log, never the model.
      text: isMemoryError(error) ? `${error.code}: ${error.message}` : `INTERNAL: ${ERROR_CODES.INTERNAL}`,
    },
  ],
});

export function registerTools(
  server: McpServer,
  ctx: McpContext,
  methods: Readonly<Record<string, MethodSpec>>,
  adapters: Readonly<Record<string, ToolAdapter>>,
): string[] {
  const names: string[] = [];
  for (const [method, spec] of Object.entries(methods)) {
    if (spec.mcp === undefined) continue;
    const adapter = adapters[spec.mcp] ?? genericAdapter(method, spec);
    if (!adapter || !representable(adapter)) {
      ctx.log?.warn({ method, tool: spec.mcp }, 'mcp tool left out: its schemas have no JSON Schema');
      continue;
    }
    const input = adapter.input ?? toolInput(spec.params) ?? z.object({});
    server.registerTool(
      spec.mcp,
      {
        title: adapter.title,
        description: adapter.description,
        inputSchema: input,
        outputSchema: adapter.output,
        annotations: { ...annotationsOf(spec.access, spec.destructive), ...adapter.annotations },
      },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const out = await adapter.run(args, ctx);
          return { structuredContent: out.structured, content: [{ type: 'text', text: out.text }] };
        } catch (error) {
          if (!isMemoryError(error)) ctx.log?.error({ err: error, tool: spec.mcp }, 'mcp tool failed');
          return toolError(error);
        }
      },
    );
    names.push(spec.mcp);
  }
  return names;
}
