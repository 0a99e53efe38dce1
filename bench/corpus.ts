// The bench corpus: real dialogue turns (LongMemEval haystacks, KdConv) and the datasets' questions.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Turn {
  text: string;
  role: 'user' | 'agent';
  lang: 'en' | 'zh';
}

export interface BenchQuery {
  text: string;
  lang: 'en' | 'zh';
}

export interface Corpus {
  /** Sessions of deduplicated turns, LongMemEval and KdConv interleaved. */
  sessions: Turn[][];
  turns: number;
  sources: { longmemevalTurns: number; kdconvTurns: number };
  /** LongMemEval questions (s_dev, then oracle) and KdConv question-like utterances. */
  questions: { en: string[]; zh: string[] };
}

export interface BenchEvent {
  event_id: string;
  session_id: string;
  kind: 'user_message' | 'agent_reply';
  role: 'user' | 'agent';
  at: number;
  text: string;
}

interface LmeEntry {
  question: string;
  haystack_sessions: Array<Array<{ role: string; content: string }>>;
}
interface KdconvDialog {
  messages: Array<{ message: string }>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const MAX_TEXT = 32_000;

/** Deterministic PRNG so every run sees the same corpus order and query sample. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function loadCorpus(dataDir: string): Corpus {
  const seen = new Set<string>();
  const keep = (text: string): boolean => {
    const t = text.trim();
    if (t.length === 0 || t.length > MAX_TEXT || seen.has(t)) return false;
    seen.add(t);
    return true;
  };

  const lmeSessions: Turn[][] = [];
  const lme = readJson<LmeEntry[]>(join(dataDir, 'longmemeval', 'longmemeval_s_dev.json'));
  for (const entry of lme) {
    for (const session of entry.haystack_sessions) {
      const turns = session
        .filter((t) => keep(t.content))
        .map((t): Turn => ({
          text: t.content.trim(),
          role: t.role === 'user' ? 'user' : 'agent',
          lang: 'en',
        }));
      if (turns.length > 0) lmeSessions.push(turns);
    }
  }
  const oracle = readJson<LmeEntry[]>(join(dataDir, 'longmemeval', 'longmemeval_oracle.json'));
  const en = [...new Set([...lme, ...oracle].map((e) => e.question.trim()))];

  const kdSessions: Turn[][] = [];
  const zh: string[] = [];
  const kdDir = join(dataDir, 'kdconv');
  for (const domain of readdirSync(kdDir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(kdDir, domain.name))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      for (const dialog of readJson<KdconvDialog[]>(join(kdDir, domain.name, file))) {
        const turns: Turn[] = [];
        dialog.messages.forEach((m, i) => {
          const text = m.message.trim();
          // KdConv has no questions: its question-like utterances (ending in ？/?) are the queries.
          if (/[？?]$/u.test(text)) zh.push(text);
          if (keep(text)) turns.push({ text, role: i % 2 === 0 ? 'user' : 'agent', lang: 'zh' });
        });
        if (turns.length > 0) kdSessions.push(turns);
      }
    }
  }

  const sessions = interleave(lmeSessions, kdSessions);
  const count = (list: Turn[][]): number => list.reduce((n, s) => n + s.length, 0);
  return {
    sessions,
    turns: count(sessions),
    sources: { longmemevalTurns: count(lmeSessions), kdconvTurns: count(kdSessions) },
    questions: { en, zh: [...new Set(zh)] },
  };
}

/** Spreads the shorter list evenly through the longer one, keeping each list's order. */
function interleave<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && i / a.length <= j / b.length)) out.push(a[i++] as T);
    else out.push(b[j++] as T);
  }
  return out;
}

/**
 * Picks `n` queries: two thirds English questions, one third Chinese utterances, sampled without
 * replacement by a fixed seed (fewer when a pool runs out).
 */
export function pickQueries(corpus: Corpus, n: number, seed = 7): BenchQuery[] {
  const random = mulberry32(seed);
  const enCount = Math.min(corpus.questions.en.length, Math.round((n * 2) / 3));
  const zhCount = Math.min(corpus.questions.zh.length, n - enCount);
  return shuffle(
    [
      ...shuffle(corpus.questions.en, random)
        .slice(0, enCount)
        .map((text): BenchQuery => ({ text, lang: 'en' })),
      ...shuffle(corpus.questions.zh, random)
        .slice(0, zhCount)
        .map((text): BenchQuery => ({ text, lang: 'zh' })),
    ],
    random,
  );
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

const BASE_AT = Date.UTC(2023, 0, 1);
const STEP_MS = 60_000;

/**
 * The corpus cycled up to any size: event i is turn (i mod turns) with a fresh id, session and date,
 * so every round is a new stretch of the same owner's timeline.
 */
export function createEventSource(corpus: Corpus) {
  const flat: Array<{ turn: Turn; session: number }> = [];
  corpus.sessions.forEach((turns, session) => turns.forEach((turn) => flat.push({ turn, session })));
  return {
    size: flat.length,
    event(i: number): BenchEvent {
      const entry = flat[i % flat.length] as { turn: Turn; session: number };
      const round = Math.floor(i / flat.length);
      return {
        event_id: `ev-${i}`,
        session_id: `s-${round}-${entry.session}`,
        kind: entry.turn.role === 'user' ? 'user_message' : 'agent_reply',
        role: entry.turn.role,
        at: BASE_AT + i * STEP_MS,
        text: entry.turn.text,
      };
    },
    batch(from: number, to: number): BenchEvent[] {
      const out: BenchEvent[] = [];
      for (let i = from; i < to; i++) out.push(this.event(i));
      return out;
    },
  };
}

export type EventSource = ReturnType<typeof createEventSource>;
