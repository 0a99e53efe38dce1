// Regression (issue 8): redaction that cannot be reversed — duplicates decided on the redacted content,
// finding fingerprints keyed by a secret outside the database, old hashes moved onto the redacted form.
import { createHmac } from 'node:crypto';
import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDirs } from '../test/helpers/temp.js';
import { contentHash } from './ingest/prepare.js';
import { createLocalClient } from './local-client.js';
import { createMethodTable } from './protocol/methods.js';
import { openMemory, redactionKeyPath, type MemoryService } from './service.js';
import { sqlFirst } from '../test/helpers/sql.js';
import { ENGINES, engineConfig } from '../test/helpers/engines.js';
import type { Config } from './config.js';

const temp = createTempDirs();
const open: MemoryService[] = [];
const stores: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  await Promise.all(stores.splice(0).map((drop) => drop()));
  temp.cleanup();
});

const wifi = (password: string) => ({
  event_id: 'wifi',
  kind: 'user_message',
  role: 'user',
  at: 1_780_000_000_000,
  text: `家里 Wi-Fi 密码：${password}，记一下`,
});

describe.each(ENGINES)('redaction cannot be reversed on %s', (engine) => {
  let store: Partial<Config>;
  beforeEach(async () => {
    const fresh = await engineConfig(engine);
    stores.push(fresh.drop);
    store = fresh.config;
  });

  /** A service on the data directory (the redaction key) and the test's store (PostgreSQL: one schema). */
  async function start(dir: string) {
    const service = await openMemory({ config: { dataDir: dir, redactEmails: true, ...store } });
    open.push(service);
    return { service, client: createLocalClient(createMethodTable(service)) };
  }

  it('decides duplicates on the redacted content, so guesses of a secret all answer alike', async () => {
    const { client } = await start(temp.make());
    await client.call('memory.events.ingest', { owner: 'o', events: [wifi('Xk7-pLm9q2')] });
    for (const guess of ['Xk7-pLm9q2', 'password1', 'Xk7-pLm9q3']) {
      expect(await client.call('memory.events.ingest', { owner: 'o', events: [wifi(guess)] })).toEqual({
        accepted: 0,
        duplicates: 1,
        rejected: [],
      });
    }
    const other = { ...wifi('Xk7-pLm9q2'), text: '家里 Wi-Fi 密码换了' };
    const conflict = await client.call<{ rejected: Array<{ code: string }> }>('memory.events.ingest', {
      owner: 'o',
      events: [other],
    });
    expect(conflict.rejected.map((r) => r.code)).toEqual(['EVENT_CONFLICT']);
  });

  it('keys finding fingerprints with a 0600 key file outside the database, stable across starts', async () => {
    const dir = temp.make();
    const phone = '138 1234 5678';
    const first = await start(dir);
    await first.client.call('memory.events.ingest', {
      owner: 'o',
      events: [{ ...wifi('x'), event_id: 'p', text: `电话 ${phone}` }],
    });
    const read = async (s: MemoryService) => {
      const row = await sqlFirst<{ redactions: string }>(
        s.driver,
        `SELECT redactions FROM events WHERE event_id = 'p'`,
      );
      return (JSON.parse(row?.redactions ?? '{}') as { text: Array<{ hash: string }> }).text[0]?.hash;
    };
    const hash = await read(first.service);
    expect(statSync(redactionKeyPath(dir)).mode & 0o777).toBe(0o600);
    // Nothing in the database reproduces the fingerprint: not its salt, not an unkeyed hash.
    const salt = (
      await sqlFirst<{ value: string }>(first.service.driver, `SELECT value FROM settings WHERE key = 'salt'`)
    )?.value;
    for (const key of [salt ?? '', '']) {
      expect(createHmac('sha256', key).update(phone).digest('hex').slice(0, 16)).not.toBe(hash);
    }
    await first.service.close();
    open.splice(0);
    const again = await start(dir);
    await again.client.call('memory.events.ingest', {
      owner: 'o',
      events: [{ ...wifi('x'), event_id: 'p2', text: `电话 ${phone}` }],
    });
    const row = await sqlFirst<{ redactions: string }>(
      again.service.driver,
      `SELECT redactions FROM events WHERE event_id = 'p2'`,
    );
    expect(row?.redactions).toContain(hash ?? 'missing');
  });

  it('moves an old hash over the unredacted text onto the redacted form at the next start', async () => {
    const dir = temp.make();
    const first = await start(dir);
    await first.client.call('memory.events.ingest', { owner: 'o', events: [wifi('Xk7-pLm9q2')] });
    const { salt } = first.service;
    // As an older mnemo stored it: the hash of what the client sent, before redaction.
    const event = wifi('Xk7-pLm9q2');
    await first.service.driver.run(`UPDATE events SET content_hash = ? WHERE event_id = 'wifi'`, [
      contentHash(salt, event),
    ]);
    await first.service.driver.run(`INSERT INTO settings (key, value) VALUES ('rehash_redacted', 'pending')`);
    await first.service.close();
    open.splice(0);
    const again = await start(dir);
    expect(
      await again.client.call('memory.events.ingest', { owner: 'o', events: [wifi('guess')] }),
    ).toMatchObject({
      duplicates: 1,
    });
  });

  it('never echoes an id that is itself a secret back in an error', async () => {
    const { client } = await start(temp.make());
    const failed = await client
      .call('timeline.append', { owner: 'o', id: '13812345678', kind: 'note', text: 'x' })
      .then(
        () => null,
        (error: Error & { data?: unknown }) => error,
      );
    expect(failed).not.toBeNull();
    expect(JSON.stringify({ message: failed?.message, data: failed?.data })).not.toContain('13812345678');
  });
});
