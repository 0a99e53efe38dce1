// The CLI end to end: the real binary, a real server process, real files.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.js';
import { EVENTS } from './helpers/fixtures.js';
import { ENGINES, freshPostgresUrl } from './helpers/engines.js';
import { runCli, runMain, spawnServer } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const temp = createTempDirs();
afterAll(() => temp.cleanup());

const jsonl = (events: readonly object[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';

describe('mnemo CLI without a server (store opened directly)', () => {
  const dir = temp.make();
  const env = { MNEMO_HOME: dir, MNEMO_OWNER: 'user:cli' };
  const file = join(dir, 'events.jsonl');
  writeFileSync(file, jsonl(EVENTS) + 'not json\n');

  it('ingests a file, reports rejects by line, and is resumable', async () => {
    const first = await runCli(['ingest', file], { env });
    expect(first.stdout).toContain('8 accepted, 0 duplicates, 1 rejected (via direct)');
    expect(first.stderr).toContain('line 9: INVALID_JSON');
    expect(first.code).toBe(2);
    const second = await runCli(['ingest', file, '--json'], { env });
    expect(JSON.parse(second.stdout)).toMatchObject({ accepted: 0, duplicates: 8, rejected: 1 });
    expect(existsSync(join(dir, 'mnemo.sqlite3'))).toBe(true);
  });

  it('ingests from stdin', async () => {
    const out = await runCli(['ingest', '-'], {
      env,
      input: jsonl([
        {
          event_id: 'stdin-1',
          kind: 'note',
          role: 'system',
          at: '2026-09-03T00:00:00Z',
          text: '来自标准输入的笔记',
        },
      ]),
    });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('1 accepted');
  });

  it('recalls as a table and as JSON', async () => {
    const table = await runCli(['recall', '发票报销'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/e1\s+.*bm25#1/);
    const json = await runCli(['recall', 'RB-2026-0917', '--json', '--limit', '3'], { env });
    const parsed = JSON.parse(json.stdout) as { status: string; items: Array<{ id: string }> };
    expect(parsed.status).toBe('ready');
    expect(parsed.items[0]?.id).toBe('e1');
  });

  it('reports status', async () => {
    const status = await runCli(['status', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ server: 'not running', counts: { events: 9 } });
  });

  it('rejects bad flags with a clear message', async () => {
    const bad = await runCli(['recall', 'x', '--limit', 'many'], { env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/limit/);
  });
});

describe.runIf(ENGINES.includes('postgres'))(
  'mnemo --database-url (PostgreSQL, store opened directly)',
  () => {
    it('stores in PostgreSQL, not in the data directory’s SQLite file', async () => {
      const store = await freshPostgresUrl();
      try {
        const dir = temp.make();
        const file = join(dir, 'events.jsonl');
        writeFileSync(file, jsonl(EVENTS));
        const flags = ['--data-dir', dir, '--database-url', store.url, '--owner', 'user:pg'];
        const ingest = await runMain([...flags, 'ingest', file, '--json']);
        expect(JSON.parse(ingest.stdout)).toMatchObject({ accepted: EVENTS.length, rejected: 0 });
        const recall = await runMain([...flags, 'recall', 'RB-2026-0917', '--json']);
        expect((JSON.parse(recall.stdout) as { items: Array<{ id: string }> }).items[0]?.id).toBe('e1');
        expect(existsSync(join(dir, 'mnemo.sqlite3'))).toBe(false);
        // Without the flag, the same data directory is an empty SQLite store.
        const local = await runMain(['--data-dir', dir, 'status', '--json']);
        expect(JSON.parse(local.stdout)).toMatchObject({ counts: { events: 0 } });
      } finally {
        await store.drop();
      }
    });
  },
);

describe('mnemo serve', () => {
  it('serves socket and HTTP, talks to the CLI, refuses a second instance, and stops cleanly', async () => {
    const dir = temp.make();
    const env = { MNEMO_HOME: dir, MNEMO_OWNER: 'user:srv' };
    const server = await spawnServer(['--http', '127.0.0.1:0'], env);
    try {
      expect(server.stdout()).toContain(`data:   ${dir}`);
      expect(server.socketPath).toBe(join(dir, 'mnemo.sock'));
      const file = join(dir, 'events.jsonl');
      writeFileSync(file, jsonl(EVENTS));
      const ingest = await runCli(['ingest', file], { env });
      expect(ingest.stdout).toContain('8 accepted, 0 duplicates, 0 rejected (via server)');
      const status = await runCli(['status', '--json'], { env });
      expect(JSON.parse(status.stdout)).toMatchObject({ server: 'running', counts: { events: 8 } });

      // HTTP is closed: the banner names the token file, never the token.
      const tokenFile = join(dir, 'http-token');
      expect(server.stdout()).toContain(`token:  ${tokenFile}`);
      const token = readFileSync(tokenFile, 'utf8').trim();
      expect(server.stdout()).not.toContain(token);
      const url = server.httpUrl ?? '';
      // The inspector's address, without the token (its page asks for it).
      expect(server.stdout()).toContain(`inspector: ${url}/\n`);
      expect((await fetch(`${url}/`)).headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', version: VERSION });
      const rpc = (headers: Record<string, string>) =>
        fetch(`${url}/rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({
            id: 1,
            method: 'memory.recall',
            params: { owner: 'user:srv', query: '靠窗' },
          }),
        });
      expect((await rpc({})).status).toBe(401);
      const body = (await (await rpc({ authorization: `Bearer ${token}` })).json()) as {
        ok: boolean;
        result: { items: Array<{ id: string }> };
      };
      expect(body.ok).toBe(true);
      expect(body.result.items.map((i) => i.id)).toContain('e6');
      // The CLI over HTTP reads the same file.
      const viaHttp = await runCli(['status', '--json', '--url', url], { env });
      expect(JSON.parse(viaHttp.stdout)).toMatchObject({ server: 'running', counts: { events: 8 } });
      const recall = await runCli(['recall', '靠窗', '--json', '--url', url], { env });
      expect(JSON.parse(recall.stdout)).toMatchObject({
        items: expect.arrayContaining([expect.objectContaining({ id: 'e6' })]),
      });

      const second = await runCli(['serve', '--no-http'], { env });
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain('SOCKET_IN_USE');
      expect(existsSync(server.socketPath)).toBe(true);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toContain('mnemo stopped (SIGTERM)');
  });

  it('prepares a large ingest on the built worker threads of a real server', async () => {
    const dir = temp.make();
    const env = { MNEMO_HOME: dir, MNEMO_OWNER: 'user:big', MNEMO_INGEST_WORKERS: '2' };
    const server = await spawnServer(['--no-http', '--observer', 'external'], env);
    try {
      // 200 events of about 300 characters: far above the pool's thresholds, with a secret to redact.
      const events = Array.from({ length: 200 }, (_, i) => ({
        event_id: `big-${i}`,
        session_id: `s${i % 7}`,
        kind: 'user_message',
        role: 'user',
        at: 1_780_000_000_000 + i * 1000,
        text:
          `第${i}次提醒：发票 invoice_2026-${String(i).padStart(3, '0')}.pdf 要在周五前寄出。 `.repeat(5) +
          (i === 42 ? 'token=sk-proj-Zx81Qm2Lp0Vb7Nw4Ty6Rc3Hd9Kf5Sa1G' : ''),
      }));
      const file = join(dir, 'big.jsonl');
      writeFileSync(file, jsonl(events));
      const ingest = await runCli(['ingest', file, '--json'], { env });
      expect(JSON.parse(ingest.stdout)).toMatchObject({ accepted: 200, duplicates: 0, rejected: 0 });
      const status = await runCli(['status', '--json'], { env });
      expect(JSON.parse(status.stdout)).toMatchObject({
        server: 'running',
        ingest_workers: 2,
        ingest_calls: { pooled: 1, inline: 0 },
      });
      const recall = await runCli(['recall', 'invoice_2026-042.pdf', '--json'], { env });
      const items = (JSON.parse(recall.stdout) as { items: Array<{ id: string; text: string }> }).items;
      expect(items[0]?.id).toBe('big-42');
      expect(items[0]?.text).toContain('[redacted:');
      expect(items[0]?.text).not.toContain('sk-proj-');
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    expect(server.stderr()).not.toContain('prepare worker failed');
  });

  it('regression for issue 8: refuses MNEMO_HTTP_AUTH=off on a non-loopback HTTP address', async () => {
    const dir = temp.make();
    const out = await runCli(['serve', '--http', '0.0.0.0:0'], {
      env: { MNEMO_HOME: dir, MNEMO_HTTP_TOKEN: '', MNEMO_HTTP_AUTH: 'off' },
    });
    expect(out.code).not.toBe(0);
    expect(out.stderr).toMatch(/CONFIG_INVALID: .*MNEMO_HTTP_AUTH=off is allowed only on a loopback/);
  });
});
