// Explicit name forms in the user's words, recognised without a model: a parenthesised alias after a name
// (李卫东（老李）, Tony (唐志远)), X就是Y (老李就是李卫东), a relative and their name (我爱人林晓, my wife Sarah),
// and <name>是<role> (小赵是行政); in the variants logs use: a relative's contact entry (婆婆（许美娟）), a full name
// with a title (茶里茶外钱明总 → 钱总), a Chinese and an English name side by side (陈薇 Vivian), 叫他/称呼她.
// Each becomes a proposed person, quoting the words it came from. A name must look like one (heuristic-names.ts):
// pronouns, common words (商量) and kin words alone are never a person.
import {
  isFamiliar,
  isFullHanName,
  isHanName,
  isLatinName,
  isPersonName,
  leadingName,
  trailingName,
} from './heuristic-names.js';
import type { BatchEvent, ProposalInput } from './schema.js';

type ObjectProposal = NonNullable<ProposalInput['objects']>[number];
type RelationProposal = NonNullable<ProposalInput['relations']>[number];

interface Statement {
  name: string;
  aliases: string[];
  body?: string;
  /** The relation from the user to this person (spouse, mother, …). */
  kin?: string;
  /** The words as they stand in the event. */
  quote: string;
}

const LATIN = '[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}';
const PAREN = new RegExp(`(\\p{Script=Han}+|${LATIN})\\s*[（(]\\s*([^（）()\\n]{1,24}?)\\s*[）)]`, 'gu');
const SAME = new RegExp(
  `(\\p{Script=Han}+?|${LATIN})\\s*(?:也?就是|即)\\s*(\\p{Script=Han}+|${LATIN})`,
  'gu',
);
/** 李卫东，大家都叫他老李 / 唐志远，英文名叫 Tony. */
const CALLED = new RegExp(
  `(\\p{Script=Han}+)\\s*[，,]?\\s*(?:大家|我们|同事们?|平时)?都?(?:叫他|叫她|喊他|喊她|称呼他|称呼她|英文名叫|英文名是)\\s*(\\p{Script=Han}{2}|${LATIN})(?![A-Za-z])`,
  'gu',
);
/** A full name and 总 (茶里茶外钱明总、): the surname + 总 is how people address them. */
const BOSS = /(\p{Script=Han}+?)总(?=$|[\s，。,.!！?？；;、）)]|那边|说)/gu;
/** A Chinese and an English name side by side, either order (陈薇 Vivian, Tony 唐志远). */
const SIDE_BY_SIDE = new RegExp(
  `(?<![\\p{Script=Han}A-Za-z])(?:(\\p{Script=Han}{2,4}) (${LATIN})|(${LATIN}) (\\p{Script=Han}{2,4}))(?![\\p{Script=Han}A-Za-z])`,
  'gu',
);
const KIN_ZH: Record<string, string> = {
  爱人: 'spouse',
  老婆: 'spouse',
  老公: 'spouse',
  妻子: 'spouse',
  丈夫: 'spouse',
  太太: 'spouse',
  先生: 'spouse',
  媳妇: 'spouse',
  妈妈: 'mother',
  母亲: 'mother',
  妈: 'mother',
  爸爸: 'father',
  父亲: 'father',
  爸: 'father',
  儿子: 'son',
  女儿: 'daughter',
  哥哥: 'sibling',
  姐姐: 'sibling',
  弟弟: 'sibling',
  妹妹: 'sibling',
  婆婆: 'mother_in_law',
  岳母: 'mother_in_law',
  公公: 'father_in_law',
  岳父: 'father_in_law',
};
const KIN_EN: Record<string, string> = {
  wife: 'spouse',
  husband: 'spouse',
  partner: 'spouse',
  mom: 'mother',
  mother: 'mother',
  dad: 'father',
  father: 'father',
  son: 'son',
  daughter: 'daughter',
  brother: 'sibling',
  sister: 'sibling',
};
const byLength = (words: string[]) => words.sort((a, b) => b.length - a.length).join('|');
const KIN = new RegExp(`我的?(${byLength(Object.keys(KIN_ZH))})叫?\\s*(\\p{Script=Han}+)`, 'gu');
const KIN_LATIN = new RegExp(`\\b[Mm]y (${Object.keys(KIN_EN).join('|')}),? (${LATIN})`, 'gu');
const ROLES = byLength(
  '行政 财务 会计 出纳 人事 HR 前台 司机 律师 医生 护士 老师 班主任 设计师 设计 开发 程序员 工程师 测试 运维 产品经理 产品 项目经理 销售 客服 顾问 助理 秘书 经理 总监 主管 主任 负责人 技术负责人 老板 领导 上司 组长 部长 总经理 CEO CTO CFO COO 实习生 合伙人 房东 保姆 邻居 同事 朋友 同学 客户'.split(
    ' ',
  ),
);
const ROLE = new RegExp(
  `(\\p{Script=Han}+?|${LATIN})\\s*就?是\\s*((?:我们?(?:公司|部门|组|团队)?的)?(?:${ROLES}|\\p{Script=Han}{1,4}(?:员|师|长|经理|总监|主管|主任|负责人|助理|顾问))(?:部|组)?)(?=$|[\\s，。,.!！?？；;、）)]|的|呢|啊|吧)`,
  'gu',
);
/** Words that start an English sentence before a name ("Meet Tony (唐志远)"). */
const LEADING_WORDS = new Set([
  'Meet',
  'Ask',
  'Tell',
  'Call',
  'Email',
  'Ping',
  'Thanks',
  'Hi',
  'Hello',
  'Dear',
  'And',
  'The',
  'Our',
  'My',
  'Please',
  'With',
  'To',
  'Cc',
  'Bcc',
  'From',
  'Re',
  'Fw',
  'Fwd',
  'Subject',
  'Attn',
]);

