// Issue 10: proposals create and merge objects, aliases and relations, validated like memories and
// published with them — from the heuristic observer's alias forms and from an external worker, on both engines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import { proposeHeuristically } from '../../src/observe/heuristic.js';
import { createObservation, type ClaimedBatch, type Observation } from '../../src/observe/observe.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import { ENGINES, openTestService, type TestService } from '../helpers/engines.js';
import { sqlRows } from '../helpers/sql.js';

const T0 = Date.parse('2026-11-02T09:00:00Z');
const OWNER = 'user:alice';

interface Found {
  items: Array<{ id: string; name: string; aliases: string[]; status: string; match: string }>;
}

describe.each(ENGINES)('objects from proposals on %s', (engine) => {
  let store: TestService;
  let client: LocalClient;
  let observation: Observation;
  let t = T0;
  let n = 0;
  beforeEach(async () => {
    t = T0;
    n = 0;
    store = await openTestService(engine, { now: () => t });
    client = createLocalClient(createMethodTable(store.service), { checkResults: true });
    observation = createObservation({
      driver: store.service.driver,
      redactor: store.service.redactor,
      now: () => t,
    });
  });
  afterEach(() => store.close());

  const ingest = (texts: Array<string | { text: string; role: string; kind: string }>) =>
    client.call('memory.events.ingest', {
      owner: OWNER,
      events: texts.map((x) => {
        const e = typeof x === 'string' ? { text: x, role: 'user', kind: 'user_message' } : x;
        return { event_id: `e${++n}`, session_id: 's1', at: T0 + n * 1000, ...e };
      }),
    });
  const claim = async (): Promise<ClaimedBatch> => {
    t += 31_000;
    const batch = await observation.claim({ owner: OWNER });
    if (!batch) throw new Error('expected a batch');
    return batch;
  };
  const heuristic = async () => {
    const batch = await claim();
    return observation.commit({
      batch_id: batch.batch_id,
      token: batch.token,
      proposal: proposeHeuristically(batch.events),
    });
  };
  const find = (query: string, extra: Record<string, unknown> = {}) =>
    client.call<Found>('memory.chain.find', { owner: OWNER, query, ...extra });
  const objectCount = async () =>
    Number((await sqlRows<{ n: number }>(store.service.driver, 'SELECT count(*) AS n FROM objects'))[0]?.n);
  /** A proposal that discards every event of the batch but those cited. */
  const proposal = (batch: ClaimedBatch, cited: string[], extra: Record<string, unknown>) => ({
    dispositions: batch.events.map((e) =>
      cited.includes(e.event_id)
        ? { event_id: e.event_id, action: 'cited' }
        : { event_id: e.event_id, action: 'discarded', reason: 'test' },
    ),
    memories: [],
    ...extra,
  });

  it('publishes the heuristic observer’s alias forms: "老李" finds 李卫东, "我爱人" finds 林晓 with the relation', async () => {
    await ingest([
      '李卫东（老李）下周从深圳回来',
      '我爱人林晓说周末去爬山',
      '小赵是行政，负责报销',
      'Tony (唐志远) leads the launch',
    ]);
    const receipt = await heuristic();
    expect(receipt.object_ids).toHaveLength(5);
    expect((await find('老李')).items[0]).toMatchObject({ name: '李卫东', match: 'alias' });
    expect((await find('唐志远')).items[0]).toMatchObject({ name: 'Tony', match: 'alias' });
    expect((await find('Tony')).items[0]).toMatchObject({ name: 'Tony', aliases: ['唐志远'], match: 'name' });
    const wife = (await find('我爱人')).items[0];
    expect(wife).toMatchObject({ name: '林晓', status: 'active' });
    const view = await client.call<{
      relations: Array<{ type: string; from_name: string; to_name: string; sources: string[] }>;
      object: { sources: Array<{ event_id: string; quote: string | null }> };
    }>('memory.chain.read', { owner: OWNER, id: wife?.id });
    expect(view.relations).toEqual([
      expect.objectContaining({ type: 'spouse', from_name: '我', to_name: '林晓', sources: ['e2'] }),
    ]);
    expect(view.object.sources).toEqual([{ event_id: 'e2', quote: '我爱人林晓' }]);
    expect((await find('行政')).items[0]).toMatchObject({ name: '小赵', match: 'text' });

    // Restated in another batch and form: merged, never a second 李卫东.
    const before = await objectCount();
    await ingest(['其实老李就是李卫东，他管财务']);
    const again = await heuristic();
    expect(again.object_ids).toEqual([(await find('李卫东')).items[0]?.id]);
    expect(await objectCount()).toBe(before);
  });

  it('merges a proposed object into one a host wrote, by alias, adding the source and the body', async () => {
    const written = await client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      owner: OWNER,
      objects: [{ type: 'person', name: '唐志远', aliases: ['Tony'], body: 'tech lead' }],
    });
    await ingest(['Tony prefers stand-ups at 10']);
    const batch = await claim();
    const receipt = await observation.commit({
      batch_id: batch.batch_id,
      token: batch.token,
      proposal: proposal(batch, ['e1'], {
        objects: [
          {
            type: 'person',
            name: 'Tony',
            body: 'prefers stand-ups at 10',
            sources: ['e1'],
            quotes: [{ event_id: 'e1', text: 'Tony prefers' }],
          },
        ],
      }),
    });
    const id = written.objects[0]?.id;
    expect(receipt.object_ids).toEqual([id]);
    const view = await client.call<{
      object: { body: string; revision: number; sources: Array<{ event_id: string }> };
    }>('memory.chain.read', { owner: OWNER, id });
    expect(view.object.body).toBe('tech lead\nprefers stand-ups at 10');
    expect(view.object.revision).toBe(2);
    expect(view.object.sources.map((s) => s.event_id)).toContain('e1');
  });

  it('a proposed project is a candidate; relations may name existing objects by id', async () => {
    const person = await client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      owner: OWNER,
      objects: [{ type: 'person', name: '李卫东' }],
    });
    await ingest(['老李要负责潮汐项目']);
    const batch = await claim();
    const receipt = await observation.commit({
      batch_id: batch.batch_id,
      token: batch.token,
      proposal: proposal(batch, ['e1'], {
        objects: [{ ref: 'tide', type: 'project', name: '潮汐', sources: ['e1'] }],
        relations: [{ from: person.objects[0]?.id, to: 'tide', type: 'works_on', sources: ['e1'] }],
      }),
    });
    const [tide] = receipt.object_ids ?? [];
    expect((await find('潮汐')).items[0]).toMatchObject({ id: tide, status: 'candidate' });
    const rows = await sqlRows<{ type: string }>(store.service.driver, 'SELECT type FROM object_relations');
    expect(rows.map((r) => r.type)).toEqual(['works_on']);
  });

  it('refuses objects and relations like memories: sources in the batch, verbatim quotes, known types and objects', async () => {
    await ingest(['李卫东（老李）下周回来']);
    // Each refusal requeues the batch with backoff: claim it again for the next attempt.
    const issues = async (extra: Record<string, unknown>) => {
      t += 15 * 60_000;
      const batch = await claim();
      try {
        await observation.commit({
          batch_id: batch.batch_id,
          token: batch.token,
          proposal: proposal(batch, ['e1'], extra),
        });
        return [];
      } catch (error) {
        return (
          (error as { data?: { issues?: Array<{ code: string; path: string }> } }).data?.issues ?? []
        ).map((i) => [i.code, i.path]);
      }
    };
    const person = { type: 'person', name: '李卫东', sources: ['e1'] };
    expect(await issues({ objects: [{ ...person, sources: ['elsewhere'] }] })).toContainEqual([
      'source_outside_batch',
      'objects.0.sources.0',
    ]);
    expect(
      await issues({ objects: [{ ...person, quotes: [{ event_id: 'e1', text: '李卫东是老李' }] }] }),
    ).toEqual([['quote_not_verbatim', 'objects.0.quotes.0.text']]);
    expect(await issues({ objects: [{ ...person, type: 'pet' }] })).toEqual([
      ['unknown_type', 'objects.0.type'],
    ]);
    expect(
      await issues({
        objects: [
          { ...person, ref: 'a' },
          { ...person, ref: 'a' },
        ],
      }),
    ).toEqual([['duplicate_ref', 'objects.1.ref']]);
    expect(
      await issues({
        objects: [{ ...person, ref: 'li' }],
        relations: [{ from: 'li', to: 'obj_ghost', type: 'knows', sources: ['e1'] }],
      }),
    ).toEqual([['unknown_object', 'relations.0.to']]);
    expect(await issues({ objects: [{ ...person, body: 'x'.repeat(16_001) }] })).toContainEqual([
      'invalid_shape',
      'objects.0.body',
    ]);
    expect(await objectCount()).toBe(0);
  });

  it('refuses a credential value in a proposed credential_ref and redacts proposed objects otherwise', async () => {
    await ingest(['部署用的 token 在 1Password 的 Work 保险库']);
    const batch = await claim();
    const base = { batch_id: batch.batch_id, token: batch.token };
    await expect(
      observation.commit({
        ...base,
        proposal: proposal(batch, ['e1'], {
          objects: [
            {
              type: 'credential_ref',
              name: 'deploy token',
              body: 'password=Tr0ub4dor-3xyz',
              sources: ['e1'],
            },
          ],
        }),
      }),
    ).rejects.toMatchObject({
      code: 'PROPOSAL_INVALID',
      data: { issues: [{ code: 'credential_value', path: 'objects.0.body' }] },
    });
    expect(await objectCount()).toBe(0);
    t += 60_000;
    const again = await observation.claim({ owner: OWNER });
    if (!again) throw new Error('expected the batch again');
    await observation.commit({
      batch_id: again.batch_id,
      token: again.token,
      proposal: proposal(again, ['e1'], {
        objects: [
          { type: 'credential_ref', name: 'deploy token', body: '1Password, Work vault', sources: ['e1'] },
          {
            type: 'person',
            name: 'Kevin',
            body: 'key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEF',
            sources: ['e1'],
          },
        ],
      }),
    });
    const bodies = await sqlRows<{ body: string }>(
      store.service.driver,
      'SELECT body FROM objects ORDER BY name',
    );
    expect(bodies.map((b) => b.body)).toEqual(['key [redacted:api_key]', '1Password, Work vault']);
  });
});
