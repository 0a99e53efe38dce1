// The heuristic observer (no model): episodes per task/session, explicit facts and preferences in the user's words.
import { isWriteNote } from '../knowledge/knowledge.js';
import { proposeAliases } from './heuristic-aliases.js';
import { standingFact } from './heuristic-facts.js';
import type { Observer } from './observer.js';
import type { BatchEvent, ProposalInput } from './schema.js';

type MemoryInput = ProposalInput['memories'][number];

const PREFERENCE = [
  /\bI(?:'d| would)?\s+(?:really\s+|always\s+|usually\s+)?(?:prefer|like)\b/i,
  /\bfrom now on,?\s+(?:always\s+)?use\b/i,
  /我(?:更|比较|很|还是|一般)?(?:喜欢|偏好|习惯用)/,
  /以后(?:都|一律|统一|全部)用/,
];
// Explicit markers only: at the start of a sentence or clause, or after "please"/请/要.
const REMEMBER = [
  /(?:^|\bplease\s+|[,，]\s*)(?:remember|don't forget)(?:\s+that)?\b[:,]?/i,
  /(?:^|\b)from now on\b,?/i,
  /(?:^|请|要|[，,\s])记住[：:，,]?/,
  /(?:^|[，,\s])以后[，,]?/,
];
const ENVIRONMENT =
  /\b(?:server|host|port|path|directory|folder|env|os|version|machine|ip)\b|服务器|主机|端口|路径|目录|环境|版本/i;
const FIRST_PERSON = /\b(?:I|my|me|mine)\b|我/i;

const SNIPPET_CHARS = 160;
const EPISODE_CHARS = 800;
const QUOTE_CHARS = 500;

/** "e.g." or "a.m.": the word before this period holds another period or is a single letter. */
const abbreviation = (text: string, at: number): boolean => {
  const word = /\S*$/.exec(text.slice(0, at))?.[0] ?? '';
  return word.includes('.') || word.length === 1;
};

/** Sentences as exact substrings of `text` (terminators kept), trimmed, empty ones dropped. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    const end =
      '。！？!?；;\n'.includes(ch) || (ch === '.' && /\s/.test(text[i + 1] ?? ' ') && !abbreviation(text, i));
    if (end) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

const clip = (text: string, max: number): string => {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
};

const idsOf = (e: BatchEvent): string[] => e.event_ids ?? [e.event_id];

function statement(e: BatchEvent, sentence: string): MemoryInput | null {
  const quote = [...sentence].slice(0, QUOTE_CHARS).join('');
  const base = { sources: idsOf(e), quotes: [{ event_id: e.event_id, text: quote }] };
  if (PREFERENCE.some((p) => p.test(sentence))) {
    return { kind: 'preference', text: sentence, ...base, cues: ['preference', '偏好'] };
  }
  const marker = REMEMBER.map((p) => p.exec(sentence)).find((m) => m !== null);
  if (!marker) return null;
  const object = sentence.slice(marker.index + marker[0].length).replace(/^[\s:：,，]+|[\s。.!！]+$/g, '');
  if (object.length === 0) return null;
  const factKind = ENVIRONMENT.test(object)
    ? 'environment'
    : FIRST_PERSON.test(object)
      ? 'profile'
      : 'project';
  // A note is its own subject: said again it is the same fact, and it never supersedes another note.
  const subject = [...object].slice(0, 500).join('');
  return { kind: 'fact', text: sentence, fact_kind: factKind, subject, predicate: 'noted', object, ...base };
}

const GROUP_LABEL = (e: BatchEvent): string =>
  e.task_id ? `task ${e.task_id}` : e.session_id ? `session ${e.session_id}` : 'conversation';

const OUTCOME_KINDS = new Set(['task_started', 'task_result', 'task_failed', 'task_blocked', 'needs_input']);

/** An extractive summary: the first sentence of the opening user message, task events and the last reply. */
function episode(label: string, events: readonly BatchEvent[]): MemoryInput {
  const firstUser = events.find((e) => e.role === 'user');
  const lastReply = events.findLast((e) => e.kind === 'agent_reply');
  const picked = events.filter((e) => e === firstUser || e === lastReply || OUTCOME_KINDS.has(e.kind));
  const chosen = picked.length > 0 ? picked : [events[0], events.at(-1)].filter((e): e is BatchEvent => !!e);
  const parts = [...new Set(chosen)].map(
    (e) => `${e.kind}: ${clip(sentences(e.text)[0] ?? '', SNIPPET_CHARS)}`,
  );
  const text = clip(`${label} — ${parts.join(' — ')}`, EPISODE_CHARS);
  const first = events[0];
  const cues = [
    first?.task_id,
    first?.session_id,
    ...events.filter((e) => OUTCOME_KINDS.has(e.kind)).map((e) => e.kind),
  ];
  return {
    kind: 'episode',
    text,
    sources: [...new Set(events.flatMap(idsOf))],
    cues: [...new Set(cues.filter((c): c is string => !!c))],
  };
}

export function proposeHeuristically(events: readonly BatchEvent[]): ProposalInput {
  const memories: MemoryInput[] = [];
  const groups = new Map<string, BatchEvent[]>();
  for (const e of events) {
    // A direct write's note: what it wrote is stored already; an episode of it would restate it.
    if (e.text.trim().length === 0 || isWriteNote(e)) continue;
    const label = GROUP_LABEL(e);
    groups.set(label, [...(groups.get(label) ?? []), e]);
    if (e.role !== 'user') continue;
    for (const s of sentences(e.text)) {
      const m = standingFact(e, s) ?? statement(e, s);
      if (m) memories.push(m);
    }
  }
  memories.unshift(...[...groups].map(([label, group]) => episode(label, group)));
  const cited = new Set(memories.flatMap((m) => m.sources));
  return {
    dispositions: events.map((e) =>
      cited.has(e.event_id)
        ? { event_id: e.event_id, action: 'cited' as const }
        : {
            event_id: e.event_id,
            action: 'discarded' as const,
            reason: isWriteNote(e) ? 'the note of a direct write, stored already' : 'no text',
          },
    ),
    memories,
    ...proposeAliases(events),
  };
}

export function createHeuristicObserver(): Observer {
  return { name: 'heuristic', propose: async (batch) => ({ proposal: proposeHeuristically(batch.events) }) };
}
