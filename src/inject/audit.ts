// The injection audit: one record per gate decision (and, from part 3, per packet) answering why, what,
// source, cost and expiry with ids, digests and numbers only.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, nint, nstr, num, row, str } from '../storage/rows.js';
import type { AuditRecord } from './schema.js';

export interface AuditInput {
  owner: string;
  sessionId: string | null;
  packetId: string | null;
  kind: 'gate' | 'packet';
  trigger: string | null;
  action: string;
  reason: string;
  score: number | null;
  /** Numbers and booleans only: a name or a phrase never becomes a signal. */
  signals: Record<string, number | boolean>;
  /** Ids only. */
  sources: string[];
  digest: string | null;
  cursor: number | null;
  bytes: number;
  tokens: number;
  requestId: string | null;
  at: number;
  expiresAt: number | null;
}

export const newAuditId = (): string => `au_${randomBytes(9).toString('base64url')}`;

/**
 * invariant: an audit record holds ids, digests and numbers, never memory or segment text: its only text
 * columns are ids, enum words and JSON of numbers (test: src/inject/audit.test.ts "holds no segment text: one record per decision…").
 */
export async function writeAudit(tx: Queryable, id: string, a: AuditInput): Promise<void> {
  await tx.run(
    `INSERT INTO inject_audit (audit_id, owner, session_id, packet_id, kind, trigger_kind, action, reason, score,
       signals, sources, digest, context_cursor, bytes, tokens, request_id, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      a.owner,
      a.sessionId,
      a.packetId,
      a.kind,
      a.trigger,
      a.action,
      a.reason,
      a.score,
      JSON.stringify(a.signals),
      JSON.stringify(a.sources),
      a.digest,
      a.cursor,
      a.bytes,
      a.tokens,
      a.requestId,
      a.at,
      a.expiresAt,
    ],
  );
}

const AuditRow = row({
  audit_id: str,
  kind: z.enum(['gate', 'packet']),
  session_id: nstr,
  packet_id: nstr,
  trigger_kind: nstr,
  action: str,
  reason: str,
  score: num.nullable(),
  signals: str,
  sources: str,
  digest: nstr,
  context_cursor: nint,
  bytes: int,
  tokens: int,
  request_id: nstr,
  outcome: nstr,
  created_at: int,
  expires_at: nint,
});
const Signals = z.record(z.string(), z.union([z.number(), z.boolean()]));
const Ids = z.array(z.string());
const iso = (ms: number): string => new Date(ms).toISOString();

export async function queryAudit(
  db: Queryable,
  q: { owner: string; session_id?: string | undefined; packet_id?: string | undefined; limit: number },
): Promise<AuditRecord[]> {
  const where = ['owner = ?'];
  const params: SqlValue[] = [q.owner];
  if (q.session_id !== undefined) {
    where.push('session_id = ?');
    params.push(q.session_id);
  }
  if (q.packet_id !== undefined) {
    where.push('packet_id = ?');
    params.push(q.packet_id);
  }
  const rows = await db.all(
    AuditRow,
    `SELECT audit_id, kind, session_id, packet_id, trigger_kind, action, reason, score, signals, sources, digest,
            context_cursor, bytes, tokens, request_id, outcome, created_at, expires_at
       FROM inject_audit WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, context_cursor DESC, audit_id LIMIT ?`,
    [...params, q.limit],
  );
  return rows.map((r) => ({
    audit_id: r.audit_id,
    kind: r.kind,
    session_id: r.session_id,
    packet_id: r.packet_id,
    at: iso(r.created_at),
    trigger: r.trigger_kind,
    action: r.action,
    reason: r.reason,
    score: r.score,
    signals: Signals.parse(JSON.parse(r.signals)),
    sources: Ids.parse(JSON.parse(r.sources)),
    digest: r.digest,
    cursor: r.context_cursor,
    bytes: r.bytes,
    tokens: r.tokens,
    request_id: r.request_id,
    outcome: r.outcome,
    expires_at: r.expires_at === null ? null : iso(r.expires_at),
  }));
}
