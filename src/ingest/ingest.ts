// Ingest: validate, redact, then store events and index them in one transaction.
import { createHmac } from 'node:crypto';
import type { Driver, Queryable } from '../storage/driver.js';
import { indexDocuments, type IndexDoc } from '../search/search.js';
import type { Redactor, RedactResult } from '../text/redact.js';
import { tokenize } from '../text/tokenize.js';
import { zodIssues } from '../protocol/wire-errors.js';
import { EventSchema, type EventData, type IngestResult, type Rejection } from './schema.js';
import { insertEvent, type EventRow } from './store.js';

export interface IngestDeps {
  driver: Driver;
  redactor: Redactor;
  /** Secret of this store: content hashes are keyed so they reveal nothing about redacted text. */
  salt: string;
  now?: () => number;
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

export function contentHash(salt: string, e: EventData): string {
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

/** Redacts every string leaf of meta with the same redactor as the text. */
async function redactMeta(redactor: Redactor, meta: Record<string, unknown> | undefined) {
  if (!meta) return { meta: null, redacted: false };
  const strings: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(meta);
  if (strings.length === 0) return { meta: JSON.stringify(meta), redacted: false };
  const results = await redactor.redactMany(strings);
  let i = 0;
  let redacted = false;
  const rebuild = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const r = results[i++];
      if (r?.redacted) redacted = true;
      return r ? r.text : v;
    }
    if (Array.isArray(v)) return v.map(rebuild);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rebuild(x)]));
    return v;
  };
  return { meta: JSON.stringify(rebuild(meta)), redacted };
}

interface Prepared {
  event: EventData;
  row: EventRow;
  doc: IndexDoc;
}

async function prepare(
  deps: IngestDeps,
  owner: string,
  event: EventData,
  red: RedactResult,
): Promise<Prepared> {
  const meta = await redactMeta(deps.redactor, event.meta);
  const findings = red.findings.map((f) => ({
    type: f.type,
    rule: f.rule,
    start: f.start,
    end: f.end,
    hash: f.hash,
  }));
  const redactions =
    red.redacted || meta.redacted ? JSON.stringify({ text: findings, meta: meta.redacted }) : null;
  const row: EventRow = {
    owner,
    event_id: event.event_id,
    session_id: event.session_id ?? null,
    task_id: event.task_id ?? null,
    kind: event.kind,
    role: event.role,
    at: event.at,
    text: red.text,
    meta: meta.meta,
    content_hash: contentHash(deps.salt, event),
    redactions,
  };
  const doc: IndexDoc = {
    owner,
    kind: 'event',
    ref: event.event_id,
    at: event.at,
    sessionId: row.session_id,
    taskId: row.task_id,
    role: row.role,
    body: tokenize(red.text),
  };
  return { event, row, doc };
}

/** Tokens of the previous turn kept as a turn's context: its end, where a question to answer sits. */
export const CONTEXT_TOKENS = 48;

/**
 * Gives each document the tail of the turn before it in its session, taken from the batch; returns
 * the first turn of each session in the batch, whose previous turn is stored (or absent).
 */
function addBatchContext(prepared: readonly Prepared[]): Prepared[] {
  const last = new Map<string, Prepared>();
  const first: Prepared[] = [];
  for (const p of prepared) {
    const session = p.row.session_id;
    if (session === null) continue;
    const before = last.get(session);
    if (before) p.doc.context = before.doc.body.slice(-CONTEXT_TOKENS);
    else first.push(p);
    last.set(session, p);
  }
  return first;
}

/** The latest stored turn of each session as context; runs inside the transaction, before the inserts. */
async function addStoredContext(tx: Queryable, owner: string, first: readonly Prepared[]): Promise<void> {
  for (const p of first) {
    const row = await tx.get<{ text: string }>(
      'SELECT text FROM events WHERE owner = ? AND session_id = ? ORDER BY seq DESC LIMIT 1',
      [owner, p.row.session_id],
    );
    if (row) p.doc.context = tokenize(row.text).slice(-CONTEXT_TOKENS);
  }
}

export interface IngestOutcome extends IngestResult {
  /** Seq of each newly stored event, by event_id. */
  stored: Map<string, number>;
}

/**
 * Stores every valid event; rejects the others one by one.
 * invariant: an event id seen before with other content is rejected and the stored event untouched
 * (test: "EVENT_CONFLICT leaves the stored event untouched").
 */
export async function ingestEvents(
  deps: IngestDeps,
  owner: string,
  raw: readonly unknown[],
): Promise<IngestOutcome> {
  const rejected: Rejection[] = [];
  const valid: EventData[] = [];
  raw.forEach((item, index) => {
    const parsed = EventSchema.safeParse(item);
    if (parsed.success) {
      valid.push(parsed.data);
      return;
    }
    const id = (item as { event_id?: unknown } | null)?.event_id;
    const issues = zodIssues(parsed.error);
    rejected.push({
      event_id: typeof id === 'string' ? id : null,
      code: 'EVENT_INVALID',
      message: issues.map((i) => `events[${index}].${i.path}: ${i.message}`).join('; '),
    });
  });

  const redacted = await deps.redactor.redactMany(valid.map((e) => e.text));
  const prepared: Prepared[] = [];
  for (const [i, event] of valid.entries()) {
    prepared.push(await prepare(deps, owner, event, redacted[i] as RedactResult));
  }

  const firstOfSession = addBatchContext(prepared);

  const now = (deps.now ?? Date.now)();
  const stored = new Map<string, number>();
  let duplicates = 0;
  const seenInCall = new Map<string, string>();
  await deps.driver.transaction(async (tx) => {
    await addStoredContext(tx, owner, firstOfSession);
    const docs: IndexDoc[] = [];
    for (const p of prepared) {
      const earlier = seenInCall.get(p.row.event_id);
      if (earlier !== undefined) {
        if (earlier === p.row.content_hash) duplicates++;
        else rejected.push(conflict(p.row.event_id));
        continue;
      }
      seenInCall.set(p.row.event_id, p.row.content_hash);
      const result = await insertEvent(tx, p.row, now);
      if (result.inserted) {
        stored.set(p.row.event_id, result.seq);
        docs.push(p.doc);
      } else if (result.existingHash === p.row.content_hash) {
        duplicates++;
      } else {
        rejected.push(conflict(p.row.event_id));
      }
    }
    await indexDocuments(tx, docs);
  });
  return { accepted: stored.size, duplicates, rejected, stored };
}

const conflict = (eventId: string): Rejection => ({
  event_id: eventId,
  code: 'EVENT_CONFLICT',
  message: `event ${eventId} was stored before with different content; the stored event is unchanged`,
});
