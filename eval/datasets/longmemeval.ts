// LongMemEval: one owner per question haystack, one event per turn, sessions ranked by their best turn.
import { z } from 'zod';
import { parseLongMemEvalDate } from '../dates.js';
import { rankSessions } from '../metrics.js';
import type { DatasetModule, EvalConversation, EvalDataset, EvalUnit, Result } from '../types.js';
import { parseJsonFile } from './parse.js';
import { scoreFamily } from './scoring.js';

const TurnSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  has_answer: z.boolean().optional(),
});
const QuestionSchema = z.object({
  question_id: z.string().min(1),
  question_type: z.string(),
  question: z.string(),
  question_date: z.string(),
  answer_session_ids: z.array(z.string()),
  haystack_dates: z.array(z.string()),
  haystack_session_ids: z.array(z.string()),
  haystack_sessions: z.array(z.array(TurnSchema)),
});
const FileSchema = z.array(QuestionSchema);
type Question = z.infer<typeof QuestionSchema>;

/** Abstention questions have no evidence; the official retrieval evaluation leaves them out. */
export const isAbstention = (questionId: string): boolean => questionId.endsWith('_abs');

function loadQuestion(q: Question, dataset: EvalDataset): Result<EvalConversation | undefined> {
  const owner = q.question_id;
  const n = q.haystack_sessions.length;
  if (q.haystack_session_ids.length !== n || q.haystack_dates.length !== n) {
    return { ok: false, issues: [`${owner}: haystack ids, dates and sessions differ in length`] };
  }
  const at = parseLongMemEvalDate(q.question_date);
  if (at === undefined)
    return { ok: false, issues: [`${owner}: unreadable question_date ${q.question_date}`] };

  const units: EvalUnit[] = [];
  const answerTurns: string[] = [];
  for (let s = 0; s < n; s++) {
    const session = q.haystack_session_ids[s] as string;
    const sessionAt = parseLongMemEvalDate(q.haystack_dates[s] as string);
    if (sessionAt === undefined)
      return { ok: false, issues: [`${owner}: unreadable date of session ${session}`] };
    q.haystack_sessions[s]?.forEach((turn, t) => {
      const id = `${owner}:${session}:${t + 1}`;
      if (turn.has_answer) answerTurns.push(id);
      units.push({
        id,
        session,
        role: turn.role === 'user' ? 'user' : 'agent',
        at: sessionAt,
        text: turn.content,
      });
    });
  }
  if (isAbstention(owner)) {
    dataset.skipped.push({ id: owner, reason: 'abstention question' });
    return { ok: true, value: undefined };
  }
  const sessions = new Set(q.haystack_session_ids);
  const evidenceSessions = [...new Set(q.answer_session_ids)].filter((s) => sessions.has(s));
  if (evidenceSessions.length < new Set(q.answer_session_ids).size) {
    dataset.notes.push(`${owner}: answer sessions missing from the haystack dropped`);
  }
  if (evidenceSessions.length === 0) {
    dataset.skipped.push({ id: owner, reason: 'no evidence session in the haystack' });
    return { ok: true, value: undefined };
  }
  if (answerTurns.length === 0)
    dataset.notes.push(`${owner}: no has_answer turn; turn-level recall not scored`);
  return {
    ok: true,
    value: {
      owner,
      units,
      queries: [
        {
          id: owner,
          text: q.question,
          at,
          group: q.question_type,
          inOverall: true,
          evidence: answerTurns,
          evidenceSessions,
        },
      ],
    },
  };
}

const sessionMaps = new WeakMap<EvalConversation, Map<string, string>>();

const sessionMapOf = (conversation: EvalConversation): Map<string, string> => {
  let map = sessionMaps.get(conversation);
  if (!map) {
    map = new Map(conversation.units.map((u) => [u.id, u.session]));
    sessionMaps.set(conversation, map);
  }
  return map;
};

export const longmemeval: DatasetModule = {
  name: 'longmemeval',
  defaultFile: 'longmemeval/longmemeval_s_dev.json',
  families: ['session_recall_all', 'session_ndcg', 'session_recall_any', 'turn_recall_all'],
  groupLabel: 'question type',
  load(raw, { subset }) {
    const parsed = parseJsonFile(raw, FileSchema);
    if (!parsed.ok) return parsed;
    const dataset: EvalDataset = { name: 'longmemeval', conversations: [], skipped: [], notes: [] };
    for (const question of parsed.value.slice(0, subset)) {
      const conv = loadQuestion(question, dataset);
      if (!conv.ok) return conv;
      if (conv.value) dataset.conversations.push(conv.value);
    }
    return { ok: true, value: dataset };
  },
  score(query, ranked, ks, conversation) {
    const sessions = rankSessions(ranked, sessionMapOf(conversation));
    const evidenceSessions = query.evidenceSessions ?? [];
    const scores = scoreFamily({}, 'session_', 'recall_all', sessions, evidenceSessions, ks);
    scoreFamily(scores, 'session_', 'ndcg', sessions, evidenceSessions, ks);
    scoreFamily(scores, 'session_', 'recall_any', sessions, evidenceSessions, ks);
    if (query.evidence.length > 0) scoreFamily(scores, 'turn_', 'recall_all', ranked, query.evidence, ks);
    return scores;
  },
};
