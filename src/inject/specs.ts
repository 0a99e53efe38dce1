// The proactive-memory methods (requests, sessions, gate, packets, inbox, attention, audit, snapshot, context
// fit) as the catalog declares them (spread into protocol/catalog.ts).
import { spec } from '../protocol/method.js';
import {
  PacketBuildParamsSchema,
  PacketBuildResultSchema,
  PacketDeliveredParamsSchema,
  PacketDeliveredResultSchema,
} from './packet-schema.js';
import {
  AttentionParamsSchema,
  AttentionResultSchema,
  AuditQueryParamsSchema,
  AuditQueryResultSchema,
  FeedbackParamsSchema,
  FeedbackResultSchema,
  GateParamsSchema,
  GateResultSchema,
  InboxClaimParamsSchema,
  InboxClaimResultSchema,
  InboxPutParamsSchema,
  InboxPutResultSchema,
  RequestGetParamsSchema,
  RequestGetResultSchema,
  SessionEndParamsSchema,
  SessionEndResultSchema,
} from './schema.js';
import {
  ContextFitParamsSchema,
  ContextFitResultSchema,
  SnapshotParamsSchema,
  SnapshotResultSchema,
} from './snapshot-schema.js';

export const INJECT_METHODS = {
  'memory.requests.get': spec({
    summary: 'A recall request that went pending: pending, ready (with its answer), stale or failed.',
    params: RequestGetParamsSchema,
    result: RequestGetResultSchema,
    access: 'read',
    owner: 'param',
    http: { method: 'GET', path: '/v2/memory/requests/:request_id' },
  }),
  'memory.session.end': spec({
    summary: 'End a session: its working memory, cooldowns and inbox are removed.',
    params: SessionEndParamsSchema,
    result: SessionEndResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.gate': spec({
    summary:
      'Whether a segment is worth a retrieval now: retrieve, prefetch (a background recall) or suppress, with ' +
      'the reason and signals; the segment joins the session’s working memory.',
    params: GateParamsSchema,
    result: GateResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.packet.build': spec({
    summary:
      'A memory packet for the session’s next request: recalled items ranked, deduplicated, within byte and ' +
      'token budgets, safety-gated (quoted data, ask-the-user checklists), or null with the reason.',
    params: PacketBuildParamsSchema,
    result: PacketBuildResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.packet.delivered': spec({
    summary:
      'The packet went into a request: the session’s delivered cursor moves once; an expired packet is dropped.',
    params: PacketDeliveredParamsSchema,
    result: PacketDeliveredResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.packet.feedback': spec({
    summary: 'What became of a packet: used, ignored or harmful; the gate suppresses triggers users ignore.',
    params: FeedbackParamsSchema,
    result: FeedbackResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.inbox.inject': spec({
    summary: 'Queue an item for the session’s next step without waking it (redacted, safety-scored).',
    params: InboxPutParamsSchema,
    result: InboxPutResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.inbox.steer': spec({
    summary: 'Queue an item and wake the session: only items from the user or the system.',
    params: InboxPutParamsSchema,
    result: InboxPutResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.inbox.claim': spec({
    summary:
      'Take everything waiting in the session’s inbox, in order, exactly once: late recall answers, notices ' +
      'and messages for the next step. Call it at each step boundary, before you build the next request.',
    params: InboxClaimParamsSchema,
    result: InboxClaimResultSchema,
    access: 'write',
    owner: 'param',
    mcp: 'inbox',
  }),
  'memory.attention.list': spec({
    summary: 'What waits unclaimed in the inboxes of the caller’s owners (or one named owner).',
    params: AttentionParamsSchema,
    result: AttentionResultSchema,
    access: 'read',
    // Reads the principal's own owners: every owner its patterns allow, or one named owner it allows.
    owner: 'none',
    http: { method: 'GET', path: '/v2/attention' },
  }),
  'memory.audit.query': spec({
    summary: 'Why, what, source, cost and expiry of each gate decision and packet (ids and digests only).',
    params: AuditQueryParamsSchema,
    result: AuditQueryResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.snapshot': spec({
    summary:
      'The bounded snapshot for a system prompt: USER, MEMORY, KEY (the cwd’s project), Project Context, ' +
      'Recent Daily within fixed caps, byte-identical for the same state; the write guard’s notice.',
    params: SnapshotParamsSchema,
    result: SnapshotResultSchema,
    // Written: the session's write-guard counter; and ordered after the connection's earlier ingest.
    access: 'write',
    owner: 'param',
  }),
  'memory.context.fit': spec({
    summary:
      'Cut a prompt to a context budget (32,000 bytes): the request and live state whole (or ' +
      'REQUEST_TOO_LONG), logs, history and memory cut apart with omission markers.',
    params: ContextFitParamsSchema,
    result: ContextFitResultSchema,
    access: 'read',
    owner: 'none',
  }),
} as const;
