// THE method table: every method declared once with its params schema, handler and result schema.
import { z } from 'zod';
import { MemoryError } from '../errors.js';
import { ingestEvents } from '../ingest/ingest.js';
import {
  EVENT_KINDS,
  EVENT_ROLES,
  IngestParamsSchema,
  IngestResultSchema,
  OwnerSchema,
  TimeSchema,
} from '../ingest/schema.js';
import { countEvents, getEventsByIds } from '../ingest/store.js';
import { OBSERVATION_WORKER, type ClientActivity } from '../activity.js';
import { observeMethodDefs } from '../observe/methods.js';
import { recallMemory } from '../recall/recall.js';
import {
  EvidenceParamsSchema,
  EvidenceResultSchema,
  RecallParamsSchema,
  RecallResultSchema,
} from '../recall/schema.js';
import {
  queryTimeline,
  readTimeline,
  TimelineQueryParamsSchema,
  TimelineQueryResultSchema,
  TimelineReadParamsSchema,
  TimelineReadResultSchema,
} from '../recall/timeline.js';
import type { MemoryService } from '../service.js';
import { latestVersion } from '../storage/migrate.js';
import { VERSION } from '../version.js';
import { defineMethod, type MethodDef, type MethodTable } from './method.js';

const HealthResultSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  schema_version: z.number().int(),
  counts: z.object({ events: z.number().int(), owners: z.number().int() }),
  data_dir: z.string(),
  /** Worker threads that prepare large ingest calls (0: the main thread does). */
  ingest_workers: z.number().int(),
  /** Ingest calls prepared on the worker threads and on the main thread since the server started. */
  ingest_calls: z.object({ pooled: z.number().int(), inline: z.number().int() }),
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

const ROLE_OF_KIND: Record<(typeof EVENT_KINDS)[number], (typeof EVENT_ROLES)[number]> = {
  user_message: 'user',
  agent_reply: 'agent',
  tool_result: 'tool',
  task_started: 'system',
  task_result: 'system',
  task_failed: 'system',
  task_blocked: 'system',
  needs_input: 'system',
  schedule_run: 'system',
  note: 'system',
};

const TimelineAppendParamsSchema = z.object({
  owner: OwnerSchema,
  id: z.string().trim().min(1).max(200),
  kind: z.enum(EVENT_KINDS),
  role: z.enum(EVENT_ROLES).optional(),
  at: TimeSchema.optional(),
  text: z.string().max(32_000, 'text is at most 32,000 characters'),
  source: z
    .strictObject({
      source: z.string().max(200).optional(),
      session_id: z.string().max(200).optional(),
      task_id: z.string().max(200).optional(),
      file: z.string().max(1000).optional(),
      url: z.string().max(2000).optional(),
    })
    .optional(),
});

const TimelineAppendResultSchema = z.object({
  id: z.string(),
  seq: z.number().int().nullable(),
  duplicate: z.boolean(),
});

export interface MethodTableOptions {
  /** The server's client activity: observation status then tells whether its worker defers to clients. */
  activity?: ClientActivity;
}

