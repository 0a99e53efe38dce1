// What a proposal publishes passes the same redaction as events: a model or a worker that echoes a
// secret cannot store it.
import type { Redactor } from '../text/redact.js';
import type { ValidMemory, ValidProposal } from './validate.js';

type Texts = { get(): string[]; set(values: readonly string[]): void };

/** Every free-text part of a memory, read and written in one order. */
function textsOf(m: ValidMemory): Texts {
  const lists = ['cues', 'preconditions', 'steps', 'checks'] as const;
  const singles = ['text', 'subject', 'predicate', 'object'] as const;
  return {
    get: () => [
      ...singles.flatMap((k) => (m[k] === undefined ? [] : [m[k]])),
      ...lists.flatMap((k) => m[k] ?? []),
      ...(m.quotes ?? []).map((q) => q.text),
    ],
    set(values) {
      let i = 0;
      const next = (): string => values[i++] ?? '';
      for (const k of singles) if (m[k] !== undefined) m[k] = next();
      for (const k of lists) {
        const list = m[k];
        if (list) m[k] = list.map(() => next());
      }
      if (m.quotes) m.quotes = m.quotes.map((q) => ({ ...q, text: next() }));
    },
  };
}

/**
 * A copy of the proposal with every memory text, structured part, cue, quote and disposition reason
 * redacted. Quotes were checked verbatim against the (already redacted) sources before this.
 * invariant: nothing a proposal carries is stored, indexed or embedded unredacted (test:
 * test/observe/publish.test.ts "redacts what a proposal publishes").
 */
export async function redactProposal(redactor: Redactor, proposal: ValidProposal): Promise<ValidProposal> {
  const memories = proposal.memories.map((m) => ({ ...m }));
  const views = memories.map(textsOf);
  const reasons = [...proposal.dispositions].map(([position, d]) => ({ position, d }));
  const all = [...views.flatMap((v) => v.get()), ...reasons.map((r) => r.d.reason ?? '')];
  const redacted = (await redactor.redactMany(all)).map((r) => r.text);
  let at = 0;
  for (const view of views) {
    const n = view.get().length;
    view.set(redacted.slice(at, at + n));
    at += n;
  }
  const dispositions = new Map(
    reasons.map(({ position, d }) => [
      position,
      { action: d.action, reason: d.reason === null ? null : (redacted[at++] ?? '') },
    ]),
  );
  return { memories, dispositions };
}
