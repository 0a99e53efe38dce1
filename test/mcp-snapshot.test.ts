// Issue 13 over MCP: the resource mnemo://snapshot, read with the SDK's client, is the bounded snapshot of
// the server's owner (text/markdown), never another owner's (both engines).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalClient } from '../src/local-client.js';
import { createMcpServer } from '../src/mcp/mcp.js';
import { createMethodTable } from '../src/protocol/methods.js';
import { ENGINES, openTestService, type TestService } from './helpers/engines.js';

const OWNER = 'user:me';

describe.each(ENGINES)('mnemo://snapshot on %s', (engine) => {
  let store: TestService;
  let client: Client;
  let call: (method: string, params: unknown) => Promise<unknown>;
  beforeEach(async () => {
    // A clock that moves a second per reading: the newest-first order never rests on random ids.
    let t = Date.parse('2026-11-16T02:00:00Z');
    store = await openTestService(engine, { now: () => (t += 1_000) });
    call = createLocalClient(createMethodTable(store.service)).call;
    const server = createMcpServer({ owner: OWNER, call, via: 'direct' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'mnemo-test', version: '1.0.0' });
    await client.connect(clientSide);
  });
  afterEach(async () => {
    await client.close();
    await store.close();
  });

  it('lists the snapshot and reads the owner’s, as memory.snapshot renders it', async () => {
    const add = (owner: string, text: string) => call('memory.track.add', { owner, track: 'memory', text });
    await add(OWNER, '报销单抄送财务部');
    await add(OWNER, 'The staging database is db-stg-2.');
    await add('user:other', 'the vault code is kept by Bob');
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === 'mnemo://snapshot')).toMatchObject({ mimeType: 'text/markdown' });
    const read = await client.readResource({ uri: 'mnemo://snapshot' });
    const content = read.contents[0] as { text: string; mimeType: string };
    expect(content.mimeType).toBe('text/markdown');
    expect(content.text).toMatchInlineSnapshot(`
      "# Memory snapshot

      ## MEMORY
      - The staging database is db-stg-2.
      - 报销单抄送财务部
      "
    `);
    const direct = (await call('memory.snapshot', { owner: OWNER })) as { text: string };
    expect(content.text).toBe(direct.text);
    expect(content.text).not.toContain('Bob');
  });
});
