import { describe, expect, it } from 'vitest';
import { queryTerms } from '../text/tokenize.js';
import { buildDictionary, dictionaryFrom } from './dictionary.js';
import { translateQuery } from './translate.js';

const dictionary = dictionaryFrom(
  buildDictionary([
    { word: '酒店', glosses: ['hotel', 'restaurant'] },
    { word: '预订', glosses: ['to place an order', 'to book ahead'] },
    { word: '北京', glosses: 'Beijing' },
    { word: '退回', glosses: 'to send back' },
    { word: '服务器', glosses: 'server (computer)' },
    { word: '端口', glosses: ['interface', 'port'] },
    { word: '下午', glosses: ['afternoon', 'p.m.'] },
  ]),
);
const translate = (text: string) => translateQuery(text, queryTerms(text), dictionary).map((t) => t.term);

describe('translateQuery', () => {
  it('adds the Chinese words and characters of English words, phrases first', () => {
    expect(translate('Which hotel did I book for the Beijing trip?')).toEqual(
      expect.arrayContaining(['酒店', '酒', '店', '预订', '北京']),
    );
    expect(translate('why was it sent back')).toEqual(['退回', '退', '回']);
  });

  it('adds the English terms of Chinese words', () => {
    expect(translate('端口')).toEqual(['interfac', 'port']);
    expect(translate('下午')).toEqual(['afternoon']);
  });

  it('passes ids, numbers and unknown names through untranslated', () => {
    expect(translate('RB-2026-0917 Priya 2048 hotel')).toEqual(['酒店', '酒', '店']);
  });
});
