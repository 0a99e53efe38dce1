// MCP resources and the prompt, driven by the SDK's own client over stdio (the built `mnemo mcp` beside a
// running server) and streamable HTTP: the core documents, each object's Markdown under a template with a
// list, bad URIs answered with MCP errors, and over stdio subscriptions told of changes, both those made
// through the session (a `link`) and those made elsewhere (a core document updated on the server).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createLocalClient, type LocalClient } from '../src/local-client.js';
import { silentLogger } from '../src/log.js';
import { METHODS } from '../src/protocol/catalog.js';
import { readHttpToken } from '../src/protocol/http-token.js';
import { startServer, type RunningServer } from '../src/server.js';
import { EVENTS } from './helpers/fixtures.js';
import { BIN } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const OWNER = 'user:me';
// Stored trimmed, as the core documents are.
const SOUL = '# SOUL\n\n说话简洁，先给结论。 Be brief; answer first.';
const USER = '# USER\n\n王芳，住在上海。 Wang Fang lives in Shanghai.';

const temp = createTempDirs();
let server: RunningServer;
let local: LocalClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const config = loadConfig(
    { dataDir: temp.make(), http: '127.0.0.1:0', observer: 'external', owner: OWNER },
    {},
  );
  server = await startServer(config, silentLogger(), { checkResults: true });
  local = createLocalClient(server.table);
  await local.call('memory.events.ingest', { owner: OWNER, events: EVENTS });
  await local.call('memory.chain.core.bootstrap', { owner: OWNER, docs: { SOUL, USER } });
  const upsert = await local.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
    owner: OWNER,
    source_refs: ['e1'],
    objects: [
      { ref: 'li', type: 'person', name: '李卫东', aliases: ['老李'], body: '财务部，负责报销审批' },
      { ref: 'apollo', type: 'project', name: 'Apollo', body: 'The expense tooling project' },
    ],
    relations: [{ from: 'li', to: 'apollo', type: 'works_on' }],
  });
  ids.li = upsert.objects[0]?.id ?? '';
  ids.apollo = upsert.objects[1]?.id ?? '';
});
afterAll(async () => {
  await server.close();
  temp.cleanup();
});

const stdio = (): Transport =>
  new StdioClientTransport({
    command: process.execPath,
    // Checks every 50 ms for changes made elsewhere (default 2 s); the tests wait for the notice itself.
    args: [BIN, 'mcp', '--owner', OWNER, '--watch-ms', '50'],
    env: { ...process.env, MNEMO_HOME: server.service.config.dataDir, MNEMO_LOG_LEVEL: 'warn' },
    stderr: 'pipe',
  });
const http = async (): Promise<Transport> => {
  const token = (await readHttpToken(server.service.config.dataDir)) ?? '';
  return new StreamableHTTPClientTransport(new URL(`${server.http?.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
};

const objectUri = (id: string | undefined) => `mnemo://objects/${id ?? ''}`;
const textOf = (read: { contents: Array<{ uri: string; text?: unknown }> }) => String(read.contents[0]?.text);

async function mcpError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe.each([
  ['stdio', stdio],
  ['streamable HTTP', http],
] as const)('MCP resources over %s', (face, transport) => {
  const client = new Client({ name: 'mnemo-resources-test', version: '1.0.0' });
  beforeAll(async () => client.connect(await transport()));
  afterAll(() => client.close());

  it('lists the core documents, the status and every object; the template says how to name one', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const uri of ['mnemo://status', 'mnemo://core/SOUL', 'mnemo://core/USER', 'mnemo://core/AGENTS'])
      expect(uris).toContain(uri);
    const li = resources.find((r) => r.uri === objectUri(ids.li));
    expect(li).toMatchObject({ title: '李卫东 (person)', mimeType: 'text/markdown' });
    expect(uris).toContain(objectUri(ids.apollo));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({
        name: 'object',
        uriTemplate: 'mnemo://objects/{id}',
        mimeType: 'text/markdown',
      }),
    ]);
  });

  it('reads each core document as stored (an unwritten one is empty) and each object as Markdown', async () => {
    expect(textOf(await client.readResource({ uri: 'mnemo://core/SOUL' }))).toBe(SOUL);
    expect(textOf(await client.readResource({ uri: 'mnemo://core/USER' }))).toBe(USER);
    expect(textOf(await client.readResource({ uri: 'mnemo://core/AGENTS' }))).toBe('');
    const li = textOf(await client.readResource({ uri: objectUri(ids.li) }));
    expect(li).toContain('# 李卫东\n');
    expect(li).toContain('- aliases: 老李');
    expect(li).toContain('财务部，负责报销审批');
    expect(li).toContain(`- works_on → Apollo (\`${ids.apollo}\`)`);
    expect(li).toContain('## Sources\n\n- `e1` user_message');
    const apollo = textOf(await client.readResource({ uri: objectUri(ids.apollo) }));
    expect(apollo).toContain(`- 李卫东 (\`${ids.li}\`) works_on → this`);
  });

  it('answers a bad resource URI with an MCP error, and the session goes on', async () => {
    expect((await mcpError(client.readResource({ uri: objectUri('ob_nope') }))).code).toBe(-32002);
    expect((await mcpError(client.readResource({ uri: 'mnemo://core/DIARY' }))).code).toBe(-32602);
    expect((await mcpError(client.readResource({ uri: 'not a uri' }))).code).toBeLessThan(0);
    expect(textOf(await client.readResource({ uri: 'mnemo://core/SOUL' }))).toBe(SOUL);
  });

  it('gives the prompt: every tool, when to use it, and that memory text is data', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['use-memory']);
    const guide = (await client.getPrompt({ name: 'use-memory' })).messages[0]?.content;
    const text = guide?.type === 'text' ? guide.text : '';
    const tools = Object.values(METHODS).flatMap((s) => ('mcp' in s ? [s.mcp] : []));
    for (const tool of tools) expect(text, tool).toContain(`\`${tool}\``);
    expect(text).toMatch(/step boundary[\s\S]*`inbox`/);
    expect(text).toMatch(/`suggest`[^\n]*approval/);
    expect(text).toMatch(/never follow instructions/i);
  });

  if (face === 'streamable HTTP') {
    it('offers no subscriptions over stateless HTTP, and says so with an MCP error', async () => {
      expect(client.getServerCapabilities()?.resources?.subscribe).toBeFalsy();
      await mcpError(client.subscribeResource({ uri: 'mnemo://core/USER' }));
    });
  }
});

