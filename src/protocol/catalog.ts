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
import { INSPECTOR_METHODS } from '../inspector/specs.js';
import { INJECT_METHODS } from '../inject/specs.js';
import { TRACK_METHODS } from '../knowledge/specs.js';
import { RECALL_WAIT_SHAPE, RecallAnswerSchema } from '../inject/schema.js';
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
  ...TRACK_METHODS,
  ...INJECT_METHODS,
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
