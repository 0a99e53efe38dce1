// zh-agent-memory: one desktop agent's Chinese/English event log under one owner; each question must recall
// its gold events. Abstention questions (no gold) are not scored; their top hits are reported apart.
import { z } from 'zod';
import { CHAR_BM25_NAME, createCharBm25 } from '../bm25.js';
import type { DatasetModule, EvalDataset, EvalQuery, EvalUnit } from '../types.js';
import { parseJsonFile } from './parse.js';
import { scoreFamily } from './scoring.js';

const ROLES = ['user', 'agent', 'tool', 'system'] as const;

const EventSchema = z.object({
  event_id: z.string().min(1),
  session_id: z.string().min(1),
  task_id: z.string().min(1).optional(),
  kind: z.string().min(1),
  role: z.enum(ROLES),
  at: z.string().min(1),
  text: z.string(),
});
const QuestionSchema = z.object({
  qid: z.string().min(1),
  at: z.string().min(1),
  query: z.string().min(1),
  type: z.string().min(1),
  gold_event_ids: z.array(z.string()),
  answer: z.string().optional(),
});
const FileSchema = z.object({
  name: z.string().optional(),
  owner: z.string().min(1),
  events: z.array(EventSchema),
  questions: z.array(QuestionSchema),
});

export const ABSTENTION = 'abstention';

export const zhAgent: DatasetModule = {
  name: 'zh-agent',
  defaultFile: 'zh-agent-memory/zh_agent_memory_dev.json',
  families: ['recall'],
  groupLabel: 'question type',
  // The log's times are Beijing time: 上周二 and 国庆后 are read on that calendar.
  timeZone: 'Asia/Shanghai',
  // The data set's reference baseline: BM25 over lower-cased Latin words and single CJK characters.
  baseline: { name: CHAR_BM25_NAME, create: () => createCharBm25() },
  load(raw, { subset }) {
    const parsed = parseJsonFile(raw, FileSchema);
    if (!parsed.ok) return parsed;
    const file = parsed.value;
    const dataset: EvalDataset = { name: 'zh-agent', conversations: [], skipped: [], notes: [] };
    const units: EvalUnit[] = [];
    for (const e of file.events) {
      const at = Date.parse(e.at);
      if (!Number.isFinite(at)) return { ok: false, issues: [`${e.event_id}: unreadable at ${e.at}`] };
      units.push({
        id: e.event_id,
        session: e.session_id,
        role: e.role,
        kind: e.kind,
        at,
        text: e.text,
        ...(e.task_id !== undefined ? { taskId: e.task_id } : {}),
      });
    }
    const known = new Set(units.map((u) => u.id));
    const queries: EvalQuery[] = [];
    for (const q of file.questions.slice(0, subset)) {
      const at = Date.parse(q.at);
      if (!Number.isFinite(at)) return { ok: false, issues: [`${q.qid}: unreadable at ${q.at}`] };
      const evidence = q.gold_event_ids.filter((id) => known.has(id));
      if (evidence.length < q.gold_event_ids.length) dataset.notes.push(`${q.qid}: unknown gold ids dropped`);
      const abstention = q.gold_event_ids.length === 0;
      if (!abstention && evidence.length === 0) {
        dataset.skipped.push({ id: q.qid, reason: 'no known gold event' });
        continue;
      }
      queries.push({
        id: q.qid,
        text: q.query,
        at,
        group: q.type,
        inOverall: !abstention,
        evidence,
        ...(abstention ? { abstention: true } : {}),
      });
    }
    dataset.conversations.push({ owner: file.owner, units, queries });
    return { ok: true, value: dataset };
  },
  score(query, ranked, ks) {
    return query.abstention ? {} : scoreFamily({}, '', 'recall', ranked, query.evidence, ks);
  },
};
