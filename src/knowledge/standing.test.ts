// Issue 10, end to end without a model: the heuristic observer gives standing rules a subject and a
// predicate, so a newer statement supersedes an older one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { at, heuristically, openFactsFixture, said, type FactsFixture } from '../../test/helpers/facts.js';
import { memoryVisibility, visibleMemory } from './visibility.js';

const OWNER = 'user:he';

interface Version {
  id: string;
  value: string;
  status: string;
  current: boolean;
  valid_from: string;
  valid_to: string | null;
  sources: string[];
}

describe.each(ENGINES)('standing rules through observation on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  const observe = async (text: string, local: string, id: string) => {
    f.clock.set(at(local));
    await f.ingest(OWNER, [said(text, local, { event_id: id, session_id: 's1' })]);
    return f.observe(OWNER, heuristically);
  };
  const history = async (subject: string, predicate: string) =>
    (
      await f.client.call<{ versions: Version[] }>('memory.facts.history', {
        owner: OWNER,
        subject,
        predicate,
      })
    ).versions;

  it('以后会议纪要都用 Word, then PDF: Word superseded with valid_to, PDF current / 新规则取代旧规则', async () => {
    await observe('以后会议纪要都用 Word', '2026-11-16 10:00', 'h1');
    await observe('以后会议纪要都用 PDF', '2026-11-18 15:00', 'h2');
    const versions = await history('会议纪要', '格式');
    expect(versions.map((v) => [v.value, v.status, v.current, v.valid_to, v.sources])).toEqual([
      ['Word', 'superseded', false, '2026-11-18T07:00:00.000Z', ['h1']],
      ['PDF', 'candidate', true, null, ['h2']],
    ]);
    // What recall will see: the current rule by default, the old one as of a time it held.
    const rows = await memoryVisibility(
      f.service.driver,
      OWNER,
      versions.map((v) => v.id),
    );
    const visible = (options: { asOf?: number }) =>
      versions
        .filter((v) => {
          const row = rows.get(v.id);
          return row !== undefined && visibleMemory(row, options);
        })
        .map((v) => v.value);
    expect(visible({})).toEqual(['PDF']);
    expect(visible({ asOf: at('2026-11-17 10:00') })).toEqual(['Word']);
  });

  it('from now on book aisle seats, then window seats', async () => {
    await observe('from now on book aisle seats', '2026-11-16 10:00', 'h3');
    await observe('From now on, book window seats.', '2026-11-17 10:00', 'h4');
    const versions = await history('seat', 'preference');
    expect(versions.map((v) => [v.value, v.status])).toEqual([
      ['aisle', 'superseded'],
      ['window', 'candidate'],
    ]);
  });

  it('羽毛球课改到周六, then 周日; said again on another workday, 周日 becomes active', async () => {
    await observe('羽毛球课改到周六', '2026-11-16 10:00', 'h5');
    await observe('对了，羽毛球课改到周日吧', '2026-11-17 10:00', 'h6');
    await observe('羽毛球课改到周日了。', '2026-11-18 10:00', 'h7');
    const versions = await history('羽毛球课', '时间');
    expect(versions.map((v) => [v.value, v.status, v.sources])).toEqual([
      ['周六', 'superseded', ['h5']],
      ['周日', 'active', ['h6', 'h7']],
    ]);
  });
});