/** The name a run before a form ends with, and where it starts in the match. */
function nameBefore(run: string): string | undefined {
  if (isLatinName(run)) {
    const words = run.split(' ');
    while (words.length > 1 && LEADING_WORDS.has(words[0] ?? '')) words.shift();
    return words.join(' ');
  }
  return trailingName(run);
}

const nameAfter = (run: string): string | undefined => (isLatinName(run) ? run : leadingName(run));

const sharesChar = (a: string, b: string): boolean => [...b].some((c) => a.includes(c));

/** Is `inner` another name of `outer` (李卫东（老李）, Tony (唐志远)), not a time, a count or a place? */
function isAliasOf(outer: string, inner: string): boolean {
  if (/\d/.test(inner) || inner === outer) return false;
  if (isLatinName(outer)) return isHanName(inner);
  if (isLatinName(inner) || isFamiliar(inner)) return true;
  // Two Chinese names: only one that shares a character (李卫东（卫东）, 王总（王建国）), never a place (龙坞).
  return isHanName(inner) && sharesChar(outer, inner);
}

/** `quote`: from where the name starts to the end of the match. */
const quoteOf = (m: RegExpExecArray, run: string, name: string): string =>
  m[0].slice(run.lastIndexOf(name)).trim();

/** A kin word that is the whole run or the user's (我婆婆, 我的妈妈), never someone else's (他妈). */
function kinOf(run: string): string | undefined {
  const kin = run.replace(/^我的?/u, '');
  return KIN_ZH[kin] ? kin : undefined;
}

function* parenthesised(text: string): Generator<Statement> {
  for (const m of text.matchAll(PAREN)) {
    const [, run = '', rawInner = ''] = m;
    const inner = rawInner.trim();
    const kin = kinOf(run);
    if (kin && isFullHanName(inner)) {
      // A relative's contact entry: 婆婆（许美娟）, 妈（王淑芬）.
      yield {
        name: inner,
        aliases: [`我${kin}`],
        kin: KIN_ZH[kin],
        quote: m[0].slice(m[0].indexOf(run)).trim(),
      };
      continue;
    }
    const name = nameBefore(run);
    if (!name || !isAliasOf(name, inner)) continue;
    const quote = quoteOf(m, run, name);
    // 老周（周屹）, 王总（王建国）: the full name is the person, the familiar form or title an alias.
    if (isFullHanName(inner) && isHanName(name) && !isFullHanName(name))
      yield { name: inner, aliases: [name], quote };
    else yield { name, aliases: [inner], quote };
  }
}

