// The inject stage's methods: memory.recall within its wait budget, requests, sessions, the gate, packets
// (build, delivered, feedback), the inbox, attention and the audit.
import { MemoryError } from '../errors.js';
import type { Handlers } from '../protocol/catalog.js';
import { listAttention } from './attention.js';
import { queryAudit } from './audit.js';
import { recordFeedback } from './feedback.js';
import { runGate } from './gate.js';
import { buildPacket } from './packet.js';
import { deliverPacket } from './packet-deliver.js';
import { claimItems, putItem } from './inbox.js';
import { recallWithin } from './recall-wait.js';
import { failAbandoned, getRequest, resultOf } from './requests.js';
import type { InjectRuntime, RecallFn } from './runtime.js';
import { endSession } from './sessions.js';

export type InjectMethod =
  | 'memory.recall'
  | 'memory.requests.get'
  | 'memory.session.end'
  | 'memory.gate'
  | 'memory.packet.build'
  | 'memory.packet.delivered'
  | 'memory.packet.feedback'
  | 'memory.inbox.inject'
  | 'memory.inbox.steer'
  | 'memory.inbox.claim'
  | 'memory.attention.list'
  | 'memory.audit.query';

const iso = (ms: number): string => new Date(ms).toISOString();

export function injectHandlers(rt: InjectRuntime, recall: RecallFn): Handlers<InjectMethod> {
  const db = rt.driver;
  return {
    'memory.recall': (p) => recallWithin(rt, recall, p),
    'memory.requests.get': async (p) => {
      // A request left pending past its run limit by a stopped process is failed when it is read.
      await failAbandoned(db, rt.now(), p.owner);
      const r = await getRequest(db, p.owner, p.request_id);
      if (!r) throw new MemoryError('NOT_FOUND', `no request ${p.request_id}`, { request_id: p.request_id });
      return {
        request_id: r.request_id,
        status: r.status,
        purpose: r.purpose,
        session_id: r.session_id,
        interaction_seq: r.interaction_seq,
        created_at: iso(r.created_at),
        expires_at: iso(r.expires_at),
        finished_at: r.finished_at === null ? null : iso(r.finished_at),
        ...resultOf(r),
      };
    },
    'memory.session.end': async (p) => {
      const out = await db.transaction((tx) => endSession(tx, p.owner, p.session_id));
      return {
        session_id: p.session_id,
        ended: out.ended,
        removed: { segments: out.segments, inbox_items: out.inboxItems },
      };
    },
    'memory.gate': (p) => runGate(rt, recall, p),
    'memory.packet.build': (p) => buildPacket(rt, recall, p),
    'memory.packet.delivered': (p) => deliverPacket(rt, p),
    'memory.packet.feedback': (p) =>
      db.transaction((tx) =>
        recordFeedback(tx, {
          owner: p.owner,
          packetId: p.packet_id,
          outcome: p.outcome,
          sessionId: p.session_id ?? null,
          trigger: p.trigger ?? null,
          at: rt.now(),
        }),
      ),
    'memory.inbox.inject': (p) => putItem(rt, p, false),
    'memory.inbox.steer': (p) => putItem(rt, p, true),
    'memory.inbox.claim': (p) => claimItems(rt, p),
    'memory.attention.list': (p, ctx) => listAttention(db, ctx.principal, p),
    'memory.audit.query': async (p) => ({ items: await queryAudit(db, p) }),
  };
}
