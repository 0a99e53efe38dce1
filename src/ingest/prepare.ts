// Preparing events for storage: validate, redact text and meta, hash, tokenize. Pure CPU work with no
// store access, so it runs the same on the main thread and in the prepare workers (prepare-pool.ts).
import { createHmac } from 'node:crypto';
import { indexFields, withContext, type IndexRow } from '../search/search.js';
import type { Redactor, RedactResult } from '../text/redact.js';
import { redactMeta } from '../text/redact-meta.js';
import { tokenize } from '../text/tokenize.js';
import { zodIssues } from '../protocol/wire-errors.js';
import { EventSchema, ID_FIELDS, type EventData, type Rejection } from './schema.js';
import type { EventRow } from './store.js';

export interface PrepareContext {
  redactor: Redactor;
  /** Secret of this store: content hashes are keyed so they reveal nothing about redacted text. */
  salt: string;
}

/** Tokens of the previous turn kept as a turn's context: its end, where a question to answer sits. */
export const CONTEXT_TOKENS = 48;

/**
 * An event ready for one transaction: its row and its index row. Token lists travel joined (one
 * string per field): from a worker that costs a third of sending each token.
 */
export interface PreparedEvent {
  row: EventRow;
  doc: IndexRow;
  /** The last CONTEXT_TOKENS tokens of the text, joined: the context of the session's next turn. */
  tail: string;
}

/** The context field of the turn after `text`. */
export const contextOf = (tokens: readonly string[]): string => tokens.slice(-CONTEXT_TOKENS).join(' ');

export interface PrepareOutcome {
  prepared: PreparedEvent[];
  /** EVENT_INVALID rejections, in input order. */
  rejected: Rejection[];
}

/** Something that prepares a call's events; the pool spreads them over worker threads. */
export interface Preparer {
  prepare(owner: string, raw: readonly unknown[]): Promise<PrepareOutcome>;
  /** Calls prepared on worker threads and on the calling thread so far. */
  counts(): { pooled: number; inline: number };
  close(): Promise<void>;
}

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
};

/**
 * The hash that tells a duplicate from an EVENT_CONFLICT, over the event as stored: its redacted text and
 * meta. invariant: no answer depends on a redacted value — an event id sent again with another guess of
 * a redacted secret is a duplicate either way (test: src/ingest/ingest.test.ts "regression for issue 8:
 * duplicates are decided on the redacted content").
 */
export interface HashedContent {
  session_id?: string | null | undefined;
  task_id?: string | null | undefined;
  kind: string;
  role: string;
  at: number;
  text: string;
  meta?: unknown;
}

export function contentHash(salt: string, e: HashedContent): string {
  const body = JSON.stringify([
    e.session_id ?? null,
    e.task_id ?? null,
    e.kind,
    e.role,
    e.at,
    e.text,
    canonical(e.meta ?? null),
  ]);
  return createHmac('sha256', salt).update(body).digest('hex');
}

async function prepareOne(
  ctx: PrepareContext,
  owner: string,
  event: EventData,
  red: RedactResult,
): Promise<PreparedEvent> {
  const meta = event.meta ? await redactMeta(ctx.redactor, event.meta) : null;
  const metaRedacted = meta?.redacted ?? false;
  const findings = red.findings.map((f) => ({
    type: f.type,
    rule: f.rule,
    start: f.start,
    end: f.end,
    hash: f.hash,
  }));
  const redactions =
    red.redacted || metaRedacted ? JSON.stringify({ text: findings, meta: metaRedacted }) : null;
  const row: EventRow = {
    owner,
    event_id: event.event_id,
    session_id: event.session_id ?? null,
    task_id: event.task_id ?? null,
    kind: event.kind,
    role: event.role,
    at: event.at,
    text: red.text,
    meta: meta ? JSON.stringify(meta.meta) : null,
    content_hash: contentHash(ctx.salt, { ...event, text: red.text, meta: meta?.meta }),
    redactions,
  };
  const tokens = tokenize(red.text);
  return { row, doc: eventIndexRow(row, tokens), tail: contextOf(tokens) };
}

