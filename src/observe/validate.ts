// Proposal validation as a pure function: shape, coverage, sources, verbatim quotes, kind rules.
import type { Result } from '../errors.js';
import { zodIssues } from '../protocol/wire-errors.js';
import {
  MEMORY_KINDS,
  ProposalSchema,
  type MemoryKind,
  type Proposal,
  type ProposedMemory,
} from './schema.js';
import { validateObjects, type ValidObject, type ValidRelation } from './validate-objects.js';

export type ProposalIssueCode =
  | 'invalid_shape'
  | 'unknown_event'
  | 'uncovered_event'
  | 'conflicting_disposition'
  | 'cited_unused'
  | 'discarded_but_cited'
  | 'unknown_kind'
  | 'source_outside_batch'
  | 'quote_outside_sources'
  | 'quote_not_verbatim'
  | 'user_quote_required'
  | 'missing_field'
  | 'unknown_type'
  | 'duplicate_ref'
  | 'unknown_object'
  | 'credential_value';

export interface ProposalIssue {
  path: string;
  code: ProposalIssueCode;
  message: string;
}

/** One batch item as the validator needs it: which event, its role, its full text, its merge group. */
export interface ViewItem {
  position: number;
  event_id: string;
  role: string;
  text: string;
  same_as: number | null;
}

export interface ValidMemory extends ProposedMemory {
  kind: MemoryKind;
  /** Distinct source event ids, in citation order. */
  sources: string[];
  /** True when a quote is verbatim in a user event among the sources. */
  userQuoted: boolean;
}

export interface ValidProposal {
  memories: ValidMemory[];
  /** Objects and relations (issue 10); absent in proposals built before them. */
  objects?: ValidObject[];
  relations?: ValidRelation[];
  /** Disposition and reason of every item position. */
  dispositions: Map<number, { action: 'cited' | 'discarded'; reason: string | null }>;
}

const KINDS: ReadonlySet<string> = new Set(MEMORY_KINDS);

const requiredFields = (m: ProposedMemory): Array<keyof ProposedMemory> => {
  if (m.kind === 'fact') return ['fact_kind', 'subject', 'predicate', 'object'];
  if (m.kind === 'procedure') return ['steps', 'risk'];
  return [];
};

/**
 * invariant: a proposal publishes only if every batch event is cited or discarded, every source (of a memory,
 * an object or a relation) is in the batch, every quote is verbatim in its source, and preferences and
 * profile facts quote a user event
 * (tests: "validateProposal", "lists every issue at once").
 */
export function validateProposal(
  items: readonly ViewItem[],
  raw: unknown,
): Result<ValidProposal, ProposalIssue[]> {
  const parsed = ProposalSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      issues: zodIssues(parsed.error).map((i) => ({
        path: i.path,
        code: 'invalid_shape',
        message: i.message,
      })),
    };
  }
  const proposal: Proposal = parsed.data;
  const issues: ProposalIssue[] = [];
  const byId = new Map(items.map((i) => [i.event_id, i]));
  // Items with identical text form one group, represented by the first of them.
  const groupOf = (item: ViewItem): number => item.same_as ?? item.position;

  const cited = new Set<number>();
  const memories: ValidMemory[] = [];
  proposal.memories.forEach((m, mi) => {
    const at = `memories.${mi}`;
    const before = issues.length;
    if (!KINDS.has(m.kind)) {
      issues.push({
        path: `${at}.kind`,
        code: 'unknown_kind',
        message: `unknown memory kind "${m.kind}" (expected ${MEMORY_KINDS.join(', ')})`,
      });
    }
    for (const field of requiredFields(m)) {
      if (m[field] === undefined || (Array.isArray(m[field]) && m[field].length === 0)) {
        issues.push({ path: `${at}.${field}`, code: 'missing_field', message: `a ${m.kind} needs ${field}` });
      }
    }
    const sources = [...new Set(m.sources)];
    m.sources.forEach((id, si) => {
      const item = byId.get(id);
      if (item) cited.add(groupOf(item));
      else {
        issues.push({
          path: `${at}.sources.${si}`,
          code: 'source_outside_batch',
          message: `source ${id} is not an event of this batch`,
        });
      }
    });
    let userQuoted = false;
    (m.quotes ?? []).forEach((q, qi) => {
      const item = byId.get(q.event_id);
      if (!sources.includes(q.event_id) || !item) {
        issues.push({
          path: `${at}.quotes.${qi}.event_id`,
          code: 'quote_outside_sources',
          message: `quote names ${q.event_id}, which is not a source of this memory in this batch`,
        });
      } else if (!item.text.includes(q.text)) {
        issues.push({
          path: `${at}.quotes.${qi}.text`,
          code: 'quote_not_verbatim',
          message: `quote is not verbatim in event ${q.event_id}`,
        });
      } else if (item.role === 'user') {
        userQuoted = true;
      }
    });
    if ((m.kind === 'preference' || (m.kind === 'fact' && m.fact_kind === 'profile')) && !userQuoted) {
      issues.push({
        path: `${at}.quotes`,
        code: 'user_quote_required',
        message: `a ${m.kind === 'fact' ? 'profile fact' : 'preference'} needs a verbatim quote from a user event`,
      });
    }
    if (issues.length === before) memories.push({ ...m, kind: m.kind as MemoryKind, sources, userQuoted });
  });
  const { objects, relations } = validateObjects(proposal, byId, (item) => cited.add(groupOf(item)), issues);

  const decided = new Map<number, { action: 'cited' | 'discarded'; reason: string | null; index: number }>();
  proposal.dispositions.forEach((d, di) => {
    const item = byId.get(d.event_id);
    if (!item) {
      issues.push({
        path: `dispositions.${di}.event_id`,
        code: 'unknown_event',
        message: `event ${d.event_id} is not in this batch`,
      });
      return;
    }
    const group = groupOf(item);
    const earlier = decided.get(group);
    if (earlier && earlier.action !== d.action) {
      issues.push({
        path: `dispositions.${di}.action`,
        code: 'conflicting_disposition',
        message: `event ${d.event_id} is both cited and discarded`,
      });
      return;
    }
    decided.set(group, earlier ?? { action: d.action, reason: d.reason ?? null, index: di });
  });

  const dispositions: ValidProposal['dispositions'] = new Map();
  for (const item of items) {
    const group = groupOf(item);
    const d = decided.get(group);
    if (!d) {
      if (item.same_as === null) {
        issues.push({
          path: 'dispositions',
          code: 'uncovered_event',
          message: `event ${item.event_id} is neither cited nor discarded`,
        });
      }
      continue;
    }
    if (item.same_as === null && d.action === 'cited' && !cited.has(group)) {
      issues.push({
        path: `dispositions.${d.index}`,
        code: 'cited_unused',
        message: `event ${item.event_id} is marked cited but no memory cites it`,
      });
    }
    if (item.same_as === null && d.action === 'discarded' && cited.has(group)) {
      issues.push({
        path: `dispositions.${d.index}`,
        code: 'discarded_but_cited',
        message: `event ${item.event_id} is marked discarded but a memory cites it`,
      });
    }
    dispositions.set(item.position, { action: d.action, reason: d.reason });
  }
  return issues.length > 0
    ? { ok: false, issues }
    : { ok: true, value: { memories, objects, relations, dispositions } };
}