function* sameAs(text: string): Generator<Statement> {
  for (const m of text.matchAll(SAME)) {
    const [, left = '', right = ''] = m;
    const alias = nameBefore(left);
    const name = nameAfter(right);
    // Two full names are two people (王明就是王刚推荐的), never one.
    if (!alias || !name || alias === name || (isFullHanName(alias) && isFullHanName(name))) continue;
    const quote = m[0].slice(left.lastIndexOf(alias), m[0].lastIndexOf(right) + name.length);
    yield { name, aliases: [alias], quote };
  }
  for (const m of text.matchAll(CALLED)) {
    const [whole, run = '', alias = ''] = m;
    const name = trailingName(run);
    if (!name || !isFullHanName(name) || !(isFamiliar(alias) || isLatinName(alias))) continue;
    yield { name, aliases: [alias], quote: whole.slice(whole.indexOf(run) + run.lastIndexOf(name)) };
  }
}

function* titled(text: string): Generator<Statement> {
  for (const m of text.matchAll(BOSS)) {
    const [whole, run = ''] = m;
    const name = trailingName(run);
    if (!name || !isFullHanName(name) || [...name].length > 3) continue;
    yield { name, aliases: [`${[...name][0] ?? ''}总`], quote: whole.slice(run.lastIndexOf(name)) };
  }
  for (const m of text.matchAll(SIDE_BY_SIDE)) {
    const [whole, hanFirst, latinSecond, latinFirst, hanSecond] = m;
    const han = hanFirst ?? hanSecond ?? '';
    const latin = nameBefore(latinSecond ?? latinFirst ?? '') ?? '';
    if (!isFullHanName(han) || !isLatinName(latin) || LEADING_WORDS.has(latin)) continue;
    yield { name: han, aliases: [latin], quote: whole.slice(whole.indexOf(hanFirst ?? latin)) };
  }
}

function* statements(text: string): Generator<Statement> {
  yield* parenthesised(text);
  yield* sameAs(text);
  for (const m of text.matchAll(KIN)) {
    const [whole, kin = '', run = ''] = m;
    const name = leadingName(run);
    const type = KIN_ZH[kin];
    // Only a full name follows a kin word as its name (我爱人林晓), never a verb (我妈商量).
    if (name && isFullHanName(name) && type)
      yield {
        name,
        aliases: [`我${kin}`],
        kin: type,
        quote: whole.slice(0, whole.length - run.length + name.length),
      };
  }
  for (const m of text.matchAll(KIN_LATIN)) {
    const [whole, kin = '', name = ''] = m;
    const type = KIN_EN[kin];
    if (type && isPersonName(name)) yield { name, aliases: [`my ${kin}`], kin: type, quote: whole };
  }
  for (const m of text.matchAll(ROLE)) {
    const [, run = ''] = m;
    const name = nameBefore(run);
    if (name) {
      const quote = quoteOf(m, run, name);
      yield { name, aliases: [], body: quote, quote };
    }
  }
  yield* titled(text);
}

const idsOf = (e: BatchEvent): string[] => e.event_ids ?? [e.event_id];

/**
 * The persons, aliases and family relations the batch's user events state explicitly; nothing when none.
 * A relative is related to the user's own person object (named 我).
 */
export function proposeAliases(events: readonly BatchEvent[]): Pick<ProposalInput, 'objects' | 'relations'> {
  const objects: ObjectProposal[] = [];
  const relations: RelationProposal[] = [];
  const selfSources = new Set<string>();
  for (const e of events) {
    // The user's words and tool output (contact lists, mail headers); the agent restating a name is no evidence.
    if (e.role !== 'user' && e.role !== 'tool') continue;
    for (const s of statements(e.text)) {
      const ref = `p${objects.length}`;
      objects.push({
        ref,
        type: 'person',
        name: s.name,
        ...(s.aliases.length > 0 ? { aliases: s.aliases } : {}),
        ...(s.body ? { body: s.body } : {}),
        sources: idsOf(e),
        quotes: [{ event_id: e.event_id, text: s.quote }],
      });
      if (s.kin) {
        relations.push({ from: 'self', to: ref, type: s.kin, sources: idsOf(e) });
        for (const id of idsOf(e)) selfSources.add(id);
      }
    }
  }
  if (objects.length === 0) return {};
  if (selfSources.size > 0) {
    objects.unshift({ ref: 'self', type: 'person', name: '我', body: 'the user', sources: [...selfSources] });
  }
  return relations.length > 0 ? { objects, relations } : { objects };
}
