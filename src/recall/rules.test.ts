import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestEvents } from '../ingest/ingest.js';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { recallMemory } from './recall.js';
import { asksForRule, statesRule } from './rules.js';
import { RecallParamsSchema } from './schema.js';

describe('standing rules', () => {
  it('knows a question about how something should be done, in Chinese and English', () => {
    for (const q of [
      '帮我买高铁票时，座位应该怎么挑？',
      '给满满点外卖要注意什么？',
      'Which seat should you book for me?',
    ])
      expect(asksForRule(q), q).toBe(true);
    for (const q of ['G7326 几点发车？', 'When did I fly to Singapore?'])
      expect(asksForRule(q), q).toBe(false);
  });

  it('knows a standing instruction, in Chinese and English', () => {
    for (const t of ['以后高铁都给我选靠窗', '记住，小满花生过敏', 'From now on book aisle seats'])
      expect(statesRule(t), t).toBe(true);
    for (const t of ['今天的高铁选了靠窗', 'I booked an aisle seat today'])
      expect(statesRule(t), t).toBe(false);
  });
});

describe.each(ENGINES)('the standing-rule prior on %s', (engine) => {
  let handle: TestService;
  beforeEach(async () => {
    handle = await openTestService(engine);
    const { service } = handle;
    const deps = { driver: service.driver, redactor: service.redactor, salt: service.salt };
    const texts = [
      ['r1', '这次高铁座位选了过道，座位号 7C'],
      ['r2', '以后高铁座位都给我选靠窗'],
      ['r3', 'The aisle seat on this flight was 32C, seat map attached'],
      ['r4', 'From now on pick a window seat for me'],
    ];
    await ingestEvents(
      deps,
      'me',
      texts.map(([id, text], i) => ({
        event_id: id,
        kind: 'user_message',
        role: 'user',
        at: 1_000_000 + i * 60_000,
        text,
      })),
    );
  });
  afterEach(() => handle.close());

  const top = async (query: string) =>
    (
      await recallMemory(
        handle.service.driver,
        RecallParamsSchema.parse({ owner: 'me', query, kinds: ['event'] }),
      )
    ).items[0]?.id;

  it('ranks the standing instruction first for a question about how it should be done', async () => {
    expect(await top('高铁座位应该怎么选？')).toBe('r2');
    expect(await top('which seat should you pick for me?')).toBe('r4');
  });
});
