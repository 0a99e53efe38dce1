// Documents as every stage writes them to the index: their metadata and pre-tokenized fields.
import type { Queryable } from '../storage/driver.js';
import { hanCharacters } from '../text/tokenize.js';
import { indexOf } from './index.js';

/** What the index keeps of a document besides its text. */
export interface DocMeta {
  owner: string;
  kind: string;
  ref: string;
  at: number;
  sessionId: string | null;
  taskId: string | null;
  /** Who wrote an event (user, agent, …); absent for memories. */
  role?: string | null;
}

export interface IndexDoc extends DocMeta {
  body: readonly string[];
  cues?: readonly string[];
  /** Tokens of the turn before this one in its session: a question often precedes its answer. */
  context?: readonly string[];
}

/** The fields of a document: tokens joined by spaces. */
export interface IndexFields {
  body: string;
  cues: string;
  context: string;
  /** Each Han character of body and cues once. */
  chars: string;
  /** Tokens in all four fields: the document's length for BM25. */
  tokens: number;
}

/** A document as written to the index; ingest builds these off the main thread (ingest/prepare.ts). */
export interface IndexRow extends DocMeta {
  fields: IndexFields;
}

export const indexFields = (
  body: readonly string[],
  cues: readonly string[] = [],
  context: readonly string[] = [],
): IndexFields => {
  const chars = hanCharacters(cues.length > 0 ? [...body, ...cues] : body);
  return {
    body: body.join(' '),
    cues: cues.join(' '),
    context: context.join(' '),
    chars: chars.join(' '),
    tokens: body.length + cues.length + context.length + chars.length,
  };
};

/** Fields with another context (a turn's context is only known once its session's previous turn is). */
export const withContext = (fields: IndexFields, context: string): IndexFields => {
  const before = fields.context === '' ? 0 : fields.context.split(' ').length;
  const after = context === '' ? 0 : context.split(' ').length;
  return { ...fields, context, tokens: fields.tokens - before + after };
};

export const toIndexRow = ({ body, cues, context, ...meta }: IndexDoc): IndexRow => ({
  ...meta,
  fields: indexFields(body, cues, context),
});

export async function indexDocuments(tx: Queryable, docs: readonly IndexDoc[]): Promise<void> {
  await indexOf(tx).write(tx, docs.map(toIndexRow));
}

export async function indexRows(tx: Queryable, docs: readonly IndexRow[]): Promise<void> {
  await indexOf(tx).write(tx, docs);
}

/** Deletes one document from the index (an object about to be indexed again, say); false if none. */
export async function removeDocument(
  tx: Queryable,
  owner: string,
  kind: string,
  ref: string,
): Promise<boolean> {
  return indexOf(tx).remove(tx, owner, kind, ref);
}
