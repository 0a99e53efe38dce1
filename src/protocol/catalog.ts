// THE method catalog: every method's name, metadata, params and result schema, declared once. Clients,
// the CLI and tests take their types from here; methods.ts binds the handlers.
import { z } from 'zod';
import {
  IngestParamsSchema,
  IngestResultSchema,
  TimelineAppendParamsSchema,
  TimelineAppendResultSchema,
} from '../ingest/schema.js';
import {
  FactsHistoryParamsSchema,
  FactsHistoryResultSchema,
  FactsResolveParamsSchema,
  FactsResolveResultSchema,
  RevokeParamsSchema,
  RevokeResultSchema,
  TickParamsSchema,
  TickResultSchema,
} from '../knowledge/facts-schema.js';
import {
  ChainBrowseParamsSchema,
  ChainBrowseResultSchema,
  ChainFindParamsSchema,
  ChainFindResultSchema,
  ChainNodeParamsSchema,
  ChainNodeResultSchema,
  ChainReadParamsSchema,
  ChainReadResultSchema,
  ChainUpsertParamsSchema,
  ChainUpsertResultSchema,
  ProjectDecisionParamsSchema,
  ProjectDecisionResultSchema,
} from '../knowledge/chain-schema.js';
import { ForgetParamsSchema, ForgetResultSchema } from '../knowledge/forget-schema.js';
import {
  SkillFollowParamsSchema,
  SkillFollowResultSchema,
  SkillGetParamsSchema,
  SkillGetResultSchema,
  SkillListParamsSchema,
  SkillListResultSchema,
  SkillSetStatusParamsSchema,
  SkillSetStatusResultSchema,
} from '../knowledge/skills-schema.js';
import {
  SuggestionsDecideParamsSchema,
  SuggestionsDecideResultSchema,
  SuggestionsListParamsSchema,
  SuggestionsListResultSchema,
  SuggestParamsSchema,
  SuggestResultSchema,
} from '../knowledge/suggestions-schema.js';
import {
  TodoAddParamsSchema,
  TodoAddResultSchema,
  TodoListParamsSchema,
  TodoListResultSchema,
  TodoUpdateParamsSchema,
  TodoUpdateResultSchema,
  TodoViewParamsSchema,
  TodoViewResultSchema,
} from '../knowledge/todos-schema.js';
import {
  TrackAddParamsSchema,
  TrackAddResultSchema,
  TrackArchiveParamsSchema,
  TrackArchiveResultSchema,
  TrackExpandParamsSchema,
  TrackExpandResultSchema,
  TrackListParamsSchema,
  TrackListResultSchema,
} from '../knowledge/tracks-schema.js';
import {
  ClaimParamsSchema,
  ClaimResultSchema,
  CommitParamsSchema,
  CommitResultSchema,
  FailParamsSchema,
  FailResultSchema,
  StatusParamsSchema,
  StatusResultSchema,
} from '../observe/schema.js';
import { ORGANIZE_METHODS } from '../organize/specs.js';
import { EvidenceParamsSchema, EvidenceResultSchema, RecallParamsSchema } from '../recall/schema.js';
import { TimelineAroundParamsSchema, TimelineAroundResultSchema } from '../recall/around.js';
import {
  TimelineQueryParamsSchema,
  TimelineQueryResultSchema,
  TimelineReadParamsSchema,
  TimelineReadResultSchema,
} from '../recall/timeline.js';
import { SafetyCheckParamsSchema, SafetyCheckResultSchema } from '../inject/safety-schema.js';
import {
  PacketBuildParamsSchema,
  PacketBuildResultSchema,
  PacketDeliveredParamsSchema,
  PacketDeliveredResultSchema,
} from '../inject/packet-schema.js';
import { INSPECTOR_METHODS } from '../inspector/specs.js';
import {
  ContextFitParamsSchema,
  ContextFitResultSchema,
  SnapshotParamsSchema,
  SnapshotResultSchema,
} from '../inject/snapshot-schema.js';
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
  RECALL_WAIT_SHAPE,
  RecallAnswerSchema,
  RequestGetParamsSchema,
  RequestGetResultSchema,
  SessionEndParamsSchema,
  SessionEndResultSchema,
} from '../inject/schema.js';
import {
  TokenCreateParamsSchema,
  TokenCreateResultSchema,
  TokenListParamsSchema,
  TokenListResultSchema,
  TokenRevokeParamsSchema,
  TokenRevokeResultSchema,
} from '../tokens/schema.js';
import { spec, type Handler, type MethodDef, type MethodSpec, type MethodTable } from './method.js';
import { assertOwner } from './principal.js';

