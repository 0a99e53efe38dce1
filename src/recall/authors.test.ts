import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { createLocalClient, type LocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { capitalizedTerms } from './authors.js';

const T = Date.parse('2026-09-01T09:00:00Z');
type Recall = { items: Array<{ id: string }> };

describe('capitalizedTerms', () => {
  it('reads the capitalized words after the first as names, in their index form', () => {
    expect([...capitalizedTerms('What did Caroline and Mel paint for "Pride" day?')]).toEqual([
      'carolin',
      'mel',
      'pride',
    ]);
    expect(capitalizedTerms('What did we paint?').size).toBe(0);
    expect(capitalizedTerms('老郑的电话是多少').size).toBe(0);
  });
});

describe.each(ENGINES)(
  'recall: a question naming a speaker prefers their own turns (issue 11) on %s',
  (engine) => {
    let handle: TestService;
    let client: LocalClient;
    beforeEach(async () => {
      handle = await openTestService(engine);
      client = createLocalClient(createMethodTable(handle.service));
      // A log that writes each speaker's name into their turns, as chat exports do.
      const turn = (id: string, role: 'user' | 'agent', minute: number, text: string) => ({
        event_id: id,
        session_id: `s${Math.floor(minute / 4)}`,
        kind: role === 'user' ? 'user_message' : 'agent_reply',
        role,
        at: T + minute * 60_000,
        text,
      });
      const small = ['the weather', 'a game night', 'the new job', 'a long drive', 'the dentist', 'a movie'];
      await client.call('memory.events.ingest', {
        owner: 'me',
        events: [
          ...Array.from({ length: 20 }, (_, i) =>
            turn(`n${i}`, 'agent', i * 2, `Nate: Just talking about ${small[i % small.length]} number ${i}.`),
          ),
          ...Array.from({ length: 6 }, (_, i) =>
            turn(`j${i}`, 'user', i * 2 + 1, `Joanna: Sure, ${small[i]} sounds fine to me.`),
          ),
          turn('joanna-asks', 'user', 60, 'Joanna: Nate, I feed turtles fruit.'),
          turn(
            'nate-says',
            'agent',
            70,
            'Nate: I feed the turtles fruit every single morning, strawberries mostly, and some lettuce at night.',
          ),
        ],
      });
    });
    afterEach(() => handle.close());

    it("ranks the named speaker's own turn above the turn that addresses them", async () => {
      const r = await client.call<Recall>('memory.recall', {
        owner: 'me',
        query: 'What fruit does Nate feed the turtles?',
        kinds: ['event'],
        wait_ms: 60_000,
      });
      expect(r.items.slice(0, 2).map((i) => i.id)).toEqual(['nate-says', 'joanna-asks']);
      // Without the name written as a name, no author is read from it.
      const plain = await client.call<Recall>('memory.recall', {
        owner: 'me',
        query: 'what fruit does nate feed the turtles?',
        kinds: ['event'],
        wait_ms: 60_000,
      });
      expect(plain.items[0]?.id).toBe('joanna-asks');
    });
  },
);
