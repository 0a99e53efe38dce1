// Later tool and task results as evidence for procedures: a result that follows a procedure (in a session
// that follows it, or naming its steps) is a success or a failure, recorded once, and the procedure's stage
// and confidence are settled again. Observation's publish calls it with each batch's events.
import { isStopWord, queryTerms } from '../text/tokenize.js';
import type { Queryable } from '../storage/driver.js';
import type { KnowledgeContext } from './facts.js';
import { settleProcedure } from './skill-state.js';
import {
  addEvidence,
  bodyOf,
  followsIn,
  ownerProcedures,
  procedureSources,
  type EvidenceVia,
  type Outcome,
} from './skill-store.js';

export interface OutcomeEvent {
  event_id: string;
  kind: string;
  at: number;
  text: string;
  session_id: string | null;
}

const OUTCOME_KINDS: ReadonlySet<string> = new Set(['tool_result', 'task_result', 'task_failed']);
const FAILED =
  /\b(?:error|errors|failed|failure|fails|exception|traceback|denied|refused|timed?\s*out|aborted|crash(?:ed)?|exit(?:ed)?\s+(?:code|status)\s+[1-9])\b|失败|报错|出错|错误|异常|超时|拒绝|崩溃/i;
// "0 errors", "no errors", "without errors" and 无错误 report a success.
const NO_FAILURE =
  /\b(?:0|no|zero|without)\s+(?:errors?|failures?|failed|exceptions?)\b|无错误|没有错误|0 个错误/gi;

/** What a result says: a failed task, or a tool result that reports an error, is a failure. */
export function outcomeOf(e: Pick<OutcomeEvent, 'kind' | 'text'>): Outcome {
  if (e.kind === 'task_failed') return 'failure';
  if (e.kind === 'task_result') return 'success';
  return FAILED.test(e.text.replace(NO_FAILURE, ' ')) ? 'failure' : 'success';
}

const STEP_COVERAGE = 0.6;
const termsOf = (text: string): string[] => queryTerms(text).filter((t) => !isStopWord(t));

/** Whether a result's text names the procedure's steps: most of the words of two of them (or its only one). */
export function namesSteps(steps: readonly string[], text: string): boolean {
  const words = new Set(termsOf(text));
  let named = 0;
  for (const step of steps) {
    const terms = termsOf(step);
    if (terms.length < 2) continue;
    if (terms.filter((t) => words.has(t)).length / terms.length >= STEP_COVERAGE) named++;
  }
  return steps.length > 0 && named >= Math.min(2, steps.length);
}

/**
 * Records, for each outcome event, every procedure of the owner it follows; settles those procedures.
 * invariant: a procedure's own sources and results before its newest source are never evidence for it, and
 * an event counts once per procedure (test: src/knowledge/skills.test.ts "invariant: confidence from later
 * results…").
 */
export async function recordOutcomes(
  tx: Queryable,
  owner: string,
  events: readonly OutcomeEvent[],
  ctx: KnowledgeContext,
): Promise<number> {
  const outcomes = events.filter((e) => OUTCOME_KINDS.has(e.kind));
  if (outcomes.length === 0) return 0;
  const procedures = await ownerProcedures(tx, owner);
  if (procedures.length === 0) return 0;
  const own = new Set(
    (
      await procedureSources(
        tx,
        owner,
        procedures.map((p) => p.memory_id),
      )
    ).map((s) => `${s.memory_id} ${s.event_id}`),
  );
  const sessions = [...new Set(outcomes.flatMap((e) => (e.session_id === null ? [] : [e.session_id])))];
  const follows = await followsIn(tx, owner, sessions);
  const touched = new Set<string>();
  for (const e of outcomes) {
    for (const p of procedures) {
      if (own.has(`${p.memory_id} ${e.event_id}`) || e.at <= p.at) continue;
      const followed = follows.some(
        (f) => f.memory_id === p.memory_id && f.session_id === e.session_id && f.at <= e.at,
      );
      const via: EvidenceVia | null = followed
        ? 'followed'
        : namesSteps(bodyOf(p).steps, e.text)
          ? 'steps'
          : null;
      if (via === null) continue;
      const row = { memory_id: p.memory_id, event_id: e.event_id, session_id: e.session_id, at: e.at };
      if (await addEvidence(tx, owner, { ...row, outcome: outcomeOf(e), via }, ctx.now))
        touched.add(p.memory_id);
    }
  }
  for (const id of touched) await settleProcedure(tx, owner, id, ctx);
  return touched.size;
}
