// What looks like a person's name to the heuristic observer, without a model: a Chinese name starts with a
// common surname (or is 老/小/阿 + surname, or surname + title), a Latin one is capitalised words.

// The common single-character surnames (about 97% of people), and compound ones.
const SURNAMES = new Set(
  [
    ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈',
    ...'姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔',
    ...'向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童',
    ...'凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳穆农司卓古吉缪简车项连',
    ...'芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖',
    ...'巩佘池查麻苑迟邝于',
  ].filter((ch) => ch.trim() !== ''),
);
const COMPOUND_SURNAMES = [
  '欧阳',
  '司马',
  '诸葛',
  '上官',
  '东方',
  '慕容',
  '令狐',
  '皇甫',
  '尉迟',
  '公孙',
  '司徒',
];
/** Titles after a surname that make a way to address someone: 李总, 汪主任, 陈女士. */
const TITLES =
  /^(?:总|工|老师|医生|主任|经理|女士|先生|小姐|姐|哥|叔|阿姨|律师|教授|博士|老板|总监|师傅|大夫)$/;
/** Characters that never continue a name: a clause goes on after them (说, 是, 的, …). */
const STOP_CHARS = new Set([
  ...'是的了在和跟与也都还又就说讲要想去来会让叫把被给对从向到很太最可能得着过吗呢吧啊呀嘛等这那我你他她它们',
]);
/** Time words that follow a name in the same run of Han characters ("林晓明天来"). */
const STOP_WORDS =
  /今天|明天|昨天|后天|前天|上午|下午|中午|晚上|早上|周末|下周|上周|本周|这周|刚才|马上|已经/;
/** Spans that read as times, counts or places rather than names. */
const NOT_A_NAME =
  /[0-9０-９]|^(?:周|星期|礼拜)[一二三四五六日天末]$|^[一二三四五六七八九十两几]|[点时分秒天日月年号次张份个]$|[区市县省镇村路街店楼室厅馆站港]$/;

const HAN = /^\p{Script=Han}+$/u;
const LATIN_NAME = /^[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}$/;

export const isLatinName = (s: string): boolean => LATIN_NAME.test(s);

// ICU's Chinese word dictionary (the one recall's query segmenter uses): a surname glued to the characters after
// it into one dictionary word is a common word (商量, 高兴, 方便), not a name (郑|伟, 王|建国).
const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' });

/** Is `s` (surname first) a common word rather than a name? */
// invariant: no common word is a name — heuristic-aliases.test.ts "never makes a person of a pronoun, a common word, …"
export function isCommonWord(s: string, surname: string): boolean {
  const first = SEGMENTER.segment(s)[Symbol.iterator]().next().value?.segment ?? '';
  return first.length > surname.length;
}

/** 老李, 小赵, 阿峰: a familiar form (an alias by nature). */
export const isFamiliar = (s: string): boolean =>
  [...s].length === 2 && '老小阿'.includes(s[0] ?? '') && HAN.test(s) && !STOP_CHARS.has(s[1] ?? '');

/** A Chinese way of naming a person: surname + 1–2 characters, compound surname + 1–2, surname + title, or familiar. */
export function isHanName(s: string): boolean {
  if (!HAN.test(s) || NOT_A_NAME.test(s)) return false;
  if (isFamiliar(s)) return true;
  const chars = [...s];
  if (chars.some((c) => STOP_CHARS.has(c))) return false;
  const compound = COMPOUND_SURNAMES.find((c) => s.startsWith(c));
  const surname = compound ?? (SURNAMES.has(chars[0] ?? '') ? (chars[0] ?? '') : undefined);
  if (surname === undefined) return false;
  const rest = s.slice(surname.length);
  if (TITLES.test(rest)) return true;
  return [...rest].length >= 1 && [...rest].length <= 2 && !isCommonWord(s, surname);
}

/** A full name (surname + given name: 郑伟, 王建国), not a familiar form or a title (老郑, 钱总). */
export const isFullHanName = (s: string): boolean =>
  isHanName(s) && !isFamiliar(s) && !TITLE_TAIL.test(s) && !s.startsWith('老') && !s.startsWith('小');

const TITLE_TAIL =
  /(?:总|工|老师|医生|主任|经理|女士|先生|小姐|姐|哥|叔|阿姨|律师|教授|博士|老板|总监|师傅|大夫)$/;

export const isPersonName = (s: string): boolean => isHanName(s) || isLatinName(s);

/** The name a run of Han characters starts with: the run up to where the clause goes on, if that is a name. */
export function leadingName(run: string): string | undefined {
  let end = run.length;
  const word = STOP_WORDS.exec(run);
  if (word) end = Math.min(end, word.index);
  const chars = [...run.slice(0, end)];
  const stop = chars.findIndex((c, i) => i > 0 && STOP_CHARS.has(c));
  const name = (stop < 0 ? chars : chars.slice(0, stop)).join('');
  return isHanName(name) ? name : undefined;
}

/** The most common surnames: a three-character tail starting with one is read as a full name (李卫东, not 卫东). */
const FREQUENT = new Set([
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈',
]);

/** The name a run of Han characters ends with ("其实老李" → 老李, "我们公司的张三" → 张三). */
export function trailingName(run: string): string | undefined {
  const chars = [...run];
  const tail = (n: number) => (chars.length >= n ? chars.slice(-n).join('') : '');
  if (isFamiliar(tail(2))) return tail(2);
  const compound = [tail(4), tail(3)].find(
    (t) => COMPOUND_SURNAMES.some((c) => t.startsWith(c)) && isHanName(t),
  );
  if (compound) return compound;
  const three = tail(3);
  if (isHanName(three) && (chars.length === 3 || FREQUENT.has(three[0] ?? ''))) return three;
  if (isHanName(tail(2))) return tail(2);
  return isHanName(three) ? three : undefined;
}
