// A segment as the gate reads it: redacted first, then its terms, entities and digest. Only these are kept.
import { createHash } from 'node:crypto';
import { normName, normText, objectsForQuery } from '../knowledge/knowledge.js';
import { isIdTerm } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { segmentTerms } from './segment-terms.js';
import type { Segment } from './working-memory.js';

/** Terms kept per segment: enough to compare, bounded for a pasted log. */
const MAX_TERMS = 64;
const MAX_ENTITIES = 32;

export interface PreparedSegment extends Segment {
  /** The redacted text: read by the gate's signals and a prefetch, never stored. */
  text: string;
  /** Its normal form (names.ts), where fact subjects are looked for. */
  norm: string;
  /** Object ids it names: sources the audit may hold. */
  objectIds: string[];
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export async function prepareSegment(
  db: Queryable,
  redactor: Redactor,
  owner: string,
  input: { kind: string; text: string; ok?: boolean | undefined },
): Promise<PreparedSegment> {
  const { text } = await redactor.redact(input.text);
  // A redaction marker says what was there, not what the segment is about: no term, no entity.
  const terms = segmentTerms(text);
  const objects = text.trim() === '' ? [] : await objectsForQuery(db, owner, text);
  const objectIds = objects.map((o) => o.object.object_id).slice(0, MAX_ENTITIES);
  const entities = [
    ...objectIds.map((id) => `obj:${id}`),
    ...terms.filter(isIdTerm).map((t) => `id:${t}`),
  ].slice(0, MAX_ENTITIES);
  return {
    kind: input.kind,
    ok: input.ok ?? null,
    digest: sha256(`${input.kind}\n${normText(text)}`),
    terms: terms.slice(0, MAX_TERMS),
    entities,
    text,
    norm: normName(text),
    objectIds,
  };
}
