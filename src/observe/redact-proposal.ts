// What a proposal publishes passes the same redaction as events: a model or a worker that echoes a
// secret cannot store it.
import { redactObjects } from '../knowledge/knowledge.js';
import type { Redactor } from '../text/redact.js';
import type { ProposalIssue, ValidMemory, ValidProposal } from './validate.js';
import type { ValidObject } from './validate-objects.js';

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

/** Objects with name, aliases, body and quotes redacted; a credential_ref holding a credential value is refused. */
async function redactProposedObjects(
  redactor: Redactor,
  objects: readonly ValidObject[],
): Promise<{ objects: ValidObject[]; refused: ProposalIssue[] }> {
  const { objects: redacted, refused } = await redactObjects(redactor, objects);
  const quotes = redacted.flatMap((o) => o.quotes ?? []);
  const texts = (await redactor.redactMany(quotes.map((q) => q.text))).map((r) => r.text);
  let at = 0;
  return {
    objects: redacted.map((o) =>
      o.quotes ? { ...o, quotes: o.quotes.map((q) => ({ ...q, text: texts[at++] ?? '' })) } : o,
    ),
    refused: refused.map((r) => ({ ...r, code: 'credential_value' as const })),
  };
}

/**
 * A copy of the proposal with every memory text, structured part, cue, quote, object name, alias and body,
 * and disposition reason redacted, and the credential_refs that hold a credential value (`refused`: the
 * proposal is then refused). Quotes were checked verbatim against the (already redacted) sources before this.
 * invariant: nothing a proposal carries is stored, indexed or embedded unredacted (test:
 * test/observe/publish.test.ts "redacts what a proposal publishes", test/observe/objects.test.ts
 * "refuses a credential value in a proposed credential_ref and redacts proposed objects otherwise").
 */
export async function redactProposal(
  redactor: Redactor,
  proposal: ValidProposal,
): Promise<ValidProposal & { refused: ProposalIssue[] }> {
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
  const { objects, refused } = await redactProposedObjects(redactor, proposal.objects ?? []);
  return { memories, objects, relations: proposal.relations ?? [], dispositions, refused };
}
