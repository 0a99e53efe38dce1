// The shadow replay (seed G-04: shadow retrieval first): a recorded multi-session log replayed in time order
// through the public methods. Before each segment the host would act on, memory.gate decides; on `retrieve`
// memory.packet.build makes a shadow packet (stored and audited, never deliverable); then the event is
// ingested. Nothing is injected. The report counts triggers by reason, packet bytes and tokens per turn,
// drops by reason, and checks that audit records and packets match one to one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryPacket, PacketBuildResult } from '../src/inject/packet-schema.js';
import type { AuditRecord, GateResult } from '../src/inject/schema.js';
import { createLocalClient } from '../src/local-client.js';
import { createMethodTable } from '../src/protocol/methods.js';
import { openMemory } from '../src/service.js';

export interface LogEvent {
  event_id: string;
  session_id: string;
  kind: string;
  role: string;
  at: number;
  text: string;
}

export interface Stats {
  p50: number;
  p95: number;
  max: number;
}

export interface ShadowReport {
  name: string;
  events: number;
  sessions: number;
  /** Segments the gate saw (what a host acts on: user messages, tool results, task events). */
  turns: number;
  actions: Record<string, number>;
  /** Gate reasons (above_threshold, warm, cooldown, …) and, for retrieve and prefetch, the trigger. */
  reasons: Record<string, number>;
  triggers: Record<string, number>;
  packets: number;
  noPacket: Record<string, number>;
  perTurn: { bytes: Stats; tokens: Stats };
  perPacket: { bytes: Stats; tokens: Stats };
  dropped: Record<string, number>;
  /** Items kept quoted as data, and high-risk procedures turned into questions. */
  quoted: number;
  askUser: number;
  audit: { packetRecords: number; matched: number; oneToOne: boolean; mismatches: string[] };
  /** A shadow packet offered for delivery is refused (nothing can be injected). */
  deliveryRefused: boolean | null;
  ms: number;
}

/** The segments a host acts on; agent replies and scheduled runs are not gated. */
const GATED = new Set([
  'user_message',
  'tool_result',
  'task_started',
  'task_failed',
  'task_blocked',
  'needs_input',
]);
const OWNER = 'shadow';
/** Audit records one query returns at most: a session with more could not be checked whole. */
const AUDIT_LIMIT = 200;

const bump = (m: Record<string, number>, key: string, by = 1) => void (m[key] = (m[key] ?? 0) + by);

export function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0 };
}

/** Where a packet and its audit record disagree (ids, digests and numbers), if anywhere. */
function mismatch(packet: MemoryPacket, records: readonly AuditRecord[]): string | null {
  if (records.length !== 1) return `${packet.packet_id}: ${records.length} audit records`;
  const [r] = records;
  const same =
    r?.kind === 'packet' &&
    r.audit_id === packet.audit_id &&
    r.session_id === packet.session_id &&
    r.digest === packet.exact_digest &&
    r.bytes === packet.bytes &&
    r.tokens === packet.tokens &&
    r.cursor === packet.context_cursor &&
    r.trigger === packet.trigger &&
    r.action === 'shadow' &&
    r.expires_at === packet.expires_at &&
    JSON.stringify(r.sources) === JSON.stringify(packet.items.map((i) => i.id));
  return same ? null : `${packet.packet_id}: the audit record differs`;
}

