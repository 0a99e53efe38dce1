import { describe, expect, it } from 'vitest';
import { validateProposal, type ViewItem } from './validate.js';

const ITEMS: ViewItem[] = [
  {
    position: 0,
    event_id: 'u1',
    role: 'user',
    text: 'I prefer tabs over spaces. 以后都用 pnpm。',
    same_as: null,
  },
  { position: 1, event_id: 'a1', role: 'agent', text: 'Noted, I will use tabs and pnpm.', same_as: null },
  { position: 2, event_id: 'u2', role: 'user', text: 'ok', same_as: null },
  { position: 3, event_id: 'u3', role: 'user', text: 'ok', same_as: 2 },
];

const good = () => ({
  dispositions: [
    { event_id: 'u1', action: 'cited' },
    { event_id: 'a1', action: 'cited' },
    { event_id: 'u2', action: 'discarded', reason: 'acknowledgement' },
  ],
  memories: [
    {
      kind: 'preference',
      text: 'The user prefers tabs over spaces.',
      sources: ['u1', 'a1'],
      quotes: [{ event_id: 'u1', text: 'I prefer tabs over spaces.' }],
      cues: ['indentation'],
    },
  ],
});

const issuesOf = (proposal: unknown) => {
  const result = validateProposal(ITEMS, proposal);
  return result.ok ? [] : result.issues.map((i) => `${i.code} @ ${i.path}`);
};

describe('validateProposal / 提案校验', () => {
  it('accepts a proposal that covers, cites and quotes correctly; a merged group needs one disposition', () => {
    const result = validateProposal(ITEMS, good());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.memories[0]).toMatchObject({
      kind: 'preference',
      sources: ['u1', 'a1'],
      userQuoted: true,
    });
    expect([...result.value.dispositions.entries()]).toEqual([
      [0, { action: 'cited', reason: null }],
      [1, { action: 'cited', reason: null }],
      [2, { action: 'discarded', reason: 'acknowledgement' }],
      [3, { action: 'discarded', reason: 'acknowledgement' }],
    ]);
  });

  it('refuses an event neither cited nor discarded / 未覆盖的事件', () => {
    const p = good();
    p.dispositions.pop();
    expect(issuesOf(p)).toEqual(['uncovered_event @ dispositions']);
  });

  it('refuses a source outside the batch / 来源不在批次内', () => {
    const p = good();
    p.memories[0]?.sources.push('elsewhere');
    expect(issuesOf(p)).toEqual(['source_outside_batch @ memories.0.sources.2']);
  });

  it('refuses a quote that is not verbatim / 引文不是原文', () => {
    const p = good();
    p.memories[0]?.quotes.push({ event_id: 'u1', text: 'I prefer tabs to spaces.' });
    expect(issuesOf(p)).toEqual(['quote_not_verbatim @ memories.0.quotes.1.text']);
  });

  it('refuses a quote from an event that is not a source of the memory / 引文须出自来源', () => {
    const p = good();
    p.memories[0]?.quotes.push({ event_id: 'u2', text: 'ok' });
    expect(issuesOf(p)).toEqual(['quote_outside_sources @ memories.0.quotes.1.event_id']);
  });

  it('refuses a preference without a verbatim quote from a user event / 偏好须有用户原话', () => {
    const p = good();
    const m = p.memories[0];
    if (m) m.quotes = [{ event_id: 'a1', text: 'I will use tabs' }];
    expect(issuesOf(p)).toEqual(['user_quote_required @ memories.0.quotes']);
  });

  it('refuses a profile fact without a user quote, and a fact without its fields / 用户事实须有原话', () => {
    const p = {
      dispositions: [
        { event_id: 'u1', action: 'cited' },
        { event_id: 'a1', action: 'discarded' },
        { event_id: 'u2', action: 'discarded' },
      ],
      memories: [
        {
          kind: 'fact',
          text: 'The user likes tabs.',
          sources: ['u1'],
          fact_kind: 'profile',
          subject: 'user',
        },
      ],
    };
    expect(issuesOf(p)).toEqual([
      'missing_field @ memories.0.predicate',
      'missing_field @ memories.0.object',
      'user_quote_required @ memories.0.quotes',
    ]);
  });

  it('refuses a procedure without steps or risk', () => {
    const p = good();
    p.memories.push({ kind: 'procedure', text: 'Release', sources: ['u1'] } as never);
    expect(issuesOf(p)).toEqual(['missing_field @ memories.1.steps', 'missing_field @ memories.1.risk']);
  });

  it('refuses an unknown kind / 未知类型', () => {
    const p = good();
    const m = p.memories[0];
    if (m) m.kind = 'opinion';
    expect(issuesOf(p)).toEqual(['unknown_kind @ memories.0.kind']);
  });

  it('refuses dispositions that contradict the memories or the batch', () => {
    const p = good();
    p.dispositions[1] = { event_id: 'a1', action: 'discarded' };
    p.dispositions.push({ event_id: 'u3', action: 'cited' }, { event_id: 'zz', action: 'discarded' });
    expect(issuesOf(p)).toEqual([
      'conflicting_disposition @ dispositions.3.action',
      'unknown_event @ dispositions.4.event_id',
      'discarded_but_cited @ dispositions.1',
    ]);
  });

  it('refuses an event marked cited that no memory cites', () => {
    const p = good();
    p.memories = [];
    expect(issuesOf(p)).toEqual(['cited_unused @ dispositions.0', 'cited_unused @ dispositions.1']);
  });

  it('reports a malformed proposal as shape issues, not a crash / 结构错误', () => {
    expect(issuesOf({ dispositions: 'all', memories: [{ kind: 'episode', text: '', sources: [] }] })).toEqual(
      [
        'invalid_shape @ dispositions',
        'invalid_shape @ memories.0.text',
        'invalid_shape @ memories.0.sources',
      ],
    );
    expect(issuesOf(null)).toEqual(['invalid_shape @ (root)']);
  });

  it('lists every issue at once', () => {
    const p = good();
    p.dispositions = [];
    const m = p.memories[0];
    if (m) {
      m.kind = 'opinion';
      m.sources.push('nope');
    }
    // three uncovered events, the unknown kind, the foreign source
    expect(issuesOf(p)).toHaveLength(5);
  });

  it('reads null optional fields (as models write them) as absent', () => {
    const p = good() as { memories: Array<Record<string, unknown>> };
    Object.assign(p.memories[0] ?? {}, { subject: null, steps: null, cues: null });
    expect(issuesOf(p)).toEqual([]);
  });
});
