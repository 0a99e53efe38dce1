import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestEvents } from '../ingest/ingest.js';
import { indexOf } from '../search/search.js';
import { openMemory, type MemoryService } from '../service.js';
import { findNeighbours } from './neighbours.js';
import { recallMemory } from './recall.js';
import { RecallParamsSchema } from './schema.js';

let service: MemoryService;
const at = (minute: number) => Date.UTC(2026, 9, 1, 9, minute);

beforeEach(async () => {
  service = await openMemory({ config: { dataDir: 'unused', redactEmails: true }, databasePath: ':memory:' });
  const deps = { driver: service.driver, redactor: service.redactor, salt: service.salt };
  const event = (id: string, session: string, role: string, kind: string, minute: number, text: string) => ({
    event_id: id,
    session_id: session,
    kind,
    role,
    at: at(minute),
    text,
  });
  await ingestEvents(deps, 'me', [
    event('q1', 's1', 'user', 'user_message', 0, 'Which invoice template should the quarterly report use?'),
    event('r1', 's1', 'agent', 'agent_reply', 1, 'I checked the folder for you.'),
    event('t1', 's1', 'tool', 'tool_result', 2, 'Found v3.docx in the shared drive'),
    event('x1', 's1', 'agent', 'agent_reply', 30, 'Anything else today?'),
    event('o1', 's2', 'user', 'user_message', 5, 'A different session about lunch.'),
  ]);
  await ingestEvents(deps, 'other', [event('z1', 's1', 'agent', 'agent_reply', 1, 'not yours')]);
});
afterEach(() => service.close());

describe('findNeighbours', () => {
  it("returns the anchor's later events of its session, then its earlier one, under the owner's filters", async () => {
    const [row] = await indexOf(service.driver).docs(service.driver, [2], { owner: 'me' });
    if (!row) throw new Error('no doc 2');
    const near = await findNeighbours(service.driver, [row], { owner: 'me' }, { after: 2, before: 1 });
    expect(near.map((h) => h.ref)).toEqual(['t1', 'x1', 'q1']);
    const none = await findNeighbours(
      service.driver,
      [row],
      { owner: 'me', from: at(20) },
      { after: 2, before: 1 },
    );
    expect(none.map((h) => h.ref)).toEqual(['x1']);
  });
});

describe('recall: neighbours of the best hits are candidates (issue 11)', () => {
  it('finds the reply and the tool result next to the matching question, with their anchor in channels', async () => {
    const r = await recallMemory(
      service.driver,
      RecallParamsSchema.parse({ owner: 'me', query: 'quarterly report invoice template' }),
    );
    const ids = r.items.map((i) => i.id);
    expect(ids[0]).toBe('q1');
    expect(ids).toContain('t1');
    expect(r.items.find((i) => i.id === 't1')?.channels).toEqual({ neighbour: 1 });
    expect(ids).not.toContain('z1');
    expect(ids).not.toContain('o1');
  });
});
