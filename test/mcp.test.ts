// The MCP face driven by the official SDK client: over stdio (the built `mnemo mcp`, with the README's
// arguments, both beside a running server and on the store directly) and over streamable HTTP at /mcp.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { estimateTokens } from '../src/llm/tokens.js';
import { createLocalClient } from '../src/local-client.js';
import { silentLogger } from '../src/log.js';
import { METHODS } from '../src/protocol/catalog.js';
import { createMethodTable } from '../src/protocol/methods.js';
import { readHttpToken } from '../src/protocol/http-token.js';
import { startServer, type RunningServer } from '../src/server.js';
import { openMemory } from '../src/service.js';
import { EVENTS, T0 } from './helpers/fixtures.js';
import { BIN } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const OWNER = 'user:me';
const OTHER = 'user:other';
const LONG = 'Long note about the quarterly budget and the travel plan for the offsite. '.repeat(30);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

type Call = (method: string, params: unknown) => Promise<unknown>;
async function seed(call: Call): Promise<void> {
  const long = { event_id: 'long-1', kind: 'note', role: 'system', at: at(2000), text: LONG };
  await call('memory.events.ingest', { owner: OWNER, events: [...EVENTS, long] });
  const secret = 'the vault code is PURPLE-HORSE-42';
  const x1 = { event_id: 'x1', kind: 'user_message', role: 'user', at: at(3), text: secret };
  await call('memory.events.ingest', { owner: OTHER, events: [x1] });
}

const temp = createTempDirs();
let server: RunningServer;
let directDir: string;

beforeAll(async () => {
  directDir = temp.make();
  const service = await openMemory({ config: loadConfig({ dataDir: directDir, http: false }, {}) });
  await seed(createLocalClient(createMethodTable(service)).call);
  await service.close();
  const dir = temp.make();
  const config = loadConfig({ dataDir: dir, http: '127.0.0.1:0', observer: 'external', owner: OWNER }, {});
  server = await startServer(config, silentLogger(), { checkResults: true });
  await seed(createLocalClient(server.table).call);
});
afterAll(async () => {
  await server.close();
  temp.cleanup();
});

/** The README's configuration blocks: the tests below use them as written. */
type McpEntry = { command?: string; args?: string[]; url?: string; headers?: Record<string, string> };
const README_CONFIGS = [
  ...readFileSync(new URL('../README.md', import.meta.url), 'utf8').matchAll(/```json\n([\s\S]*?)```/g),
]
  .map((m) => (JSON.parse(m[1] ?? '{}') as { mcpServers?: Record<string, McpEntry> }).mcpServers?.mnemo)
  .filter((entry): entry is McpEntry => entry !== undefined);
const README_STDIO = README_CONFIGS.find((c) => c.command === 'npx');
const README_HTTP = README_CONFIGS.find((c) => c.url !== undefined);

it("the README's configurations are the ones these tests run", () => {
  const name = (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string }
  ).name;
  expect(README_STDIO?.args).toEqual(['-y', name, 'mcp', '--owner', OWNER]);
  expect(new URL(README_HTTP?.url ?? '').pathname).toBe('/mcp');
  expect(README_HTTP?.headers?.Authorization).toMatch(/^Bearer <.+>$/);
});

/** The README's stdio configuration, with the local bin instead of `npx -y mnemo-memory`. */
function stdioClient(dataDir: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...(README_STDIO?.args ?? []).slice(2)],
    env: { ...process.env, MNEMO_HOME: dataDir, MNEMO_LOG_LEVEL: 'info' },
    stderr: 'pipe',
  });
  return transport;
}

async function httpTransport(token?: string) {
  const bearer = token ?? (await readHttpToken(server.service.config.dataDir));
  const path = new URL(README_HTTP?.url ?? '').pathname;
  const headers = {
    Authorization: (README_HTTP?.headers?.Authorization ?? '').replace(/<.+>/, bearer ?? ''),
  };
  return new StreamableHTTPClientTransport(new URL(`${server.http?.url}${path}`), {
    requestInit: { headers },
  });
}

const faces = [
  ['stdio beside a running server', 'server', () => stdioClient(server.service.config.dataDir)],
  ['stdio on the store directly', 'direct', () => stdioClient(directDir)],
  ['streamable HTTP', 'http', () => httpTransport()],
] as const;