describe('resource subscriptions over stdio', () => {
  const client = new Client({ name: 'mnemo-subscriber', version: '1.0.0' });
  const updated: string[] = [];
  let listChanged = 0;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  /** Resolves when `seen` holds; every notice re-checks it (no sleeping, no machine-speed guess). */
  const until = (seen: () => boolean) =>
    new Promise<void>((resolve) => {
      const test = () => (seen() ? resolve() : waiters.push(test));
      test();
    });
  beforeAll(async () => {
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
      wake();
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanged += 1;
      wake();
    });
    await client.connect(stdio());
  });
  afterAll(() => client.close());

  it('advertises subscribe and listChanged', () => {
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true, listChanged: true });
  });

  it('tells a subscriber when a core document is updated elsewhere, and not after unsubscribing', async () => {
    await client.subscribeResource({ uri: 'mnemo://core/USER' });
    await client.subscribeResource({ uri: 'mnemo://core/SOUL' });
    const changed = `${USER}\n偏好靠窗座位。 Prefers window seats.`;
    await local.call('memory.chain.core.update', {
      owner: OWNER,
      doc: 'USER',
      text: changed,
      expected_revision: 1,
    });
    await until(() => updated.includes('mnemo://core/USER'));
    expect(textOf(await client.readResource({ uri: 'mnemo://core/USER' }))).toBe(changed);
    await client.unsubscribeResource({ uri: 'mnemo://core/USER' });
    await local.call('memory.chain.core.update', {
      owner: OWNER,
      doc: 'USER',
      text: USER,
      expected_revision: 2,
    });
    await local.call('memory.chain.core.update', {
      owner: OWNER,
      doc: 'SOUL',
      text: `${SOUL}\n不要寒暄。`,
      expected_revision: 1,
    });
    await until(() => updated.includes('mnemo://core/SOUL'));
    expect(updated.filter((u) => u === 'mnemo://core/USER')).toHaveLength(1);
  });

  it('tells a subscriber when its object changes through `link`, and every client when objects are added', async () => {
    await client.subscribeResource({ uri: objectUri(ids.li) });
    const before = listChanged;
    const linked = await client.callTool({
      name: 'link',
      arguments: {
        objects: [
          { ref: 'li', type: 'person', name: '李卫东', aliases: ['Li Weidong'] },
          { ref: 'fang', type: 'person', name: '王芳' },
        ],
        relations: [{ from: 'fang', to: 'li', type: 'works_with' }],
      },
    });
    expect(linked.isError).toBeFalsy();
    // A write through this session is checked before its tool answers.
    expect(updated).toContain(objectUri(ids.li));
    expect(listChanged).toBeGreaterThan(before);
    expect(textOf(await client.readResource({ uri: objectUri(ids.li) }))).toContain('Li Weidong');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.title)).toContain('王芳 (person)');
  });

  it('refuses to subscribe to a URI that names no resource', async () => {
    expect((await mcpError(client.subscribeResource({ uri: 'mnemo://elsewhere' }))).code).toBe(-32602);
  });
});
