import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { createLocalClient, type LocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';

const T = Date.parse('2026-09-01T09:00:00Z');
const ev = (id: string, minutes: number) => ({
  event_id: id,
  kind: 'note',
  role: 'system',
  at: T + minutes * 60_000,
  text: `note ${id}`,
});
type Around = { anchor: { id: string } | null; before: Array<{ id: string }>; after: Array<{ id: string }> };
const ids = (r: Around) => [r.before.map((h) => h.id), r.anchor?.id ?? null, r.after.map((h) => h.id)];

describe.each(ENGINES)('timeline.around on %s', (engine) => {
  let handle: TestService;
  let client: LocalClient;
  beforeEach(async () => {
    handle = await openTestService(engine);
    client = createLocalClient(createMethodTable(handle.service));
    // Ingested out of time order; b and c share a time, and another owner's event sits in between.
    await client.call('memory.events.ingest', {
      owner: 'o1',
      events: [ev('d', 3), ev('a', 0), ev('b', 1), ev('c', 1), ev('e', 4)],
    });
    await client.call('memory.events.ingest', { owner: 'o2', events: [ev('x', 2)] });
  });
  afterEach(() => handle.close());

  const around = (params: object) => client.call<Around>('timeline.around', { owner: 'o1', ...params });

  it('orders by time, then by sequence for equal times, and keeps to the owner', async () => {
    expect(ids(await around({ id: 'c', before: 2, after: 2 }))).toEqual([['a', 'b'], 'c', ['d', 'e']]);
    expect(ids(await around({ id: 'b', before: 5, after: 1 }))).toEqual([['a'], 'b', ['c']]);
    expect(ids(await around({ at: T + 2 * 60_000, before: 1, after: 9 }))).toEqual([['c'], null, ['d', 'e']]);
    // An event at exactly `at` comes after it.
    expect(ids(await around({ at: new Date(T).toISOString(), before: 0 }))).toEqual([
      [],
      null,
      ['a', 'b', 'c', 'd', 'e'],
    ]);
  });

  it('wants exactly one of id and at, and an id of this owner', async () => {
    await expect(around({})).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(around({ id: 'a', at: T })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(around({ id: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