export const HealthResultSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  schema_version: z.number().int(),
  /** Only for principals allowed all owners: a scoped caller learns nothing of the others. */
  counts: z.object({ events: z.number().int(), owners: z.number().int() }).optional(),
  data_dir: z.string().optional(),
  /** Worker threads that prepare large ingest calls (0: the main thread does). */
  ingest_workers: z.number().int().optional(),
  /** Ingest calls prepared on the worker threads and on the main thread since the server started. */
  ingest_calls: z.object({ pooled: z.number().int(), inline: z.number().int() }).optional(),
  /** The snapshots this process rendered, per owner the caller may act for: the last 50 renders' bytes. */
  snapshots: z
    .array(
      z.object({
        owner: z.string(),
        samples: z.number().int(),
        last_total_bytes: z.number().int(),
        median_total_bytes: z.number().int(),
        max_total_bytes: z.number().int(),
        sections: z.record(
          z.string(),
          z.object({ median_bytes: z.number().int(), max_bytes: z.number().int() }),
        ),
      }),
    )
    .optional(),
  /** Only with an embedding provider configured. */
  embedding: z
    .object({
      model: z.string(),
      dimensions: z.number().int().nullable(),
      embedded: z.number().int(),
      pending: z.number().int(),
      failures: z.number().int(),
      last_error: z.string().nullable(),
    })
    .optional(),
});

