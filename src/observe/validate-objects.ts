// Validation of a proposal's objects and relations, like its memories: known types, sources in the batch,
// verbatim quotes, refs that resolve. Object ids a relation names are checked against the store apart.
import { getObjects, normName, OBJECT_TYPES, type ObjectType } from '../knowledge/knowledge.js';
import type { Queryable } from '../storage/driver.js';
import type { Proposal, ProposedObject, ProposedRelation } from './schema.js';
import type { ProposalIssue, ViewItem } from './validate.js';

export interface ValidObject extends Omit<ProposedObject, 'type' | 'aliases'> {
  type: ObjectType;
  aliases: string[];
  /** Distinct source event ids, in citation order. */
  sources: string[];
}

export interface ValidRelation extends ProposedRelation {
  sources: string[];
}

const TYPES: ReadonlySet<string> = new Set(OBJECT_TYPES);

/** Checks sources (marking the items they cite) and quotes of one object or relation. */
function checkSources(
  at: string,
  sources: readonly string[],
  quotes: ReadonlyArray<{ event_id: string; text: string }>,
  byId: ReadonlyMap<string, ViewItem>,
  cite: (item: ViewItem) => void,
  issues: ProposalIssue[],
): void {
  sources.forEach((id, si) => {
    const item = byId.get(id);
    if (item) cite(item);
    else {
      issues.push({
        path: `${at}.sources.${si}`,
        code: 'source_outside_batch',
        message: `source ${id} is not an event of this batch`,
      });
    }
  });
  quotes.forEach((q, qi) => {
    const item = byId.get(q.event_id);
    if (!sources.includes(q.event_id) || !item) {
      issues.push({
        path: `${at}.quotes.${qi}.event_id`,
        code: 'quote_outside_sources',
        message: `quote names ${q.event_id}, which is not a source here in this batch`,
      });
    } else if (!item.text.includes(q.text)) {
      issues.push({
        path: `${at}.quotes.${qi}.text`,
        code: 'quote_not_verbatim',
        message: `quote is not verbatim in event ${q.event_id}`,
      });
    }
  });
}

/** The proposal's valid objects and relations; issues are added to `issues`. */
export function validateObjects(
  proposal: Proposal,
  byId: ReadonlyMap<string, ViewItem>,
  cite: (item: ViewItem) => void,
  issues: ProposalIssue[],
): { objects: ValidObject[]; relations: ValidRelation[] } {
  const objects: ValidObject[] = [];
  const refs = new Set<string>();
  proposal.objects.forEach((o, i) => {
    const at = `objects.${i}`;
    const before = issues.length;
    if (!TYPES.has(o.type)) {
      issues.push({
        path: `${at}.type`,
        code: 'unknown_type',
        message: `unknown object type "${o.type}" (expected ${OBJECT_TYPES.join(', ')})`,
      });
    }
    if (normName(o.name) === '') {
      issues.push({ path: `${at}.name`, code: 'missing_field', message: 'a name needs a letter or a digit' });
    }
    if (o.ref !== undefined) {
      if (refs.has(o.ref)) {
        issues.push({ path: `${at}.ref`, code: 'duplicate_ref', message: `ref ${o.ref} names two objects` });
      }
      refs.add(o.ref);
    }
    checkSources(at, o.sources, o.quotes ?? [], byId, cite, issues);
    if (issues.length === before) {
      objects.push({
        ...o,
        type: o.type as ObjectType,
        aliases: o.aliases ?? [],
        sources: [...new Set(o.sources)],
      });
    }
  });
  const relations: ValidRelation[] = [];
  proposal.relations.forEach((r, i) => {
    const before = issues.length;
    checkSources(`relations.${i}`, r.sources, [], byId, cite, issues);
    if (r.from === r.to) {
      issues.push({
        path: `relations.${i}`,
        code: 'invalid_shape',
        message: 'a relation links two different objects',
      });
    }
    if (issues.length === before) relations.push({ ...r, sources: [...new Set(r.sources)] });
  });
  return { objects, relations };
}

/**
 * Relation ends that are neither a ref of the proposal nor an object of the owner.
 * invariant: a published relation links two objects of the batch's owner (test:
 * test/observe/objects.test.ts "refuses objects and relations like memories…").
 */
export async function unknownObjectIssues(
  db: Queryable,
  owner: string,
  proposal: { objects: readonly ValidObject[]; relations: readonly ValidRelation[] },
): Promise<ProposalIssue[]> {
  const refs = new Set(proposal.objects.flatMap((o) => (o.ref === undefined ? [] : [o.ref])));
  const named = [...new Set(proposal.relations.flatMap((r) => [r.from, r.to]).filter((x) => !refs.has(x)))];
  const known = new Set((await getObjects(db, owner, named)).map((o) => o.object_id));
  return proposal.relations.flatMap((r, i) =>
    (['from', 'to'] as const)
      .filter((end) => !refs.has(r[end]) && !known.has(r[end]))
      .map((end): ProposalIssue => ({
        path: `relations.${i}.${end}`,
        code: 'unknown_object',
        message: `${r[end]} is neither a ref of this proposal nor an object of this owner`,
      })),
  );
}
