// LoCoMo: one owner per conversation, one event per dialog turn, evidence recall per question category.
import { z } from 'zod';
import { parseLocomoDate } from '../dates.js';
import type { DatasetModule, EvalConversation, EvalDataset, EvalQuery, EvalUnit, Result } from '../types.js';
import { parseJsonFile } from './parse.js';
import { scoreFamily } from './scoring.js';

export const LOCOMO_CATEGORIES: Record<number, string> = {
  1: '1 multi-hop',
  2: '2 temporal',
  3: '3 open-domain',
  4: '4 single-hop',
  5: '5 adversarial',
};
const ADVERSARIAL = 5;

const TurnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
  blip_caption: z.string().optional(),
});
const QaSchema = z.object({
  question: z.string(),
  category: z.number().int(),
  evidence: z.array(z.string()).default([]),
});
const SampleSchema = z.object({
  sample_id: z.string().min(1),
  conversation: z.record(z.string(), z.unknown()),
  qa: z.array(QaSchema),
});
const FileSchema = z.array(SampleSchema);
type Sample = z.infer<typeof SampleSchema>;

const TURN_ID = /^D:?(\d+):(\d+)$/;

/**
 * Evidence as written in the data → canonical turn ids (`D1:3`). Splits lists written in one string
 * (`D8:6; D9:17`), trims, repairs `D:11:26`, and returns what cannot be read apart.
 */
export function normalizeEvidenceIds(raw: readonly string[]): {
  ids: string[];
  unreadable: string[];
  repaired: string[];
} {
  const ids: string[] = [];
  const unreadable: string[] = [];
  const repaired: string[] = [];
  for (const entry of raw) {
    const read: string[] = [];
    for (const part of entry.split(/[\s,;]+/)) {
      if (part === '') continue;
      const m = TURN_ID.exec(part);
      if (!m) {
        unreadable.push(part);
        continue;
      }
      const id = `D${Number(m[1])}:${Number(m[2])}`;
      read.push(id);
      if (!ids.includes(id)) ids.push(id);
    }
    if (read.length > 0 && read.join(' ') !== entry)
      repaired.push(`${JSON.stringify(entry)} → ${read.join(', ')}`);
  }
  return { ids, unreadable, repaired };
}

const turnText = (turn: z.infer<typeof TurnSchema>): string =>
  `${turn.speaker}: ${turn.text}${turn.blip_caption ? ` [image: ${turn.blip_caption}]` : ''}`;

function loadSample(sample: Sample, dataset: EvalDataset): Result<EvalConversation> {
  const conv = sample.conversation;
  const owner = sample.sample_id;
  const roles = new Map<string, 'user' | 'agent'>();
  if (typeof conv.speaker_a === 'string') roles.set(conv.speaker_a, 'user');
  if (typeof conv.speaker_b === 'string') roles.set(conv.speaker_b, 'agent');
  const sessions = Object.keys(conv)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);

  const units: EvalUnit[] = [];
  const issues: string[] = [];
  let lastAt: number | undefined;
  for (const n of sessions) {
    const turns = z.array(TurnSchema).safeParse(conv[`session_${n}`]);
    if (!turns.success) {
      issues.push(`${owner} session_${n}: ${turns.error.issues[0]?.message ?? 'invalid turns'}`);
      continue;
    }
    if (turns.data.length === 0) continue;
    const dateText = conv[`session_${n}_date_time`];
    const at = typeof dateText === 'string' ? parseLocomoDate(dateText) : undefined;
    if (at === undefined) {
      issues.push(`${owner} session_${n}: unreadable date ${JSON.stringify(dateText)}`);
      continue;
    }
    lastAt = Math.max(lastAt ?? at, at);
    for (const turn of turns.data) {
      // First speaker → user, second → agent; anyone else alternates by order of appearance.
      if (!roles.has(turn.speaker)) roles.set(turn.speaker, roles.size % 2 === 0 ? 'user' : 'agent');
      units.push({
        id: `${owner}:${turn.dia_id.trim()}`,
        session: `${owner}:session_${n}`,
        role: roles.get(turn.speaker) ?? 'user',
        at,
        text: turnText(turn),
      });
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  if (lastAt === undefined) return { ok: false, issues: [`${owner}: no sessions with turns`] };

  const known = new Set(units.map((u) => u.id));
  const queries: EvalQuery[] = [];
  sample.qa.forEach((qa, i) => {
    const id = `${owner}:q${i + 1}`;
    const { ids, unreadable, repaired } = normalizeEvidenceIds(qa.evidence);
    if (repaired.length > 0) dataset.notes.push(`${id}: evidence read as ${repaired.join('; ')}`);
    const evidence = ids.map((turn) => `${owner}:${turn}`);
    const missing = evidence.filter((e) => !known.has(e));
    if (unreadable.length > 0)
      dataset.notes.push(`${id}: unreadable evidence ${JSON.stringify(unreadable)} dropped`);
    if (missing.length > 0)
      dataset.notes.push(`${id}: evidence ${missing.join(', ')} names no turn; dropped`);
    const found = evidence.filter((e) => known.has(e));
    if (found.length === 0) {
      dataset.skipped.push({ id, reason: 'no evidence' });
      return;
    }
    if (qa.question.trim() === '') {
      dataset.skipped.push({ id, reason: 'empty question' });
      return;
    }
    queries.push({
      id,
      text: qa.question,
      at: lastAt as number,
      group: LOCOMO_CATEGORIES[qa.category] ?? `${qa.category} unknown`,
      inOverall: qa.category !== ADVERSARIAL && qa.category in LOCOMO_CATEGORIES,
      evidence: found,
    });
  });
  return { ok: true, value: { owner, units, queries } };
}

export const locomo: DatasetModule = {
  name: 'locomo',
  defaultFile: 'locomo/locomo_dev.json',
  families: ['recall'],
  groupLabel: 'category',
  load(raw, { subset }) {
    const parsed = parseJsonFile(raw, FileSchema);
    if (!parsed.ok) return parsed;
    const dataset: EvalDataset = { name: 'locomo', conversations: [], skipped: [], notes: [] };
    for (const sample of parsed.value.slice(0, subset)) {
      const conv = loadSample(sample, dataset);
      if (!conv.ok) return conv;
      dataset.conversations.push(conv.value);
    }
    return { ok: true, value: dataset };
  },
  score(query, ranked, ks) {
    return scoreFamily({}, '', 'recall', ranked, query.evidence, ks);
  },
};
