// Change notifications: `notifications/resources/updated` for each subscribed URI whose revision moved,
// and `notifications/resources/list_changed` when the owner's object count moves. The store is polled
// (one count, plus one small read per subscribed URI) because other writers (the CLI, other agents,
// organize jobs) never pass through this server; a write through this server checks at once, before its
// tool answers, so its own change is announced without waiting for the next poll.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { isMemoryError } from '../errors.js';
import type { MethodResult } from '../protocol/catalog.js';
import type { McpResource } from './resources.js';
import { objectIdOf } from './resources-memory.js';
import type { McpContext } from './tools.js';

export interface ResourceWatchOptions {
  /** How often to look for changes made elsewhere; 0: only after writes through this server. */
  intervalMs: number;
}

export interface ResourceWatch {
  /** Looks for changes now (serialised with any check under way). */
  check(): Promise<void>;
  close(): void;
}

/** Subscriptions a session may hold at once (each costs one small read per check). */
export const MAX_SUBSCRIPTIONS = 100;
const GONE = -1;

export function watchResources(
  server: McpServer,
  ctx: McpContext,
  resources: readonly McpResource[],
  options: ResourceWatchOptions,
): ResourceWatch {
  const seen = new Map<string, number | string>();
  let objects: number | null = null;

  const revisionOf = async (uri: string): Promise<number | string | null> => {
    const fixed = resources.find((r) => r.uri === uri);
    if (fixed) return fixed.revision ? fixed.revision(ctx) : null;
    const id = objectIdOf(uri);
    if (id === null) return null;
    try {
      const read = (await ctx.call('memory.chain.read', {
        owner: ctx.owner,
        id,
        depth: 0,
        limit: 1,
      })) as MethodResult<'memory.chain.read'>;
      return read.object.revision;
    } catch (error) {
      if (isMemoryError(error) && error.code === 'NOT_FOUND') return GONE;
      throw error;
    }
  };
  const objectCount = async (): Promise<number> => {
    const h = (await ctx.call('health.history', {
      owner: ctx.owner,
      days: 1,
    })) as MethodResult<'health.history'>;
    return h.totals.objects;
  };

  const run = async () => {
    for (const [uri, before] of seen) {
      const now = await revisionOf(uri);
      if (now === null || now === before || !seen.has(uri)) continue;
      seen.set(uri, now);
      await server.server.sendResourceUpdated({ uri });
    }
    const count = await objectCount();
    if (objects !== null && count !== objects) await server.server.sendResourceListChanged();
    objects = count;
  };
  let chain: Promise<void> = Promise.resolve();
  const check = () => {
    chain = chain.then(run).catch((error: unknown) => {
      ctx.log?.warn({ err: error }, 'mcp resource check failed');
    });
    return chain;
  };

  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    const known = resources.some((r) => r.uri === uri) || objectIdOf(uri) !== null;
    if (!known) throw new McpError(ErrorCode.InvalidParams, `no resource ${uri} to subscribe to`);
    if (!seen.has(uri) && seen.size >= MAX_SUBSCRIPTIONS) {
      throw new McpError(ErrorCode.InvalidParams, `at most ${MAX_SUBSCRIPTIONS} subscriptions`);
    }
    // The baseline is taken before answering, so a change right after the answer is announced.
    await chain;
    seen.set(uri, (await revisionOf(uri)) ?? '');
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    seen.delete(request.params.uri);
    return {};
  });

  const timer = options.intervalMs > 0 ? setInterval(() => void check(), options.intervalMs) : null;
  timer?.unref();
  void check();
  return {
    check,
    close: () => {
      if (timer) clearInterval(timer);
    },
  };
}
