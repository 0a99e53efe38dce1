// A seeded store served over real HTTP with the inspector's pages: bilingual events, memories (a fact and
// the newer one that superseded it, a preference, a procedure), objects and relations, and texts that hold
// markup. `pending` adds stand-ins for the methods other parts bring (suggestions, todos, skills, audit,
// organize, snapshots), in the shapes the inspector reads, so that their views light up.
import { z } from 'zod';
import { HTTP_LIMITS } from '../../src/config.js';
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
  /** The decisions the stand-in memory.suggestions.decide received. */
  decisions: Array<{ id: string; decision: string }>;
  close(): Promise<void>;
}

const looseObject = z.object({}).loose();

/** A stand-in for a method of another part: params are checked loosely, results not at all. */
function standIn(
  name: string,
  access: 'read' | 'write',
  handler: (p: Record<string, unknown>) => unknown,
  owner: 'param' | 'optional' = 'param',
): MethodDef {
  return defineMethod({
    name,
    summary: `stand-in for ${name}`,
    access,
    owner,
    params: looseObject.extend({ owner: owner === 'param' ? z.string() : z.string().optional() }),
    result: z.unknown(),
    handler: async (p) => handler(p),
  });
}

function pendingMethods(decisions: SeededInspector['decisions']): MethodDef[] {
  const suggestions = [
    {
      id: 'sug_1',
      kind: 'fact',
      text: '以后报销单都抄送财务 (cc finance on every expense report)',
      status: 'pending',
      created_at: '2026-11-16T02:00:00.000Z',
    },
    {
      id: 'sug_2',
      kind: 'preference',
      text: INJECTED,
      status: 'pending',
      created_at: '2026-11-16T02:05:00.000Z',
    },
  ];
  const notices = [
    {
      job_id: 'job_7',
      kind: 'compact',
      message: '整理失败: the model timed out',
      at: '2026-11-16T01:00:00Z',
    },
  ];
  return [
    standIn('memory.suggestions.list', 'read', () => ({ items: suggestions })),
    standIn('memory.suggestions.decide', 'write', (p) => {
      const found = suggestions.find((s) => s.id === p.id);
      if (!found) return { id: p.id, status: 'missing' };
      decisions.push({ id: String(p.id), decision: String(p.decision) });
      found.status = p.decision === 'approve' ? 'approved' : 'rejected';
      return { id: found.id, status: found.status };
    }),
    standIn('memory.todo.list', 'read', () => ({
      items: [
        {
          id: 'todo_1',
          text: '提交九月报销 (submit the September expenses)',
          status: 'open',
          due: '2026-09-30',
        },
      ],
    })),
    standIn('memory.skill.list', 'read', () => ({
      items: [{ id: 'skill_1', name: 'Book flights: window seat first', status: 'draft', steps: 3 }],
    })),
    standIn('memory.audit.query', 'read', () => ({
      items: [{ id: 'pkt_1', trigger: 'step', action: 'injected', bytes: 812, sources: ['k1', 'k2'] }],
    })),
    standIn('memory.inbox.list', 'read', () => ({ items: [] })),
    standIn(
      'memory.chain.status',
      'read',
      () => ({ queue: { queued: 1, leased: 0, failed: 1 } }),
      'optional',
    ),
    standIn('memory.organize.notices', 'write', (p) => ({ notices: p.ack === undefined ? notices : [] })),
    standIn('memory.snapshot.stats', 'read', () => ({
      sections: [{ name: 'memory', bytes: 1804, entries: 6, cap_bytes: 2048 }],
    })),
  ];
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
  const decisions: SeededInspector['decisions'] = [];
  const table = new Map(createMethodTable(fixture.service));
  if (options.pending ?? true) for (const def of pendingMethods(decisions)) table.set(def.name, def);
  const served: MethodTable = table;
  if (options.seeded ?? true) await seed(fixture, createLocalClient(served));
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
    decisions,
    async close() {
      await http.close();
      await fixture.close();
    },
  };
}
