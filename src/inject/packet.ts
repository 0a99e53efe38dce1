// memory.packet.build: candidates from recall within its wait budget (model-free), read again from the store,
// then ranked, deduplicated against the packet and the session's delivered packets, budgeted and passed
// through the safety gate; the packet (ids, digests, numbers) and one audit record are stored together.
import { RECALL_KINDS, RecallParamsSchema } from '../recall/schema.js';
import { row, nstr } from '../storage/rows.js';
import { newAuditId, writeAudit } from './audit.js';
import { readCandidates } from './packet-candidates.js';
import { packetDigests } from './packet-digest.js';
import {
  DROP_REASONS,
  PACKET_SCHEMA_VERSION,
  type PacketBuildParams,
  type PacketBuildResult,
} from './packet-schema.js';
import { selectItems } from './packet-select.js';
import { deliveredDigests, insertPacket, newPacketId } from './packet-store.js';
import { recallWithin } from './recall-wait.js';
import { indexMark } from './requests.js';
import type { InjectRuntime, RecallFn } from './runtime.js';
import { lockSession } from './sessions.js';
import { readRing } from './working-memory.js';

/** Terms taken from the working memory for a query, newest segment first. */
const RING_TERMS = 24;
const TriggerRow = row({ trigger_kind: nstr });
const iso = (ms: number): string => new Date(ms).toISOString();

/** The query the session's working memory asks: its latest segments' index terms. */
async function ringQuery(rt: InjectRuntime, owner: string, sessionId: string, now: number): Promise<string> {
  const ring = await readRing(rt.driver, owner, sessionId, now, rt.config.session);
  const terms = new Set<string>();
  for (const segment of ring.reverse()) {
    for (const t of segment.terms) if (terms.size < RING_TERMS) terms.add(t);
    if (terms.size >= RING_TERMS) break;
  }
  return [...terms].join(' ');
}

/** What asked for the packet: the query, else the gate's latest firing trigger in the session. */
const PACKET_KINDS = RECALL_KINDS.filter((k) => k !== 'object');

async function triggerOf(rt: InjectRuntime, p: PacketBuildParams): Promise<string> {
  if (p.query !== undefined) return 'query';
  const last = await rt.driver.one(
    TriggerRow,
    `SELECT trigger_kind FROM inject_audit
      WHERE owner = ? AND session_id = ? AND kind = 'gate' AND action IN ('retrieve', 'prefetch')
      ORDER BY created_at DESC, context_cursor DESC LIMIT 1`,
    [p.owner, p.session_id],
  );
  return last?.trigger_kind ?? 'working_memory';
}

export async function buildPacket(
  rt: InjectRuntime,
  recall: RecallFn,
  p: PacketBuildParams,
): Promise<PacketBuildResult> {
  const { owner, session_id: sessionId } = p;
  const cfg = rt.config.packet;
  const shadow = p.shadow ?? rt.config.shadow;
  const started = rt.now();
  const query = p.query ?? (await ringQuery(rt, owner, sessionId, started));
  if (query.trim() === '') return { packet: null, reason: 'no_query', dropped: [] };
  // Superseded memories are asked for so that their drop has its reason; objects are not packet items
  // (their facts and events are).
  const search = RecallParamsSchema.parse({
    owner,
    query,
    limit: cfg.maxCandidates,
    kinds: PACKET_KINDS,
    include_superseded: true,
  });
  const answer = await recallWithin(rt, recall, { ...search, wait_ms: p.wait_ms });
  if (answer.status === 'pending') {
    return { packet: null, reason: 'pending', dropped: [], request_id: answer.request_id };
  }
  if (answer.items.length === 0) return { packet: null, reason: 'nothing_found', dropped: [] };
  const now = rt.now();
  const candidates = await readCandidates(rt.driver, owner, answer.items, now);
  const trigger = await triggerOf(rt, p);
  const retrievalVersion = await indexMark(rt.driver, owner);
  const budget = {
    candidates: cfg.maxCandidates,
    items: cfg.maxItems,
    bytes: p.budget_bytes ?? cfg.budgetBytes,
    tokens: p.budget_tokens ?? cfg.budgetTokens,
  };
  const packetId = newPacketId();
  const auditId = newAuditId();
  const expiresAt = now + cfg.ttlMs;
  return rt.driver.transaction(async (tx): Promise<PacketBuildResult> => {
    const session = await lockSession(tx, owner, sessionId, now);
    // The session's packets that expired undelivered are dropped (G-05: never marked delivered).
    await tx.run(
      `UPDATE packets SET status = 'dropped'
        WHERE owner = ? AND session_id = ? AND status = 'built' AND expires_at <= ?`,
      [owner, sessionId, now],
    );
    const seen = await deliveredDigests(tx, owner, sessionId, shadow);
    const sel = selectItems(candidates, { budget, seen, nearBits: cfg.nearBits });
    if (sel.items.length === 0) return { packet: null, reason: 'all_dropped', dropped: sel.dropped };
    const digests = packetDigests(sel.items);
    const sourceSeqs = [...new Set(sel.items.flatMap((i) => i.source_seqs))].sort((a, b) => a - b);
    await insertPacket(tx, {
      packetId,
      owner,
      sessionId,
      shadow,
      cursor: session.cursor,
      retrievalVersion,
      trigger,
      strength: sel.strength,
      exactDigest: digests.exact,
      semanticDigest: digests.semantic,
      items: sel.items,
      sourceSeqs,
      dropped: sel.dropped,
      bytes: sel.bytes,
      tokens: sel.tokens,
      createdAt: now,
      expiresAt,
    });
    const counts = Object.fromEntries(
      DROP_REASONS.map((r) => [`dropped_${r}`, sel.dropped.filter((d) => d.reason === r).length]),
    );
    await writeAudit(tx, auditId, {
      owner,
      sessionId,
      packetId,
      kind: 'packet',
      trigger,
      action: shadow ? 'shadow' : 'built',
      reason: sel.strength,
      score: sel.items[0]?.score ?? null,
      signals: {
        items: sel.items.length,
        candidates: candidates.length,
        quoted: sel.items.filter((i) => i.quoted).length,
        ask_user: sel.items.filter((i) => i.ask_user).length,
        budget_bytes: budget.bytes,
        budget_tokens: budget.tokens,
        shadow,
        ...counts,
      },
      sources: sel.items.map((i) => i.id),
      digest: digests.exact,
      cursor: session.cursor,
      bytes: sel.bytes,
      tokens: sel.tokens,
      requestId: null,
      at: now,
      expiresAt,
    });
    return {
      packet: {
        packet_id: packetId,
        schema_version: PACKET_SCHEMA_VERSION,
        session_id: sessionId,
        context_cursor: session.cursor,
        retrieval_version: retrievalVersion,
        trigger,
        strength: sel.strength,
        items: sel.items,
        text: sel.text,
        exact_digest: digests.exact,
        semantic_digest: digests.semantic,
        source_seqs: sourceSeqs,
        bytes: sel.bytes,
        tokens: sel.tokens,
        budget,
        shadow,
        created_at: iso(now),
        expires_at: iso(expiresAt),
        audit_id: auditId,
      },
      dropped: sel.dropped,
    };
  });
}
