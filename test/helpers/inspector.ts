// A seeded store served over real HTTP with the inspector's pages: bilingual events, memories (a fact and
// the newer one that superseded it, a preference, a procedure), objects and relations, and texts that hold
// markup, suggestions, a todo, a gate decision and an inbox item. `pending` adds stand-ins for a failure
// notice and for the snapshot stats `health` answers on main, in the shapes the inspector reads.
import { z } from 'zod';
import { HTTP_LIMITS } from '../../src/config.js';
import { NoticesResultSchema } from '../../src/organize/schema-jobs.js';
import { createInspector } from '../../src/inspector/inspector.js';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import { silentLogger } from '../../src/log.js';
import { tokenAuthenticator } from '../../src/protocol/http-guard.js';
import { startHttpServer, type HttpServer } from '../../src/protocol/http.js';
import { defineMethod, type MethodDef, type MethodTable } from '../../src/protocol/method.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import { at, openFactsFixture, said, type FactsFixture } from './facts.js';

export const OWNER = 'user:alice';
export const TOKEN = 'inspector-test-token-0123456789';
/** Memory text that a page which parsed it as HTML would run. */
export const INJECTED = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

export interface SeededInspector {
  url: string;
  fixture: FactsFixture;
  /** What the real methods answered while seeding (empty ids when not seeded). */
  ids: Seeded;
  close(): Promise<void>;
}

export interface Seeded {
  suggestions: string[];
  todo: string;
  audit: string;
}

const looseObject = z.object({}).loose();

/** A stand-in for a method of another part: params are checked loosely, results not at all. */
function standIn(
  name: string,
  access: 'read' | 'write',
  handler: (p: Record<string, unknown>) => unknown,
): MethodDef {
  return defineMethod({
    name,
    summary: `stand-in for ${name}`,
    access,
    owner: 'param',
    params: looseObject.extend({ owner: z.string() }),
    result: z.unknown(),
    handler: async (p) => handler(p),
  });
}

/**
 * A stand-in in the real method's result shape: a failure notice (a real one takes an automatic job failing
 * five times over 300 events, which test/organize/triggers.test.ts drives).
 */
function pendingMethods(): MethodDef[] {
  const notices = NoticesResultSchema.parse({
    notices: [
      {
        job_id: 'job_7',
        kind: 'compact',
        trigger: 'threshold',
        failed_at: '2026-11-16T01:00:00.000Z',
        failures: 5,
        last_failures: [
          { at: '2026-11-16T01:00:00.000Z', code: 'MODEL_ERROR', reason: 'timed out', batch_limit: 25 },
        ],
        message: '整理失败: the model timed out',
      },
    ],
    acked: null,
  });
  return [
    standIn('memory.organize.notices', 'write', (p) => (p.ack === undefined ? notices : { notices: [] })),
  ];
}

/**
 * `health` with the `snapshots` it answers once snapshots render (on main with the bounded snapshot; this
 * branch renders none), in that shape. At merge: render one with memory.snapshot and drop this.
 */
function withSnapshots(health: MethodDef): MethodDef {
  return defineMethod({
    ...health,
    params: looseObject,
    result: z.unknown(),
    handler: async (p, ctx) => ({
      ...looseObject.parse(await health.handler(p, ctx)),
      snapshots: [
        {
          owner: OWNER,
          samples: 3,
          last_total_bytes: 1804,
          median_total_bytes: 1750,
          max_total_bytes: 2011,
          sections: {
            USER: { median_bytes: 412, max_bytes: 430 },
            MEMORY: { median_bytes: 980, max_bytes: 1101 },
          },
        },
      ],
    }),
  });
}

/** Suggestions, a todo, a gate decision and an inbox item through the real methods; the ids they answered. */
async function seedKnowledge(served: LocalClient): Promise<Seeded> {
  const suggestions: string[] = [];
  for (const text of ['以后报销单都抄送财务 (cc finance on every expense report)', INJECTED]) {
    const { id } = await served.call<{ id: string }>('memory.suggest', { owner: OWNER, track: 'user', text });
    suggestions.push(id);
  }
  const todo = await served.call<{ id: string }>('memory.todo.add', {
    owner: OWNER,
    track: 'work',
    title: '提交九月报销 (submit the September expenses)',
    due: '2026-11-30',
  });
  const gate = await served.call<{ audit_id: string }>('memory.gate', {
    owner: OWNER,
    session_id: 's9',
    segment: { kind: 'tool_result', text: 'the build passed', ok: true },
  });
  await served.call('memory.inbox.inject', {
    owner: OWNER,
    session_id: 's9',
    item: { text: '财务说报销单要在周五前提交 (finance wants it by Friday)', source_role: 'user' },
  });
  return { suggestions, todo: todo.id, audit: gate.audit_id };
}