/** A stored event's index document; `context` is the tail of its session's previous turn. */
export function eventIndexRow(
  e: Pick<EventRow, 'owner' | 'event_id' | 'at' | 'session_id' | 'task_id' | 'role'>,
  tokens: readonly string[],
  context = '',
): IndexRow {
  const fields = indexFields(tokens);
  return {
    owner: e.owner,
    kind: 'event',
    ref: e.event_id,
    at: e.at,
    sessionId: e.session_id,
    taskId: e.task_id,
    role: e.role,
    fields: context === '' ? fields : withContext(fields, context),
  };
}

/**
 * Validates, redacts, hashes and tokenizes `raw`; an invalid item becomes an EVENT_INVALID rejection
 * naming `events[offset + i].field`.
 */
export async function prepareEvents(
  ctx: PrepareContext,
  owner: string,
  raw: readonly unknown[],
  offset = 0,
): Promise<PrepareOutcome> {
  // One slot per item, so rejections come out in input order whichever check made them.
  const outcomes: (Rejection | EventData)[] = raw.map((item, i) => {
    const parsed = EventSchema.safeParse(item);
    if (parsed.success) return parsed.data;
    const id = (item as { event_id?: unknown } | null)?.event_id;
    const issues = zodIssues(parsed.error);
    const idInvalid = issues.some((issue) => issue.path === 'event_id');
    return {
      event_id: typeof id === 'string' && !idInvalid ? id : null,
      code: 'EVENT_INVALID',
      message: issues.map((issue) => `events[${offset + i}].${issue.path}: ${issue.message}`).join('; '),
    };
  });
  await rejectSecretIds(ctx.redactor, outcomes, offset);
  const valid = outcomes.filter((o): o is EventData => !('code' in o));
  const redacted = await ctx.redactor.redactMany(valid.map((e) => e.text));
  const prepared: PreparedEvent[] = [];
  for (const [i, event] of valid.entries()) {
    prepared.push(await prepareOne(ctx, owner, event, redacted[i] as RedactResult));
  }
  return { prepared, rejected: outcomes.filter((o): o is Rejection => 'code' in o) };
}

/**
 * invariant: an id in which the redactor finds a secret or a personal identifier is its event's
 * EVENT_INVALID, and the rejection does not repeat it, so it is never stored, indexed or returned
 * (test: "regression for issue 8: an id that is a secret is rejected and never stored").
 */
async function rejectSecretIds(
  redactor: Redactor,
  outcomes: (Rejection | EventData)[],
  offset: number,
): Promise<void> {
  const ids: { at: number; field: (typeof ID_FIELDS)[number]; value: string }[] = [];
  outcomes.forEach((o, at) => {
    if ('code' in o) return;
    for (const field of ID_FIELDS) {
      const value = o[field];
      if (value !== undefined) ids.push({ at, field, value });
    }
  });
  // An id is read as a phone field would be: `13812345678` alone is a phone number here.
  const results = await redactor.redactMany(
    ids.map((id) => id.value),
    ids.map(() => 'phone'),
  );
  const problems = new Map<number, { fields: string[]; hidesEventId: boolean }>();
  ids.forEach((id, k) => {
    const findings = results[k]?.findings ?? [];
    if (findings.length === 0) return;
    const types = [...new Set(findings.map((f) => f.type))].join(', ');
    const problem = problems.get(id.at) ?? { fields: [], hidesEventId: false };
    problem.fields.push(
      `events[${offset + id.at}].${id.field}: an id must not hold a secret or personal identifier (found: ${types})`,
    );
    problem.hidesEventId ||= id.field === 'event_id';
    problems.set(id.at, problem);
  });
  for (const [at, problem] of problems) {
    const event = outcomes[at] as EventData;
    outcomes[at] = {
      event_id: problem.hidesEventId ? null : event.event_id,
      code: 'EVENT_INVALID',
      message: problem.fields.join('; '),
    };
  }
}

/** Prepares on the calling thread. */
export function inlinePreparer(ctx: PrepareContext): Preparer {
  let calls = 0;
  return {
    prepare: (owner, raw) => {
      calls++;
      return prepareEvents(ctx, owner, raw);
    },
    counts: () => ({ pooled: 0, inline: calls }),
    close: async () => {},
  };
}
