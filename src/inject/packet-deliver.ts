// memory.packet.delivered: the host put the packet into a request. Built → delivered once, moving the
// session's delivered cursor by one; asked again, the same answer. An expired packet is dropped instead.
import { MemoryError } from '../errors.js';
import { int, row } from '../storage/rows.js';
import type { PacketDeliveredParamsSchema, PacketDeliveredResultSchema } from './packet-schema.js';
import { readPacketState } from './packet-store.js';
import type { InjectRuntime } from './runtime.js';
import { lockSession } from './sessions.js';
import type { z } from 'zod';

type Params = z.output<typeof PacketDeliveredParamsSchema>;
type Result = z.output<typeof PacketDeliveredResultSchema>;
type Outcome =
  | { kind: 'delivered'; result: Result }
  | { kind: 'missing' }
  | { kind: 'expired'; expiresAt: number }
  | { kind: 'shadow' };

const CursorRow = row({ delivered_cursor: int });
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * invariant: a packet is delivered at most once and the session's delivered cursor moves by exactly one for
 * it, however many processes call at once; an expired packet is dropped, never delivered (test:
 * src/inject/packet-deliver.test.ts "delivers once under concurrent calls…").
 */
export async function deliverPacket(rt: InjectRuntime, p: Params): Promise<Result> {
  const now = rt.now();
  const outcome = await rt.driver.transaction(async (tx): Promise<Outcome> => {
    const head = await readPacketState(tx, p.owner, p.packet_id);
    if (!head) return { kind: 'missing' };
    // The session's row orders its deliveries; the packet is read again once it is held.
    await lockSession(tx, p.owner, head.session_id, now);
    const pk = await readPacketState(tx, p.owner, p.packet_id);
    if (!pk) return { kind: 'missing' };
    const answer = (cursor: number, at: number): Outcome => ({
      kind: 'delivered',
      result: {
        packet_id: p.packet_id,
        session_id: pk.session_id,
        status: 'delivered',
        delivered_cursor: cursor,
        delivered_at: iso(at),
      },
    });
    if (pk.status === 'delivered') return answer(pk.delivered_seq ?? 0, pk.delivered_at ?? now);
    if (pk.shadow === 1) return { kind: 'shadow' };
    if (pk.status === 'dropped' || pk.expires_at <= now) {
      await tx.run(
        `UPDATE packets SET status = 'dropped' WHERE owner = ? AND packet_id = ? AND status = 'built'`,
        [p.owner, p.packet_id],
      );
      return { kind: 'expired', expiresAt: pk.expires_at };
    }
    const moved = await tx.one(
      CursorRow,
      `UPDATE inject_sessions SET delivered_cursor = delivered_cursor + 1 WHERE owner = ? AND session_id = ?
        RETURNING delivered_cursor`,
      [p.owner, pk.session_id],
    );
    if (!moved) throw new Error(`session ${pk.session_id} vanished inside its transaction`);
    await tx.run(
      `UPDATE packets SET status = 'delivered', delivered_at = ?, delivered_seq = ?
        WHERE owner = ? AND packet_id = ? AND status = 'built'`,
      [now, moved.delivered_cursor, p.owner, p.packet_id],
    );
    return answer(moved.delivered_cursor, now);
  });
  switch (outcome.kind) {
    case 'delivered':
      return outcome.result;
    case 'missing':
      throw new MemoryError('NOT_FOUND', `no packet ${p.packet_id}`, { packet_id: p.packet_id });
    case 'shadow':
      throw new MemoryError('INVALID_PARAMS', 'a shadow packet is never delivered', {
        packet_id: p.packet_id,
      });
    case 'expired':
      throw new MemoryError('PACKET_EXPIRED', `packet ${p.packet_id} expired before it was delivered`, {
        packet_id: p.packet_id,
        expired_at: iso(outcome.expiresAt),
      });
  }
}