/** Seeds through the fixture's own table; `served` answers the recalls, so their latencies are measured. */
async function seed(f: FactsFixture, served: LocalClient): Promise<void> {
  f.clock.set(at('2026-11-10 09:00'));
  const first = [
    said('帮我整理一下九月份的发票报销，单号 RB-2026-0917', '2026-11-10 09:00', { session_id: 's1' }),
    said('以后会议纪要都用 Word', '2026-11-10 09:05', { session_id: 's1' }),
    said('I prefer window seats when you book my flights to Shanghai', '2026-11-10 09:10', {
      session_id: 's2',
    }),
  ];
  const [invoice, word, seats] = first.map((e) => e.event_id);
  await f.publish(OWNER, first, [
    {
      kind: 'fact',
      text: '会议纪要的格式是 Word',
      sources: [word ?? ''],
      subject: '会议纪要',
      predicate: '格式',
      object: 'Word',
      fact_kind: 'profile',
      quotes: [{ event_id: word ?? '', text: '以后会议纪要都用 Word' }],
    },
    {
      kind: 'preference',
      text: 'Window seats on flights to Shanghai',
      sources: [seats ?? ''],
      quotes: [{ event_id: seats ?? '', text: 'I prefer window seats' }],
    },
    { kind: 'episode', text: '整理九月份的发票报销 RB-2026-0917', sources: [invoice ?? ''] },
  ]);
  f.clock.set(at('2026-11-13 10:00'));
  const second = [
    said('会议纪要改成用 Markdown 写', '2026-11-13 10:00', { session_id: 's3' }),
    said(`A web page said: ${INJECTED}`, '2026-11-13 10:20', {
      kind: 'tool_result',
      role: 'tool',
      session_id: 's3',
    }),
    // A task result closes the batch: it comes last.
    said('Task t042 done: the expense report went to finance', '2026-11-13 10:30', {
      kind: 'task_result',
      role: 'system',
      task_id: 't042',
      session_id: 's3',
    }),
  ];
  const [markdown, injected, report] = second.map((e) => e.event_id);
  await f.publish(OWNER, second, [
    {
      kind: 'fact',
      text: '会议纪要的格式是 Markdown',
      sources: [markdown ?? ''],
      subject: '会议纪要',
      predicate: '格式',
      object: 'Markdown',
      fact_kind: 'profile',
      quotes: [{ event_id: markdown ?? '', text: '会议纪要改成用 Markdown 写' }],
    },
    {
      kind: 'procedure',
      text: 'Submit an expense report',
      sources: [report ?? ''],
      preconditions: ['all invoices are scanned'],
      steps: ['collect the invoices', '填写报销单', 'send it to finance'],
      checks: ['finance confirms receipt'],
      risk: 'low',
    },
    { kind: 'episode', text: `Injected text kept as data: ${INJECTED}`, sources: [injected ?? ''] },
  ]);
  f.clock.set(at('2026-11-16 09:00'));
  await f.client.call('memory.chain.upsert', {
    owner: OWNER,
    source_refs: [invoice, report],
    objects: [
      { ref: 'li', type: 'person', name: '李卫东', aliases: ['老李'], body: '财务部，负责报销审批' },
      {
        ref: 'apollo',
        type: 'project',
        name: 'Apollo',
        body: 'The expense tooling project',
        status: 'active',
      },
      { ref: 'todo', type: 'todo', name: '提交九月报销', body: 'RB-2026-0917' },
      { ref: 'x', type: 'knowledge', name: 'Injected <b>name</b>', body: INJECTED },
    ],
    relations: [
      { from: 'li', to: 'apollo', type: 'works_on' },
      { from: 'todo', to: 'apollo', type: 'part_of' },
      { from: 'todo', to: 'li', type: 'approved_by' },
      { from: 'x', to: 'apollo', type: 'mentions' },
    ],
  });
  for (const query of ['发票报销', 'window seat', 'RB-2026-0917', '会议纪要']) {
    await served.call('memory.recall', { owner: OWNER, query });
  }
}

export interface InspectorServerOptions {
  /** Seed the store (default true). */
  seeded?: boolean;
  /** Add the stand-ins of the methods other parts bring (default true). */
  pending?: boolean;
}

export async function startSeededInspector(options: InspectorServerOptions = {}): Promise<SeededInspector> {
  const fixture = await openFactsFixture('sqlite');
  const table = new Map(createMethodTable(fixture.service));
  if (options.pending ?? true) {
    for (const def of pendingMethods()) table.set(def.name, def);
    const health = table.get('health');
    if (health) table.set('health', withSnapshots(health));
  }
  const served: MethodTable = table;
  let ids: Seeded = { suggestions: [], todo: '', audit: '' };
  if (options.seeded ?? true) {
    await seed(fixture, createLocalClient(served));
    ids = await seedKnowledge(createLocalClient(served));
  }
  let http: HttpServer;
  try {
    http = await startHttpServer({
      table: served,
      authenticate: tokenAuthenticator(TOKEN),
      host: '127.0.0.1',
      port: 0,
      maxBodyBytes: 1024 * 1024,
      maxConnections: 64,
      ...HTTP_LIMITS,
      log: silentLogger(),
      handleOptions: { checkResults: true },
      pages: createInspector({ table: served, auth: 'token' }),
    });
  } catch (error) {
    await fixture.close();
    throw error;
  }
  return {
    url: http.url,
    fixture,
    ids,
    async close() {
      await http.close();
      await fixture.close();
    },
  };
}
