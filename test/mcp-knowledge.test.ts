// Issue 10 over MCP: the knowledge tools remember, suggest, todo, link and forget, and the inbox, listed and
// called over stdio (the built `mnemo mcp` on a store of its own) and over streamable HTTP (/mcp of a running
// server), acting for the configured owner only.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createLocalClient } from '../src/local-client.js';
import { silentLogger } from '../src/log.js';
import { readHttpToken } from '../src/protocol/http-token.js';
import { startServer, type RunningServer } from '../src/server.js';
import { BIN } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const OWNER = 'user:me';
type Face = 'stdio' | 'http';

describe.each<Face>(['stdio', 'http'])('the knowledge tools over %s', (face) => {
  const temp = createTempDirs();
  const client = new Client({ name: 'mnemo-test', version: '1.0.0' });
  let server: RunningServer | undefined;

  beforeAll(async () => {
    const dataDir = temp.make();
    let transport: Transport;
    if (face === 'stdio') {
      transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--owner', OWNER],
        env: { ...process.env, MNEMO_HOME: dataDir, MNEMO_LOG_LEVEL: 'warn' },
        stderr: 'pipe',
      });
    } else {
      const config = loadConfig({ dataDir, http: '127.0.0.1:0', observer: 'external', owner: OWNER }, {});
      server = await startServer(config, silentLogger());
      const token = (await readHttpToken(dataDir)) ?? '';
      transport = new StreamableHTTPClientTransport(new URL(`${server.http?.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      });
    }
    await client.connect(transport);
  });
  afterAll(async () => {
    await client.close();
    await server?.close();
    temp.cleanup();
  });

  type Structured = Record<string, unknown>;
  async function call(name: string, args: Record<string, unknown>) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    return { isError: result.isError, structured: result.structuredContent as Structured, text };
  }

  it('lists remember, suggest, todo and link as tools that write, none taking an owner or a role', async () => {
    const { tools } = await client.listTools();
    for (const name of ['remember', 'suggest', 'todo', 'link']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.description, name).toMatch(/call it/i);
      expect(tool?.annotations, name).toMatchObject({ readOnlyHint: false });
      expect(Object.keys(tool?.inputSchema.properties ?? {}), name).not.toContain('owner');
      expect(Object.keys(tool?.inputSchema.properties ?? {}), name).not.toContain('role');
    }
  });

  it('remember saves an entry once; the key track is refused: it needs suggest and the user', async () => {
    const first = await call('remember', { track: 'memory', text: '报销单抄送财务部', owner: 'user:other' });
    expect(first.isError).toBeFalsy();
    expect(first.structured).toMatchObject({ added: true, status: 'active' });
    const again = await call('remember', { track: 'memory', text: '报销单抄送财务部。' });
    expect(again.structured).toEqual({ ...first.structured, added: false });
    expect(again.text).toMatch(/nothing new/);
    expect((await call('remember', { track: 'key', text: 'x' })).isError).toBe(true);
    const suggested = await call('suggest', {
      track: 'key',
      text: 'Never pay invoices above 5,000 without a call',
    });
    expect(suggested.structured).toEqual({ id: expect.stringMatching(/^sug_/), status: 'pending' });
    expect(suggested.text).toMatch(/pending/);
  });

  it('todo adds, views, updates and lists in one tool; missing fields are tool errors naming them', async () => {
    const added = await call('todo', {
      action: 'add',
      track: 'work',
      title: 'Send the Q4 deck',
      due: '2026-01-05',
    });
    expect(added.structured).toMatchObject({ action: 'add', added: true });
    const id = String(added.structured.id);
    expect(
      (await call('todo', { action: 'add', track: 'work', title: 'send the Q4 deck' })).structured,
    ).toMatchObject({
      id,
      added: false,
    });
    const view = await call('todo', { action: 'view' });
    expect(view.structured).toMatchObject({ action: 'view', open: 1 });
    expect(view.text).toContain('Send the Q4 deck');
    const done = await call('todo', { action: 'update', id, status: 'done' });
    expect(done.structured).toMatchObject({ todo: { id, status: 'done', revision: 2 } });
    expect(done.text).toMatch(/^☑/);
    const list = await call('todo', { action: 'list', status: 'done' });
    expect((list.structured.items as Array<{ id: string }>).map((t) => t.id)).toEqual([id]);
    const bad = await call('todo', { action: 'add', track: 'work' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/INVALID_PARAMS: add needs title/);
  });

  it('link records a person with an alias and a relation; a restatement merges', async () => {
    const linked = await call('link', {
      objects: [
        { ref: 'li', type: 'person', name: '李卫东', aliases: ['老李'] },
        { ref: 'apollo', type: 'project', name: 'Apollo', status: 'active' },
      ],
      relations: [{ from: 'li', to: 'apollo', type: 'works_on' }],
    });
    expect(linked.isError).toBeFalsy();
    const objects = linked.structured.objects as Array<{ id: string; created: boolean }>;
    expect(objects.map((o) => o.created)).toEqual([true, true]);
    expect(linked.text).toMatch(/created/);
    const again = await call('link', { objects: [{ type: 'person', name: '老李' }] });
    expect(again.structured.objects).toEqual([expect.objectContaining({ id: objects[0]?.id, merged: true })]);
  });

  it('forget is destructive and deletes an entry with its events for real; again it is NOT_FOUND', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'forget')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    const saved = await call('remember', { track: 'memory', text: '门禁密码放在蓝色文件夹 blue folder' });
    const id = saved.structured.id as string;
    const gone = await call('forget', { ids: [id], with_events: true, owner: 'user:other' });
    expect(gone.isError).toBeFalsy();
    expect(gone.structured.forgotten).toMatchObject({ memories: [id] });
    expect((gone.structured.counts as { events: number }).events).toBe(1);
    expect(gone.text).toMatch(/forgot 1 memories, 0 objects, 1 events/);
    const recalled = await call('recall', { query: '蓝色文件夹 blue folder' });
    expect(JSON.stringify(recalled.structured)).not.toContain('蓝色文件夹');
    const again = await call('forget', { ids: [id] });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/^NOT_FOUND/);
  });

  it('inbox hands over what waits for the session, once, and nothing of another session', async () => {
    const session = `mcp-${face}`;
    if (server) {
      const local = createLocalClient(server.table);
      await local.call('memory.inbox.inject', {
        owner: OWNER,
        session_id: session,
        item: { text: '财务说报销单已经收到 / the claim arrived', source_role: 'system' },
      });
    }
    const first = await call('inbox', { session_id: session });
    expect(first.isError).toBeFalsy();
    const items = first.structured.items as Array<{ text?: string }>;
    expect(items).toHaveLength(server ? 1 : 0);
    if (server) expect(JSON.stringify(items[0])).toContain('报销单');
    const again = await call('inbox', { session_id: session });
    expect(again.structured.items).toEqual([]);
    expect((await call('inbox', { session_id: 'another' })).structured.items).toEqual([]);
  });
});