type Structured = Record<string, unknown> & { items?: Array<Record<string, unknown>> };
const text = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe.each(faces)('MCP over %s', (_name, via, transport) => {
  const client = new Client({ name: 'mnemo-test', version: '1.0.0' });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return {
      isError: result.isError,
      structured: result.structuredContent as Structured,
      text: text(result),
    };
  };
  beforeAll(async () => {
    await client.connect(await transport());
  });
  afterAll(() => client.close());

  it("lists the catalog's tools: none takes an owner; each has a directive description, schemas, hints", async () => {
    const { tools } = await client.listTools();
    const declared = Object.values(METHODS).flatMap((s) => ('mcp' in s ? [s.mcp] : []));
    expect(tools.map((t) => t.name).sort()).toEqual([...declared].sort());
    for (const tool of tools) {
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain('owner');
      expect(tool.description, tool.name).toMatch(/call it/i);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      const spec = Object.values(METHODS).find((m) => 'mcp' in m && m.mcp === tool.name);
      const read = spec?.access === 'read';
      expect(tool.annotations, tool.name).toEqual({
        readOnlyHint: read,
        destructiveHint: spec !== undefined && 'destructive' in spec && spec.destructive === true,
        idempotentHint: read,
        openWorldHint: false,
      });
    }
  });

  it('recall answers short heads with ids, kinds, times and the channels that found them', async () => {
    const byId = await call('recall', { query: 'RB-2026-0917' });
    expect(byId.isError).toBeFalsy();
    expect(byId.structured.items?.[0]).toMatchObject({ id: 'e1', kind: 'event', at: at(0) });
    expect(byId.structured.items?.[0]?.channels).toContain('id');
    const long = await call('recall', { query: 'quarterly budget offsite', limit: 5 });
    const head = long.structured.items?.find((i) => i.id === 'long-1')?.head as string;
    expect(head.endsWith('…')).toBe(true);
    expect(estimateTokens(head)).toBeLessThanOrEqual(50);
    // Tens of tokens per item, not the stored text.
    const broad = await call('recall', { query: 'budget invoice expense flights design 发票', limit: 10 });
    const lines = broad.text.split('\n').slice(1);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.length).toBe(broad.structured.items?.length);
    for (const line of lines) expect(estimateTokens(line), line).toBeLessThan(70);
  });

  it('get expands ids to the full text and sources; unknown ids are missing', async () => {
    const got = await call('get', { ids: ['long-1', 'e3', 'nope'] });
    const items = got.structured.items as Array<{ id: string; text: string; task_id: string | null }>;
    expect(items.map((i) => i.id)).toEqual(['long-1', 'e3']);
    expect(items[0]?.text).toBe(LONG);
    expect(items[1]?.task_id).toBe('t042');
    expect(got.structured.missing).toEqual(['nope']);
    expect(got.text).toContain(LONG);
  });

  it('timeline shows heads before and after an id or a time, in time order', async () => {
    const around = await call('timeline', { id: 'e2', before: 1, after: 1 });
    const ids = (list: unknown) => (list as Array<{ id: string }>).map((h) => h.id);
    expect((around.structured.anchor as { id: string }).id).toBe('e2');
    expect(ids(around.structured.before)).toEqual(['e1']);
    expect(ids(around.structured.after)).toEqual(['e3']);
    const byTime = await call('timeline', { at: at(29), before: 2, after: 1 });
    expect(byTime.structured.anchor).toBeNull();
    expect(ids(byTime.structured.before)).toEqual(['e2', 'e3']);
    expect(ids(byTime.structured.after)).toEqual(['e4']);
  });

  it('status says it is up, for which owner and how it reaches the store', async () => {
    const status = await call('status', {});
    expect(status.structured).toMatchObject({ status: 'ok', owner: OWNER, via });
    expect(status.structured).not.toHaveProperty('counts');
  });

  it('reads the status resource and gets the prompt', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('mnemo://status');
    const read = await client.readResource({ uri: 'mnemo://status' });
    const content = read.contents[0] as { text: string };
    expect(JSON.parse(content.text)).toMatchObject({ owner: OWNER, via });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['use-memory']);
    const prompt = await client.getPrompt({ name: 'use-memory' });
    const guide = (prompt.messages[0]?.content as { text: string }).text;
    expect(guide).toMatch(/recall/);
    expect(guide).toMatch(/`get`/);
    expect(guide).toMatch(/not instructions/i);
  });

  it('bad arguments get tool errors, and the session goes on', async () => {
    const bad: Array<[string, Record<string, unknown>, RegExp]> = [
      ['recall', { query: '' }, /query/],
      ['recall', { query: 'x', limit: 'many' }, /limit/],
      ['get', { ids: [] }, /ids/],
      ['timeline', {}, /INVALID_PARAMS: give either id or at/],
      ['timeline', { id: 'nope' }, /NOT_FOUND/],
      ['no-such-tool', {}, /not found/],
    ];
    for (const [name, args, message] of bad) {
      const result = await call(name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toMatch(message);
    }
    expect((await call('status', {})).isError).toBeFalsy();
  });

  it('a tool cannot reach another owner, whatever its arguments say', async () => {
    const recall = await call('recall', { query: 'PURPLE-HORSE-42 vault code' });
    expect(recall.structured.items).toEqual([]);
    const named = await call('recall', { query: 'PURPLE-HORSE-42 vault code', owner: OTHER });
    expect(named.structured.items).toEqual([]);
    const got = await call('get', { ids: ['x1'], owner: OTHER });
    expect(got.structured).toEqual({ items: [], missing: ['x1'] });
    const around = await call('timeline', { id: 'x1', owner: OTHER });
    expect(around.text).toMatch(/NOT_FOUND/);
    const beside = await call('timeline', { at: at(3), before: 50, after: 50 });
    const all = [...(beside.structured.before as []), ...(beside.structured.after as [])];
    expect(all.map((h: { id: string }) => h.id)).not.toContain('x1');
  });
});