export async function replayShadow(name: string, log: readonly LogEvent[]): Promise<ShadowReport> {
  const started = performance.now();
  const events = [...log].sort((a, b) => a.at - b.at);
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-shadow-'));
  let now = events[0]?.at ?? 0;
  const service = await openMemory({ config: { dataDir: dir, redactEmails: true }, now: () => now });
  const client = createLocalClient(createMethodTable(service));
  const report: ShadowReport = {
    name,
    events: events.length,
    sessions: new Set(events.map((e) => e.session_id)).size,
    turns: 0,
    actions: {},
    reasons: {},
    triggers: {},
    packets: 0,
    noPacket: {},
    perTurn: { bytes: stats([]), tokens: stats([]) },
    perPacket: { bytes: stats([]), tokens: stats([]) },
    dropped: {},
    quoted: 0,
    askUser: 0,
    audit: { packetRecords: 0, matched: 0, oneToOne: false, mismatches: [] },
    deliveryRefused: null,
    ms: 0,
  };
  const built: MemoryPacket[] = [];
  const turnBytes: number[] = [];
  const turnTokens: number[] = [];
  try {
    for (const e of events) {
      now = e.at;
      if (GATED.has(e.kind)) {
        report.turns++;
        const gate = await client.call<GateResult>('memory.gate', {
          owner: OWNER,
          session_id: e.session_id,
          segment: { kind: e.kind, text: e.text, ...(e.kind === 'task_failed' ? { ok: false } : {}) },
        });
        bump(report.actions, gate.action);
        bump(report.reasons, gate.reason);
        if (gate.action !== 'suppress' && gate.trigger)
          bump(report.triggers, `${gate.action}:${gate.trigger}`);
        let packet: MemoryPacket | null = null;
        if (gate.action === 'retrieve') {
          const out = await client.call<PacketBuildResult>('memory.packet.build', {
            owner: OWNER,
            session_id: e.session_id,
            shadow: true,
            wait_ms: 60_000,
          });
          for (const d of out.dropped) bump(report.dropped, d.reason);
          if (out.packet) built.push(out.packet);
          else bump(report.noPacket, out.reason ?? 'unknown');
          packet = out.packet;
        }
        turnBytes.push(packet?.bytes ?? 0);
        turnTokens.push(packet?.tokens ?? 0);
      }
      await client.call('memory.events.ingest', { owner: OWNER, events: [e] });
    }
    report.packets = built.length;
    report.perTurn = { bytes: stats(turnBytes), tokens: stats(turnTokens) };
    report.perPacket = { bytes: stats(built.map((p) => p.bytes)), tokens: stats(built.map((p) => p.tokens)) };
    report.quoted = built.reduce((n, p) => n + p.items.filter((i) => i.quoted && !i.ask_user).length, 0);
    report.askUser = built.reduce((n, p) => n + p.items.filter((i) => i.ask_user).length, 0);
    report.audit = await checkAudit(client, built, [...new Set(events.map((e) => e.session_id))]);
    const first = built[0];
    if (first) {
      report.deliveryRefused = await client
        .call('memory.packet.delivered', { owner: OWNER, packet_id: first.packet_id })
        .then(
          () => false,
          () => true,
        );
    }
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

type Client = ReturnType<typeof createLocalClient>;

/** Every packet has exactly its one record, and every packet record of every session is a built packet. */
async function checkAudit(client: Client, built: readonly MemoryPacket[], sessions: readonly string[]) {
  const mismatches: string[] = [];
  let matched = 0;
  for (const packet of built) {
    const { items } = await client.call<{ items: AuditRecord[] }>('memory.audit.query', {
      owner: OWNER,
      packet_id: packet.packet_id,
    });
    const wrong = mismatch(packet, items);
    if (wrong) mismatches.push(wrong);
    else matched++;
  }
  const ids = new Set(built.map((p) => p.packet_id));
  let packetRecords = 0;
  for (const session of sessions) {
    const { items } = await client.call<{ items: AuditRecord[] }>('memory.audit.query', {
      owner: OWNER,
      session_id: session,
      limit: AUDIT_LIMIT,
    });
    if (items.length >= AUDIT_LIMIT)
      mismatches.push(`${session}: ${AUDIT_LIMIT}+ records, not checked whole`);
    for (const r of items.filter((i) => i.kind === 'packet')) {
      packetRecords++;
      if (!r.packet_id || !ids.has(r.packet_id)) mismatches.push(`${r.audit_id}: no such packet`);
    }
  }
  const oneToOne = mismatches.length === 0 && matched === built.length && packetRecords === built.length;
  return { packetRecords, matched, oneToOne, mismatches: mismatches.slice(0, 10) };
}