export const METHODS = {
  health: spec({
    summary: 'Version, schema version and counts.',
    params: z.object({}).loose(),
    result: HealthResultSchema,
    access: 'read',
    owner: 'none',
    mcp: 'status',
  }),
  'memory.events.ingest': spec({
    summary: 'Store up to 1,000 events for one owner; valid events are kept even when others are rejected.',
    params: IngestParamsSchema,
    result: IngestResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.recall': spec({
    summary:
      'Find memory by words, ids, time or task; channels fused by reciprocal rank fusion. Waits at most ' +
      'wait_ms (75 ms): what is not done by then answers {status: "pending", request_id}.',
    params: RecallParamsSchema.extend(RECALL_WAIT_SHAPE),
    result: RecallAnswerSchema,
    access: 'read',
    owner: 'param',
    mcp: 'recall',
  }),
  'memory.evidence.get': spec({
    summary: 'The stored (redacted) events behind source refs.',
    params: EvidenceParamsSchema,
    result: EvidenceResultSchema,
    access: 'read',
    owner: 'param',
    mcp: 'get',
  }),
  ...ORGANIZE_METHODS,
  'timeline.append': spec({
    summary: 'Append one event (seed semantics: at defaults to now; a repeated id never overwrites).',
    params: TimelineAppendParamsSchema,
    result: TimelineAppendResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'timeline.query': spec({
    summary: 'Index heads (≤ 50, ≤ 1,200 chars) by words, time and task; without a query, pages by sequence.',
    params: TimelineQueryParamsSchema,
    result: TimelineQueryResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'timeline.around': spec({
    summary: 'Index heads before and after one event (id) or a point in time (at), in time order.',
    params: TimelineAroundParamsSchema,
    result: TimelineAroundResultSchema,
    access: 'read',
    owner: 'param',
    mcp: 'timeline',
  }),
  'timeline.read': spec({
    summary: 'A range of one event text: {id, offset, limit} → text and next_offset.',
    params: TimelineReadParamsSchema,
    result: TimelineReadResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'timeline.expand': spec({
    summary: 'Alias of timeline.read.',
    params: TimelineReadParamsSchema,
    result: TimelineReadResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.safety.check': spec({
    summary: 'Score a text (≤ 32,000 chars) for prompt injection: allow, quote (as marked data) or suppress.',
    params: SafetyCheckParamsSchema,
    result: SafetyCheckResultSchema,
    access: 'read',
    owner: 'none',
  }),
  'memory.observation.claim': spec({
    summary:
      'Lease the next ready observation batch (default 120 s) with a fresh token, or {batch_id: null}.',
    params: ClaimParamsSchema,
    result: ClaimResultSchema,
    access: 'background',
    owner: 'optional',
  }),
  'memory.observation.commit': spec({
    summary: 'Validate a proposal and publish it atomically; a retried commit returns the first receipt.',
    params: CommitParamsSchema,
    result: CommitResultSchema,
    access: 'background',
    owner: 'resource',
  }),
  'memory.observation.fail': spec({
    summary: 'Give a leased batch back as failed; it is retried with backoff and its failures are kept.',
    params: FailParamsSchema,
    result: FailResultSchema,
    access: 'background',
    owner: 'resource',
  }),
  'memory.observation.status': spec({
    summary: 'Observation queues, leases, failing batches with their last five failures, token usage.',
    params: StatusParamsSchema,
    result: StatusResultSchema,
    access: 'read',
    owner: 'optional',
  }),
  'memory.facts.history': spec({
    summary: 'The versions of a fact (subject, predicate) in time order, with status, validity and sources.',
    params: FactsHistoryParamsSchema,
    result: FactsHistoryResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.facts.resolve': spec({
    summary: 'Resolve a conflict set: the kept fact becomes current, the others superseded.',
    params: FactsResolveParamsSchema,
    result: FactsResolveResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.revoke': spec({
    summary:
      'Revoke a memory or an object with a reason: it never reaches recall again (memory.forget deletes).',
    params: RevokeParamsSchema,
    result: RevokeResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.forget': spec({
    summary:
      'Delete memories or objects for real (rows, index, vectors, cached answers); with_events also their ' +
      'source events and everything left without a source.',
    params: ForgetParamsSchema,
    result: ForgetResultSchema,
    access: 'write',
    owner: 'param',
    mcp: 'forget',
    destructive: true,
  }),
  'memory.tick': spec({
    summary: 'Periodic upkeep: retire candidate facts unconfirmed for three workdays.',
    params: TickParamsSchema,
    result: TickResultSchema,
    access: 'background',
    owner: 'optional',
  }),
  'memory.chain.upsert': spec({
    summary:
      'Create or update objects (aliases, body, status) and relations, citing source events; duplicates merge.',
    params: ChainUpsertParamsSchema,
    result: ChainUpsertResultSchema,
    access: 'write',
    owner: 'param',
    mcp: 'link',
  }),
  'memory.chain.find': spec({
    summary: 'Objects by name, alias or cue: an exact name or alias first, then mentions, then BM25.',
    params: ChainFindParamsSchema,
    result: ChainFindResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.chain.read': spec({
    summary: 'An object with its aliases, relations and sources, expanded up to depth 2 (50 objects a page).',
    params: ChainReadParamsSchema,
    result: ChainReadResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.chain.node': spec({
    summary: 'The raw evidence of a source event: its text from offset, and what cites it.',
    params: ChainNodeParamsSchema,
    result: ChainNodeResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.chain.browse': spec({
    summary: 'Every object by stable id, archived included, a page at a time.',
    params: ChainBrowseParamsSchema,
    result: ChainBrowseResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.chain.project_decision': spec({
    summary: 'Confirm (active) or reject (archived) a project with a quote verbatim in a user event.',
    params: ProjectDecisionParamsSchema,
    result: ProjectDecisionResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.skill.list': spec({
    summary: 'Procedures with their stage, risk, confidence and how many sessions vouch for them.',
    params: SkillListParamsSchema,
    result: SkillListResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.skill.get': spec({
    summary:
      'A procedure as a checklist to compare with the situation (never instructions), with its evidence.',
    params: SkillGetParamsSchema,
    result: SkillGetResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.skill.set_status': spec({
    summary:
      'Activate or deprecate a procedure; a high-risk, draft or unvalidated one needs a user event approving it.',
    params: SkillSetStatusParamsSchema,
    result: SkillSetStatusResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.skill.follow': spec({
    summary: "A session follows a procedure: that session's later tool and task results raise or lower it.",
    params: SkillFollowParamsSchema,
    result: SkillFollowResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.track.add': spec({
    summary: 'Write an entry into a track (memory, user, project, daily); the same text again adds nothing.',
    params: TrackAddParamsSchema,
    result: TrackAddResultSchema,
    access: 'write',
    owner: 'param',
    mcp: 'remember',
  }),
  'memory.track.list': spec({
    summary: "A track's entries, newest first, a page at a time; archived ones with include_archived.",
    params: TrackListParamsSchema,
    result: TrackListResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.track.expand': spec({
    summary: 'One track entry in full, with the events it cites.',
    params: TrackExpandParamsSchema,
    result: TrackExpandResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.track.archive': spec({
    summary:
      "Move a track's oldest entries beyond its budget out of it (never dropped); a dry run by default.",
    params: TrackArchiveParamsSchema,
    result: TrackArchiveResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.todo.add': spec({
    summary: 'Add a todo to a track (life, work, project, daily); an open one of the same title is answered.',
    params: TodoAddParamsSchema,
    result: TodoAddResultSchema,
    access: 'write',
    owner: 'param',
    mcp: 'todo',
  }),
  'memory.todo.update': spec({
    summary: "Change a todo's status (open, done, dropped), title or due: a new revision.",
    params: TodoUpdateParamsSchema,
    result: TodoUpdateResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.todo.list': spec({
    summary: 'Todos by track and status, overdue first, then due soonest, then most recently touched.',
    params: TodoListParamsSchema,
    result: TodoListResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.todo.view': spec({
    summary:
      'The smart view: at most 8 open todos, overdue first, then due soonest, then most recently touched.',
    params: TodoViewParamsSchema,
    result: TodoViewResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.suggest': spec({
    summary: 'Propose a track entry for a person to approve (the only way into the key track).',
    params: SuggestParamsSchema,
    result: SuggestResultSchema,
    access: 'write',
    owner: 'param',
    mcp: 'suggest',
  }),
  'memory.suggestions.list': spec({
    summary: 'Suggestions, newest first, by status (pending, approved, rejected) and track.',
    params: SuggestionsListParamsSchema,
    result: SuggestionsListResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.suggestions.decide': spec({
    summary: 'Approve (publish into its track, the approver recorded) or reject a suggestion, once.',
    params: SuggestionsDecideParamsSchema,
    result: SuggestionsDecideResultSchema,
    access: 'write',
    owner: 'param',
  }),
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
  'tokens.create': spec({
    summary:
      'Create a tenant token for owner patterns (exact or prefix/*); the token is in this answer only.',
    params: TokenCreateParamsSchema,
    result: TokenCreateResultSchema,
    access: 'write',
    owner: 'none',
    callers: 'all',
  }),
  'tokens.list': spec({
    summary: 'Every tenant token: id, name, owner patterns, created, revoked, last used (never the token).',
    params: TokenListParamsSchema,
    result: TokenListResultSchema,
    access: 'read',
    owner: 'none',
    callers: 'all',
  }),
  'tokens.revoke': spec({
    summary: 'Revoke a tenant token by id: every process on the database refuses it from the next request.',
    params: TokenRevokeParamsSchema,
    result: TokenRevokeResultSchema,
    access: 'write',
    owner: 'none',
    callers: 'all',
  }),
  ...INSPECTOR_METHODS,
} as const satisfies Record<string, MethodSpec>;

export type Methods = typeof METHODS;
export type MethodName = keyof Methods;
/** What a caller sends (defaults may be left out). */
export type MethodParams<M extends MethodName> = z.input<Methods[M]['params']>;
/** What a caller gets back. */
export type MethodResult<M extends MethodName> = z.output<Methods[M]['result']>;

export type Handlers<N extends MethodName> = { [K in N]: Handler<Methods[K]> };

/**
 * invariant: a method for every-owner callers (token administration) refuses any other principal, as a call
 * without an owner does (test: test/tenant-tokens.test.ts "every method: FORBIDDEN for other owners…").
 */
const allOwnersOnly =
  (handler: MethodDef['handler']): MethodDef['handler'] =>
  (params, ctx) => {
    assertOwner(ctx.principal, undefined);
    return handler(params, ctx);
  };

/** The table of every method with its handler; a method without a handler does not compile. */
export function bindMethods(handlers: Handlers<MethodName>): MethodTable {
  const table = new Map<string, MethodDef>();
  for (const name of Object.keys(METHODS) as MethodName[]) {
    const def = METHODS[name] as MethodSpec;
    const handler = handlers[name] as MethodDef['handler'];
    table.set(name, { ...def, name, handler: def.callers === 'all' ? allOwnersOnly(handler) : handler });
  }
  return table;
}