export function createMethodTable(service: MemoryService, options: MethodTableOptions = {}): MethodTable {
  const db = service.driver;
  const { activity } = options;
  const ingestDeps = {
    driver: db,
    redactor: service.redactor,
    salt: service.salt,
    now: service.now,
    preparer: service.preparer,
  };
  const methods: MethodDef[] = [
    defineMethod({
      name: 'health',
      summary: 'Version, schema version and counts.',
      params: z.object({}).loose(),
      result: HealthResultSchema,
      handler: async () => ({
        status: 'ok' as const,
        version: VERSION,
        schema_version: latestVersion(),
        counts: await countEvents(db),
        data_dir: service.config.dataDir,
        ingest_workers: service.config.ingestWorkers ?? 0,
        ingest_calls: service.preparer.counts(),
        ...(service.embedding ? { embedding: await service.embedding.status() } : {}),
      }),
    }),
    defineMethod({
      name: 'memory.events.ingest',
      summary: 'Store up to 1,000 events for one owner; valid events are kept even when others are rejected.',
      params: IngestParamsSchema,
      result: IngestResultSchema,
      handler: async (p) => {
        const { accepted, duplicates, rejected } = await ingestEvents(ingestDeps, p.owner, p.events);
        return { accepted, duplicates, rejected };
      },
    }),
    defineMethod({
      name: 'memory.recall',
      summary: 'Find memory by words, ids, time or task; channels fused by reciprocal rank fusion.',
      params: RecallParamsSchema,
      result: RecallResultSchema,
      handler: (p) =>
        recallMemory(db, p, {
          now: service.now,
          ...(service.config.timezone ? { timeZone: service.config.timezone } : {}),
          ...(service.embedding
            ? { vectors: service.embedding.search, weights: { vector: service.embedding.weight } }
            : {}),
        }),
    }),
    defineMethod({
      name: 'memory.evidence.get',
      summary: 'The stored (redacted) events behind source refs.',
      params: EvidenceParamsSchema,
      result: EvidenceResultSchema,
      handler: async (p) => {
        const ids = [...new Set(p.ids)];
        const events = await getEventsByIds(db, p.owner, ids);
        const byId = new Map(events.map((e) => [e.event_id, e]));
        return {
          items: ids.flatMap((id) => {
            const e = byId.get(id);
            if (!e) return [];
            return [
              {
                id: e.event_id,
                seq: e.seq,
                kind: e.kind,
                role: e.role,
                at: new Date(e.at).toISOString(),
                text: e.text,
                session_id: e.session_id,
                task_id: e.task_id,
                meta: e.meta,
                redacted: e.redacted,
              },
            ];
          }),
          missing: ids.filter((id) => !byId.has(id)),
        };
      },
    }),
    defineMethod({
      name: 'timeline.append',
      summary: 'Append one event (seed semantics: at defaults to now; a repeated id never overwrites).',
      params: TimelineAppendParamsSchema,
      result: TimelineAppendResultSchema,
      handler: async (p) => {
        const event = {
          event_id: p.id,
          kind: p.kind,
          role: p.role ?? ROLE_OF_KIND[p.kind],
          at: p.at ?? service.now(),
          text: p.text,
          ...(p.source?.session_id ? { session_id: p.source.session_id } : {}),
          ...(p.source?.task_id ? { task_id: p.source.task_id } : {}),
          ...(p.source ? { meta: { source: p.source } } : {}),
        };
        const out = await ingestEvents(ingestDeps, p.owner, [event]);
        const rejection = out.rejected[0];
        if (rejection) {
          const code = rejection.code === 'EVENT_CONFLICT' ? 'EVENT_CONFLICT' : 'EVENT_INVALID';
          throw new MemoryError(code, rejection.message, { id: p.id });
        }
        return { id: p.id, seq: out.stored.get(p.id) ?? null, duplicate: out.duplicates > 0 };
      },
    }),
    defineMethod({
      name: 'timeline.query',
      summary:
        'Index heads (≤ 50, ≤ 1,200 chars) by words, time and task; without a query, pages by sequence.',
      params: TimelineQueryParamsSchema,
      result: TimelineQueryResultSchema,
      handler: (p) => queryTimeline(db, p),
    }),
    defineMethod({
      name: 'timeline.read',
      summary: 'A range of one event text: {id, offset, limit} → text and next_offset.',
      params: TimelineReadParamsSchema,
      result: TimelineReadResultSchema,
      handler: (p) => readTimeline(db, p),
    }),
    defineMethod({
      name: 'timeline.expand',
      summary: 'Alias of timeline.read.',
      params: TimelineReadParamsSchema,
      result: TimelineReadResultSchema,
      handler: (p) => readTimeline(db, p),
    }),
    ...observeMethodDefs({
      driver: db,
      now: service.now,
      ...(activity ? { deferring: () => activity.deferring(OBSERVATION_WORKER) } : {}),
    }),
  ];
  return new Map(methods.map((m) => [m.name, m]));
}
