import { describe, expect, it } from 'vitest';
import { mayStem, stemEnglish } from './stem.js';

describe('stemEnglish', () => {
  it('brings inflections of one word together', () => {
    const groups = [
      ['meeting', 'meetings', 'meet', 'meets'],
      ['invoice', 'invoices', 'invoiced', 'invoicing'],
      ['policy', 'policies'],
      ['movie', 'movies'],
      ['study', 'studies', 'studied', 'studying'],
      ['hope', 'hoped', 'hoping', 'hopes'],
      ['run', 'running', 'runs'],
      ['use', 'used', 'uses', 'using'],
      ['schedule', 'scheduled', 'schedules', 'scheduling'],
      ['box', 'boxes'],
      ['match', 'matches', 'matched'],
      ['potato', 'potatoes'],
      ['play', 'played', 'playing', 'plays'],
      ['cancel', 'cancelled', 'canceled'],
      ['class', 'classes'],
    ];
    for (const group of groups)
      expect(new Set(group.map(stemEnglish)), group.join(' ')).toHaveProperty('size', 1);
  });

  it('gives the Porter2 stems', () => {
    const expected: Record<string, string> = {
      meetings: 'meet',
      invoices: 'invoic',
      policies: 'polici',
      cries: 'cri',
      ties: 'tie',
      gaps: 'gap',
      agreed: 'agre',
      hopping: 'hop',
      hoping: 'hope',
      controlled: 'control',
      skies: 'sky',
      dying: 'die',
    };
    for (const [word, stem] of Object.entries(expected)) expect(stemEnglish(word), word).toBe(stem);
  });

  it('leaves words alone where a suffix is not an inflection', () => {
    for (const word of [
      'gas',
      'this',
      'was',
      'has',
      'status',
      'class',
      'news',
      'bias',
      'feed',
      'need',
      'thing',
      'sing',
    ]) {
      expect(stemEnglish(word), word).toBe(word);
    }
  });

  it('does no derivational stemming, so unrelated words stay apart', () => {
    expect(stemEnglish('organization')).not.toBe(stemEnglish('organ'));
    expect(stemEnglish('generously')).not.toBe(stemEnglish('generous'));
    expect(stemEnglish('evening')).not.toBe(stemEnglish('even'));
  });

  it('returns anything but lower-case ASCII words unchanged', () => {
    for (const word of ['cafés', 'Meetings', 'rb-2026', 't042s', '发票', 'a', 'is', '']) {
      expect(stemEnglish(word), word).toBe(word);
    }
  });

  it('mayStem is false only where stemming changes nothing', () => {
    const words = [
      'meet',
      'meetings',
      'invoice',
      'policy',
      'control',
      'hoped',
      'running',
      'work',
      'box',
      'is',
    ];
    for (const word of words) if (!mayStem(word)) expect(stemEnglish(word), word).toBe(word);
    expect(mayStem('work')).toBe(false);
    expect(mayStem('meetings')).toBe(true);
  });
});
