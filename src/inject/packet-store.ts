// The packets table: a packet's ids, digests and numbers (never memory text), its state (built → delivered
// once, or dropped when it expired first) and what the session was already given.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nint, row, str } from '../storage/rows.js';
import type { Dropped, PacketItem, Strength } from './packet-schema.js';
import type { SeenDigests } from './packet-select.js';

export const newPacketId = (): string => `pk_${randomBytes(9).toString('base64url')}`;

export interface PacketRecord {
  packetId: string;
  owner: string;
  sessionId: string;
  shadow: boolean;
  cursor: number;
  retrievalVersion: string;
  trigger: string;
  strength: Strength;
  exactDigest: string;
  semanticDigest: string;
  items: PacketItem[];
  sourceSeqs: number[];
  dropped: Dropped[];
  bytes: number;
  tokens: number;
  createdAt: number;
  expiresAt: number;
}

/**
 * What a stored item keeps. invariant: a packet row holds ids, digests and numbers, never memory text (test:
 * src/inject/packet.test.ts "answers a MemoryPacket…").
 */
const storedItem = (i: PacketItem) => ({
  id: i.id,
  kind: i.kind,
  quoted: i.quoted,
  ask_user: i.ask_user,
  score: i.score,
  source_seqs: i.source_seqs,
  exact_digest: i.exact_digest,
  semantic_digest: i.semantic_digest,
});

export async function insertPacket(tx: Queryable, p: PacketRecord): Promise<void> {
  await tx.run(
    `INSERT INTO packets (packet_id, owner, session_id, status, shadow, context_cursor, retrieval_version,
       trigger_kind, strength, exact_digest, semantic_digest, items, source_seqs, dropped, bytes, tokens,
       created_at, expires_at)
     VALUES (?, ?, ?, 'built', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      p.packetId,
      p.owner,
      p.sessionId,
      Number(p.shadow),
      p.cursor,
      p.retrievalVersion,
      p.trigger,
      p.strength,
      p.exactDigest,
      p.semanticDigest,
      JSON.stringify(p.items.map(storedItem)),
      JSON.stringify(p.sourceSeqs),
      JSON.stringify(p.dropped),
      p.bytes,
      p.tokens,
      p.createdAt,
      p.expiresAt,
    ],
  );
}

const ItemsRow = row({ items: str });
const Digests = z.array(z.object({ exact_digest: z.string(), semantic_digest: z.string() }));

/**
 * The digests of every item the session's delivered packets held; in shadow mode also its shadow packets'
 * (what would have been delivered), so a replay counts the duplicates a live session would drop. Only
 * since the session began: an ended session's id starts afresh.
 */
export async function deliveredDigests(
  tx: Queryable,
  owner: string,
  sessionId: string,
  shadow: boolean,
): Promise<SeenDigests> {
  const rows = await tx.all(
    ItemsRow,
    `SELECT items FROM packets p WHERE p.owner = ? AND p.session_id = ?
        AND (p.status = 'delivered' OR (p.shadow = 1 AND ? = 1))
        AND p.created_at >= (SELECT s.created_at FROM inject_sessions s WHERE s.owner = p.owner AND s.session_id = p.session_id)`,
    [owner, sessionId, Number(shadow)],
  );
  const items = rows.flatMap((r) => Digests.parse(JSON.parse(r.items)));
  return { exact: new Set(items.map((i) => i.exact_digest)), semantic: items.map((i) => i.semantic_digest) };
}

export const PacketStateRow = row({
  session_id: str,
  status: z.enum(['built', 'delivered', 'dropped']),
  shadow: int,
  expires_at: int,
  delivered_at: nint,
  delivered_seq: nint,
});

export const readPacketState = (db: Queryable, owner: string, packetId: string) =>
  db.one(
    PacketStateRow,
    `SELECT session_id, status, shadow, expires_at, delivered_at, delivered_seq FROM packets
      WHERE owner = ? AND packet_id = ?`,
    [owner, packetId],
  );
