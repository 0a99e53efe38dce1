// DuLeMon (Chinese): persona memories and past turns as units; each grounded turn must recall its memory.
import { z } from 'zod';
import { charTokenize } from '../baseline.js';
import type { DatasetModule, EvalConversation, EvalDataset, EvalQuery, EvalUnit, Result } from '../types.js';
import { parseJsonFile } from './parse.js';
import { scoreFamily } from './scoring.js';

const SampleSchema = z.object({
  bot_persona: z.array(z.string()),
  user_said_persona: z.array(z.string()),
  user_no_said_persona: z.array(z.string()).default([]),
  conversation: z.array(z.string()),
});
const FileSchema = z.array(SampleSchema);
type Sample = z.infer<typeof SampleSchema>;

const CJK_PUNCT = '\\u3000-\\u303f\\uff00-\\uffef';
const CJK = `\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}${CJK_PUNCT}`;
const SPACE_IN_CJK = new RegExp(`(?<=[${CJK}])\\s+(?=[${CJK}])`, 'gu');
const SPACE_AT_CJK_PUNCT = new RegExp(`\\s+(?=[${CJK_PUNCT}])|(?<=[${CJK_PUNCT}])\\s+`, 'gu');

/** Removes the word-segmentation spaces between CJK characters and around CJK punctuation. */
export const stripCjkSpaces = (text: string): string =>
  text.replace(SPACE_IN_CJK, '').replace(SPACE_AT_CJK_PUNCT, '').trim();

const PERSONA = /^\s*([A-Z]\d+)\s*[:：]\s*(.*)$/s;
const TURN = /^\s*(Usr|Bot)\s*[:：]\s*(.*)$/is;

// Dataset time: persona memories first, then one turn a minute.
const START = Date.UTC(2022, 0, 1);
const MINUTE = 60_000;

export const DULEMON_GROUPS = {
  bot: 'bot persona',
  said: 'user persona (said before)',
  unsaid: 'user persona (not said before)',
} as const;

function loadSample(sample: Sample, owner: string, dataset: EvalDataset): Result<EvalConversation> {
  const units: EvalUnit[] = [];
  const groupOf = new Map<string, string>();
  const lists = [
    [sample.bot_persona, 'agent', DULEMON_GROUPS.bot],
    [sample.user_said_persona, 'user', DULEMON_GROUPS.said],
    [sample.user_no_said_persona, 'user', DULEMON_GROUPS.unsaid],
  ] as const;
  for (const [list, role, group] of lists) {
    for (const item of list) {
      const m = PERSONA.exec(item);
      if (!m) return { ok: false, issues: [`${owner}: unreadable persona ${JSON.stringify(item)}`] };
      const label = m[1] as string;
      const id = `${owner}:persona:${label}`;
      groupOf.set(label, group);
      units.push({ id, session: `${owner}:persona`, role, at: START, text: stripCjkSpaces(m[2] ?? '') });
    }
  }
  const personaCount = units.length;
  const queries: EvalQuery[] = [];
  sample.conversation.forEach((line, i) => {
    const [utterance = '', label] = line.split('\t').map((part) => part.trim());
    const m = TURN.exec(utterance);
    const id = `${owner}:t${i + 1}`;
    const speaker = m?.[1]?.toLowerCase() === 'bot' ? 'agent' : 'user';
    const text = stripCjkSpaces(m ? (m[2] ?? '') : utterance);
    const at = START + (i + 1) * MINUTE;
    units.push({ id, session: `${owner}:dialog`, role: speaker, at, text });
    if (!label) return;
    const group = groupOf.get(label);
    if (group === undefined) {
      dataset.skipped.push({ id, reason: `label ${label} names no persona memory` });
      return;
    }
    if (text === '') {
      dataset.skipped.push({ id, reason: 'empty utterance' });
      return;
    }
    queries.push({
      id,
      text,
      at,
      group,
      inOverall: true,
      evidence: [`${owner}:persona:${label}`],
      // Asked before its own turn is stored: only the memories and earlier turns are there.
      visibleUnits: personaCount + i,
    });
  });
  return { ok: true, value: { owner, units, queries } };
}

export const dulemon: DatasetModule = {
  name: 'dulemon',
  defaultFile: 'dulemon/samples.json',
  families: ['recall'],
  groupLabel: 'memory source',
  baselineTokenize: charTokenize,
  load(raw, { subset }) {
    // The published samples are JSON lines; a JSON array is read as well.
    const parsed = parseJsonFile(raw, FileSchema, { lines: !raw.trimStart().startsWith('[') });
    if (!parsed.ok) return parsed;
    const dataset: EvalDataset = { name: 'dulemon', conversations: [], skipped: [], notes: [] };
    const samples = parsed.value.slice(0, subset);
    for (const [i, sample] of samples.entries()) {
      const conv = loadSample(sample, `dulemon-${i + 1}`, dataset);
      if (!conv.ok) return conv;
      dataset.conversations.push(conv.value);
    }
    return { ok: true, value: dataset };
  },
  score(query, ranked, ks) {
    return scoreFamily({}, '', 'recall', ranked, query.evidence, ks);
  },
};
