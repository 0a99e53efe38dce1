// memory.browse and health.history through the method table, on every engine: memories newest first with
// status, validity and sources; what the store took in per day; the recall latencies this table measured.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { at, openFactsFixture, said, type FactsFixture } from '../../test/helpers/facts.js';
import { createLocalClient, type LocalClient } from '../local-client.js';
import type { MethodResult } from '../protocol/catalog.js';
import { createMethodTable } from '../protocol/methods.js';
import { createRecallLatency, quantile } from './recall-latency.js';

const OWNER = 'user:browse';
const OTHER = 'user:other';

describe.each(ENGINES)('inspector methods on %s', (engine) => {
  let f: FactsFixture;
  let client: LocalClient;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
    client = createLocalClient(createMethodTable(f.service), { checkResults: true });
    f.clock.set(at('2026-11-14 09:00'));
    const word = said('以后会议纪要都用 Word', '2026-11-14 09:00');
    await f.publish(
      OWNER,
      [word],
      [
        {
          kind: 'fact',
          text: '会议纪要 · 格式 · Word',
          sources: [word.event_id],
          subject: '会议纪要',
          predicate: '格式',
          object: 'Word',
          fact_kind: 'profile',
          quotes: [{ event_id: word.event_id, text: '以后会议纪要都用 Word' }],
        },
      ],
    );
    f.clock.set(at('2026-11-16 10:00'));
    const md = said('会议纪要改成 Markdown', '2026-11-16 10:00');
    const done = said('Deployed with make release', '2026-11-16 10:01', {
      kind: 'task_result',
      role: 'system',
    });
    await f.publish(
      OWNER,
      [md, done],
      [
        {
          kind: 'fact',
          text: '会议纪要 · 格式 · Markdown',
          sources: [md.event_id],
          subject: '会议纪要',
          predicate: '格式',
          object: 'Markdown',
          fact_kind: 'profile',
          quotes: [{ event_id: md.event_id, text: '会议纪要改成 Markdown' }],
        },
        {
          kind: 'procedure',
          text: 'Release',
          sources: [done.event_id],
          steps: ['make release'],
          risk: 'low',
        },
      ],
    );
    await f.ingest(OTHER, [said('another owner', '2026-11-16 10:02')]);
  });
  afterEach(() => f.close());

  it('browses memories newest first with status, validity and sources, filtered and paged', async () => {
    type Browse = MethodResult<'memory.browse'>;
    const all = await client.call<Browse>('memory.browse', { owner: OWNER });
    const shown = all.items.map((m) => [m.kind, m.value ?? m.text, m.status, m.current]);
    // Newest first: the two of the second publication (in id order among themselves), then the first.
    expect(shown.slice(0, 2)).toEqual(
      expect.arrayContaining([
        ['procedure', 'Release', 'observed', true],
        ['fact', 'Markdown', 'candidate', true],
      ]),
    );
    expect(shown[2]).toEqual(['fact', 'Word', 'superseded', false]);
    const word = all.items.find((m) => m.value === 'Word');
    expect(word).toMatchObject({
      subject: '会议纪要',
      predicate: '格式',
      valid_from: new Date(at('2026-11-14 09:00')).toISOString(),
      valid_to: new Date(at('2026-11-16 10:00')).toISOString(),
      origin: 'user',
    });
    expect(word?.sources).toHaveLength(1);
    expect(all.items.find((m) => m.kind === 'procedure')?.procedure).toEqual({
      preconditions: [],
      steps: ['make release'],
      checks: [],
      risk: 'low',
    });
    const superseded = await client.call<Browse>('memory.browse', { owner: OWNER, statuses: ['superseded'] });
    expect(superseded.items.map((m) => m.value)).toEqual(['Word']);
    const procedures = await client.call<Browse>('memory.browse', { owner: OWNER, kinds: ['procedure'] });
    expect(procedures.items.map((m) => m.text)).toEqual(['Release']);
    const pages: string[] = [];
    let after: string | undefined;
    do {
      const page: Browse = await client.call<Browse>('memory.browse', {
        owner: OWNER,
        limit: 1,
        ...(after ? { after } : {}),
      });
      pages.push(...page.items.map((m) => m.id));
      after = page.next_after ?? undefined;
    } while (after);
    expect(pages).toEqual(all.items.map((m) => m.id));
    expect((await client.call<Browse>('memory.browse', { owner: OTHER })).items).toEqual([]);
  });

  it('counts what was stored per UTC day and per owner, and the recalls this table answered', async () => {
    type History = MethodResult<'health.history'>;
    await client.call('memory.recall', { owner: OWNER, query: '会议纪要' });
    await client.call('memory.recall', { owner: OTHER, query: 'owner' });
    const history = await client.call<History>('health.history', { days: 3 });
    expect(history.days.map((d) => d.day)).toEqual(['2026-11-14', '2026-11-15', '2026-11-16']);
    // Shanghai 09:00 and 10:00 are 01:00 and 02:00 UTC on the same days.
    expect(history.days.map((d) => [d.events, d.memories])).toEqual([
      [1, 1],
      [0, 0],
      [3, 2],
    ]);
    expect(history.totals).toEqual({ events: 4, memories: 3, objects: 0 });
    expect(history.owners).toEqual([
      { owner: OWNER, events: 3, memories: 3, objects: 0 },
      { owner: OTHER, events: 1, memories: 0, objects: 0 },
    ]);
    expect(history.recall.count).toBe(2);
    expect(history.recall.samples.every((s) => s.took_ms >= 0)).toBe(true);
    const mine = await client.call<History>('health.history', { owner: OWNER, days: 1 });
    expect(mine.owners.map((o) => o.owner)).toEqual([OWNER]);
    expect(mine.totals.events).toBe(3);
    expect(mine.recall.count).toBe(1);
  });
});

describe('recall latency', () => {
  it('keeps the newest samples, oldest first, and shows a caller only its own owners', () => {
    const log = createRecallLatency(3);
    for (let i = 1; i <= 5; i++) log.record({ at: i, owner: i % 2 ? 'a' : 'b', took_ms: i, items: 0 });
    const all = { kind: 'all', name: 't' } as const;
    expect(log.samples(all).map((s) => s.took_ms)).toEqual([3, 4, 5]);
    expect(log.samples(all, 'b').map((s) => s.took_ms)).toEqual([4]);
    expect(log.samples({ kind: 'scoped', name: 's', owners: ['a'] }).map((s) => s.took_ms)).toEqual([3, 5]);
  });

  it('takes quantiles by the nearest rank', () => {
    expect(quantile([], 0.5)).toBeNull();
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.95)).toBe(4);
    expect(quantile([7], 0.95)).toBe(7);
  });
});
