// The token store on both engines: created, shown once, stored as a hash, revoked for good.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type Engine, type TestService } from '../../test/helpers/engines.js';
import { errorOf } from '../../test/helpers/errors.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { createTempDirs } from '../../test/helpers/temp.js';
import { createLocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import type { Principal } from '../protocol/principal.js';
import type { Queryable } from '../storage/driver.js';
import { withOwnerScope } from '../storage/scope.js';
import type { TokenInfo } from './schema.js';
import { hashToken, tenantAuthenticator, TOKEN_PREFIX, TOUCH_INTERVAL_MS } from './tokens.js';

type Created = TokenInfo & { token: string };

/** Every table's rows as text (for PostgreSQL, each row cast to text; for SQLite, every column). */
async function everyRowAsText(db: Queryable, engine: Engine): Promise<string> {
  const tables =
    engine === 'sqlite'
      ? await sqlRows<{ name: string }>(db, `SELECT name FROM sqlite_master WHERE type = 'table'`)
      : await sqlRows<{ name: string }>(
          db,
          `SELECT table_name AS name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
        );
  expect(tables.map((t) => t.name)).toContain('api_tokens');
  const parts: string[] = [];
  for (const { name } of tables) {
    const sql = engine === 'sqlite' ? `SELECT * FROM "${name}"` : `SELECT t::text AS v FROM "${name}" t`;
    parts.push(JSON.stringify(await sqlRows(db, sql)));
  }
  return parts.join('\n');
}

describe.each(ENGINES)('tenant tokens on %s', (engine) => {
  const temp = createTempDirs();
  let handle: TestService | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    temp.cleanup();
  });

  let clock = 1_780_000_000_000;
  const open = async (databasePath?: string, dataDir?: string) => {
    handle = await openTestService(engine, {
      now: () => clock,
      ...(databasePath ? { databasePath } : {}),
      ...(dataDir ? { config: { dataDir } } : {}),
    });
    const { service } = handle;
    const client = createLocalClient(createMethodTable(service), { checkResults: true });
    return { service, client, authenticate: tenantAuthenticator(service.driver, () => clock) };
  };

  it('creates a token shown once, lists it without the token, and authenticates it as its owners', async () => {
    const { client, authenticate } = await open();
    const created = await client.call<Created>('tokens.create', {
      owners: ['team:acme/*', ' user:alice ', 'team:acme/*'],
      name: 'acme agents',
    });
    expect(created.token.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(created.token.length).toBeGreaterThanOrEqual(TOKEN_PREFIX.length + 43);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^tk_[0-9a-f]{12}$/),
      name: 'acme agents',
      owners: ['team:acme/*', 'user:alice'],
      created_at: new Date(clock).toISOString(),
      revoked_at: null,
      last_used_at: null,
    });
    const listed = await client.call<{ tokens: object[] }>('tokens.list', {});
    const { token, ...info } = created;
    expect(listed.tokens).toEqual([info]);
    expect(token).toBe(created.token);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(JSON.stringify(listed)).not.toContain(hashToken(created.token));

    const principal = await authenticate(created.token);
    expect(principal).toEqual({ kind: 'scoped', name: `token:${created.id}`, owners: created.owners });
    expect(await authenticate(`${created.token}x`)).toBeNull();
    expect(await authenticate(created.token.slice(TOKEN_PREFIX.length))).toBeNull();
    expect(await authenticate(`${TOKEN_PREFIX}nope`)).toBeNull();
  });

  it('revokes for good: the token is refused, a second revocation keeps the first time', async () => {
    const { client, authenticate } = await open();
    const keep = await client.call<Created>('tokens.create', { owners: ['user:bob'] });
    clock += 1; // tokens are listed by creation time
    const gone = await client.call<Created>('tokens.create', { owners: ['user:bob'] });
    clock += 1_000;
    const revoked = await client.call<TokenInfo>('tokens.revoke', { id: gone.id });
    expect(revoked.revoked_at).toBe(new Date(clock).toISOString());
    expect(await authenticate(gone.token)).toBeNull();
    expect(await authenticate(keep.token)).not.toBeNull();
    clock += 1_000;
    const again = await client.call<TokenInfo>('tokens.revoke', { id: gone.id });
    expect(again.revoked_at).toBe(revoked.revoked_at);
    const unknown = await errorOf(client.call('tokens.revoke', { id: 'tk_000000000000' }));
    expect(unknown.code).toBe('NOT_FOUND');
    const listed = await client.call<{ tokens: TokenInfo[] }>('tokens.list', {});
    expect(listed.tokens.map((t) => [t.id, t.revoked_at !== null])).toEqual([
      [keep.id, false],
      [gone.id, true],
    ]);
  });

  it('records when a token was last used, at most once a minute', async () => {
    const { client, authenticate } = await open();
    const created = await client.call<Created>('tokens.create', { owners: ['user:bob'] });
    const lastUsed = async () =>
      (await client.call<{ tokens: TokenInfo[] }>('tokens.list', {})).tokens[0]?.last_used_at;
    const first = clock;
    await authenticate(created.token);
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    clock += TOUCH_INTERVAL_MS - 1;
    await authenticate(created.token);
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    clock += 1;
    await authenticate(created.token);
    expect(await lastUsed()).toBe(new Date(clock).toISOString());
  });

  it('invariant: refuses patterns for every owner, empty prefixes, stray * and empty lists', async () => {
    const { client } = await open();
    const refused = [
      [],
      ['*'],
      ['/*'],
      [''],
      ['  '],
      ['team:*/x'],
      ['team:acme*'],
      ['team:acme/**'],
      ['ok', '*'],
    ];
    for (const owners of refused) {
      const error = await errorOf(client.call('tokens.create', { owners }));
      expect(error.code, JSON.stringify(owners)).toBe('INVALID_PARAMS');
      expect(JSON.stringify(error.data), JSON.stringify(owners)).toContain('owners');
    }
    expect((await client.call<{ tokens: unknown[] }>('tokens.list', {})).tokens).toEqual([]);
  });

  it('lets only principals allowed every owner create, list or revoke tokens', async () => {
    const { service, client } = await open();
    const created = await client.call<Created>('tokens.create', { owners: ['team:acme/*'] });
    const scoped: Principal = { kind: 'scoped', name: 'acme', owners: ['team:acme/*'] };
    const tenant = createLocalClient(createMethodTable(service), { principal: scoped });
    for (const [method, params] of [
      ['tokens.create', { owners: ['team:acme/x'] }],
      ['tokens.list', {}],
      ['tokens.revoke', { id: created.id }],
    ] as const) {
      expect((await errorOf(tenant.call(method, params))).code, method).toBe('FORBIDDEN');
    }
    const listed = await client.call<{ tokens: TokenInfo[] }>('tokens.list', {});
    expect(listed.tokens.map((t) => [t.id, t.revoked_at])).toEqual([[created.id, null]]);
    if (engine === 'postgres') {
      // Row-level security: statements scoped to some owners see no token and cannot write one.
      const db = service.driver;
      const inScope = <T>(fn: () => Promise<T>) => withOwnerScope(['team:acme/*'], fn);
      expect(await inScope(() => sqlRows(db, 'SELECT id FROM api_tokens'))).toEqual([]);
      expect(await inScope(() => db.run('UPDATE api_tokens SET revoked_at = 1'))).toEqual({ changes: 0 });
      await expect(
        inScope(() =>
          db.run(`INSERT INTO api_tokens (id, token_hash, owners, created_at) VALUES ('x', 'h', '[]', 1)`),
        ),
      ).rejects.toThrow();
    }
  });

  it('invariant: stores only a hash: the token appears in no table, and not in the SQLite files', async () => {
    const dir = temp.make();
    const file = join(dir, 'mnemo.sqlite3');
    const { service, client, authenticate } = await open(engine === 'sqlite' ? file : undefined, dir);
    const created = await client.call<Created>('tokens.create', { owners: ['team:acme/*'], name: 'n' });
    await authenticate(created.token);
    const secret = created.token.slice(TOKEN_PREFIX.length);
    const rows = await everyRowAsText(service.driver, engine);
    expect(rows).toContain(hashToken(created.token));
    expect(rows).not.toContain(secret);
    if (engine === 'sqlite') {
      for (const name of readdirSync(dir).filter((f) => f.startsWith('mnemo.sqlite3'))) {
        expect(readFileSync(join(dir, name)).includes(secret), name).toBe(false);
      }
    }
  });
});
