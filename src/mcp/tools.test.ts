// Tools come from the catalog: a method that declares an `mcp` name is a tool without any MCP code of its
// own (its params minus owner, its result as output, hints from its access); one whose schemas cannot be
// JSON Schema is left out instead of breaking tools/list.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTempDirs } from '../../test/helpers/temp.js';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { OwnerSchema } from '../ingest/schema.js';
import { createLocalClient } from '../local-client.js';
import { METHODS } from '../protocol/catalog.js';
import { defineMethod, spec, type MethodDef } from '../protocol/method.js';
import { createMethodTable } from '../protocol/methods.js';
import { openMemory, type MemoryService } from '../service.js';
import { createMcpServer } from './mcp.js';

const echo = spec({
  summary: 'Echo a word back for its owner. Call it to test a later method.',
  params: z.object({ owner: OwnerSchema, word: z.string().min(1) }),
  result: z.object({ owner: z.string(), word: z.string() }),
  access: 'write',
  owner: 'param',
  mcp: 'echo',
});
// A transform has no JSON Schema on the output side.
const opaque = spec({
  summary: 'A result no JSON Schema can describe.',
  params: z.object({}),
  result: z.object({ n: z.string().transform(Number) }),
  access: 'read',
  owner: 'none',
  mcp: 'opaque',
});

const temp = createTempDirs();
let service: MemoryService;
const client = new Client({ name: 't', version: '1' });

beforeAll(async () => {
  service = await openMemory({ config: loadConfig({ dataDir: temp.make(), http: false }, {}) });
  const table = new Map<string, MethodDef>(createMethodTable(service));
  table.set('test.echo', defineMethod({ ...echo, name: 'test.echo', handler: async (p) => p }));
  table.set(
    'test.opaque',
    defineMethod({ ...opaque, name: 'test.opaque', handler: async () => ({ n: '1' }) }),
  );
  const local = createLocalClient(table);
  const methods = { ...METHODS, 'test.echo': echo, 'test.opaque': opaque };
  const server = createMcpServer({ owner: 'user:me', call: local.call, via: 'direct', methods });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
});
afterAll(async () => {
  await client.close();
  await service.close();
  temp.cleanup();
});

it('a method that declares an mcp name becomes a tool, acting for the configured owner', async () => {
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'echo');
  expect(tool?.description).toBe(echo.summary);
  expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['word']);
  expect(tool?.outputSchema?.properties).toHaveProperty('word');
  expect(tool?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  const result = await client.callTool({ name: 'echo', arguments: { word: 'hi', owner: 'user:evil' } });
  expect(result.structuredContent).toEqual({ owner: 'user:me', word: 'hi' });
});

it('a tool whose schemas have no JSON Schema is left out, and the others are listed', async () => {
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).not.toContain('opaque');
  expect(names).toEqual(expect.arrayContaining(['recall', 'get', 'timeline', 'status', 'echo']));
});
