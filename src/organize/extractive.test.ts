import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../text/tokens.js';
import { clipTokens, firstSentence, summarizeExtractively } from './extractive.js';
import type { Piece } from './schema-jobs.js';

const event = (id: string, role: Piece['role'], text: string): Piece => ({
  ref: `event:${id}`,
  type: 'event',
  id,
  at: '2026-10-01T01:00:00.000Z',
  events: 1,
  kind: role === 'user' ? 'user_message' : 'agent_reply',
  role,
  text,
  length: text.length,
  truncated: false,
});

describe('the extractive summarizer', () => {
  it('keeps the first sentence of each piece, with who said it, and invents nothing', () => {
    const text = summarizeExtractively(
      [
        event('a', 'user', '明天去千岛湖。帮我看看路况，我们八点出门。'),
        event('b', 'agent', 'Traffic is slow near Fuyang. Leave before 06:30 to save 40 minutes.'),
      ],
      300,
    );
    expect(text).toBe('user: 明天去千岛湖。\nagent: Traffic is slow near Fuyang.');
  });

  it('counts repeated lines once and stays within its token budget', () => {
    const runs = Array.from({ length: 30 }, (_, i) =>
      event(`r${i}`, 'system', '定时任务「夜间备份」完成：新增 6 个文件。'),
    );
    const long = Array.from({ length: 40 }, (_, i) =>
      event(`l${i}`, 'user', `第${i}件事：${'很长的描述'.repeat(40)}`),
    );
    expect(summarizeExtractively(runs, 300)).toBe('system: 定时任务「夜间备份」完成：新增 6 个文件。 (×30)');
    const summary = summarizeExtractively(long, 300);
    expect(estimateTokens(summary)).toBeLessThanOrEqual(300 + summary.split('\n').length);
    expect(summary.split('\n').length).toBeLessThanOrEqual(25);
  });

  it('clips by the token estimate and finds sentence ends in Chinese and English', () => {
    expect(clipTokens('短', 5)).toBe('短');
    expect(estimateTokens(clipTokens('字'.repeat(100), 20))).toBeLessThanOrEqual(20);
    expect(clipTokens('字'.repeat(100), 20).endsWith('…')).toBe(true);
    expect(firstSentence('Done. Next step')).toBe('Done.');
    expect(firstSentence('v1.2 is out')).toBe('v1.2 is out');
    expect(firstSentence('好的！还有')).toBe('好的！');
  });
});
