// The organize and chain methods as the catalog declares them (spread into protocol/catalog.ts).
import { spec } from '../protocol/method.js';
import {
  ChainStatusResultSchema,
  ContextParamsSchema,
  ContextResultSchema,
  CoreBootstrapParamsSchema,
  CoreBootstrapResultSchema,
  CoreGetParamsSchema,
  CoreGetResultSchema,
  CoreUpdateParamsSchema,
  CoreUpdateResultSchema,
  InspectResultSchema,
  NodeParamsSchema,
  NodeResultSchema,
  StatusParamsSchema,
} from './schema-chain.js';
import {
  ClaimParamsSchema,
  ClaimResultSchema,
  CommitParamsSchema,
  CommitResultSchema,
  FailParamsSchema,
  FailResultSchema,
  InspectParamsSchema,
  NoticesParamsSchema,
  NoticesResultSchema,
  RequestParamsSchema,
  RequestResultSchema,
  TickParamsSchema,
  TickResultSchema,
} from './schema-jobs.js';

export const ORGANIZE_METHODS = {
  'memory.chain.context': spec({
    summary: 'Core documents and the most recent timeline nodes and events within max_tokens and max_bytes.',
    params: ContextParamsSchema,
    result: ContextResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.chain.expand': spec({
    summary: 'A timeline node and what it covers: its events (level 1) or the nodes below it.',
    params: NodeParamsSchema,
    result: NodeResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.chain.status': spec({
    summary:
      'Timeline sizes, the organize queue with retries and last five failures, capacity, core conflicts.',
    params: StatusParamsSchema,
    result: ChainStatusResultSchema,
    access: 'read',
    owner: 'optional',
  }),
  'memory.chain.tick': spec({
    summary: 'Check the organize triggers now (threshold, hourly, nightly); answers the jobs queued.',
    params: TickParamsSchema,
    result: TickResultSchema,
    access: 'background',
    owner: 'optional',
  }),
  'memory.chain.core.bootstrap': spec({
    summary: 'First import of the core documents SOUL, USER, AGENTS; later calls change nothing and say so.',
    params: CoreBootstrapParamsSchema,
    result: CoreBootstrapResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.chain.core.update': spec({
    summary: 'Replace a core document given its expected revision (a stale one is REVISION_CONFLICT).',
    params: CoreUpdateParamsSchema,
    result: CoreUpdateResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.chain.core.get': spec({
    summary: 'The core documents (optionally one, with every version) and edits that became conflicts.',
    params: CoreGetParamsSchema,
    result: CoreGetResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.organize.request': spec({
    summary: 'Queue an organize, compact or deep job now (or wake the live one of that kind).',
    params: RequestParamsSchema,
    result: RequestResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.organize.claim': spec({
    summary: 'Lease the next organize job with a fresh token and its next step, or {job_id: null}.',
    params: ClaimParamsSchema,
    result: ClaimResultSchema,
    access: 'background',
    owner: 'optional',
  }),
  'memory.organize.commit': spec({
    summary:
      'Commit a step (a summary node, or archive dispositions) atomically; a retry returns the first receipt.',
    params: CommitParamsSchema,
    result: CommitResultSchema,
    access: 'background',
    owner: 'param',
  }),
  'memory.organize.fail': spec({
    summary:
      'Give a leased step back as failed: retried later with half the batch; the last five failures are kept.',
    params: FailParamsSchema,
    result: FailResultSchema,
    access: 'background',
    owner: 'param',
  }),
  'memory.organize.inspect': spec({
    summary: 'Read what a job needs: whole events and nodes by ref, and the owner’s older memories.',
    params: InspectParamsSchema,
    result: InspectResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.organize.notices': spec({
    summary: 'Failure notices of automatic jobs, kept until acknowledged with {ack: job_id}.',
    params: NoticesParamsSchema,
    result: NoticesResultSchema,
    access: 'write',
    owner: 'param',
  }),
} as const;
