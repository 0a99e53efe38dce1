// The method table: the catalog's methods bound to the service's stages.
import { MemoryError } from '../errors.js';
import { ingestEvents } from '../ingest/ingest.js';
import { safetyHandlers } from '../inject/methods-safety.js';
import { inspectorHandlers } from '../inspector/methods.js';
import { createRecallLatency } from '../inspector/recall-latency.js';
import { guardWrites } from '../inject/guard-writes.js';
import { injectHandlers } from '../inject/methods.js';
import { snapshotHandlers } from '../inject/methods-snapshot.js';
import { createSnapshotStats } from '../inject/snapshot-stats.js';
import { createInjectRuntime, type InjectRuntime } from '../inject/runtime.js';
import { ROLE_OF_KIND } from '../ingest/schema.js';
import { countEvents, getEventsByIds } from '../ingest/store.js';
import { OBSERVATION_WORKER, type ClientActivity } from '../activity.js';
import type { AfterForget } from '../knowledge/forget.js';
import { factsHandlers } from '../knowledge/methods-facts.js';
import { forgetHandlers } from '../knowledge/methods-forget.js';
import { chainHandlers } from '../knowledge/methods.js';
import { skillHandlers } from '../knowledge/methods-skills.js';
import { trackHandlers } from '../knowledge/methods-tracks.js';
import { DEFAULT_TIME_ZONE } from '../knowledge/knowledge.js';
import { observeHandlers } from '../observe/methods.js';
import { rewriteNodesOver } from '../organize/forget-nodes.js';
import { organizeHandlers, ORGANIZE_WORKER } from '../organize/methods.js';
import { publishDirect } from '../observe/write.js';
import { projectAfterWrites, projectionHealth, rebuildProjection } from '../projection/projection.js';
import { recallMemory } from '../recall/recall.js';
import type { RecallParams } from '../recall/schema.js';
import { timelineAround } from '../recall/around.js';
import { queryTimeline, readTimeline } from '../recall/timeline.js';
import type { MemoryService } from '../service.js';
import { latestVersion } from '../storage/migrate.js';
import { tokenHandlers } from '../tokens/methods.js';
import { VERSION } from '../version.js';
import { bindMethods } from './catalog.js';
import type { MethodTable } from './method.js';

export interface MethodTableOptions {
  /** The server's client activity: observation status then tells whether its worker defers to clients. */
  activity?: ClientActivity;
  /** The inject stage's background searches (the server closes them before the store); default: a new one. */
  inject?: InjectRuntime;
  /** Bring objects' Markdown files up to date after writes (`<data-dir>/objects/`); the server does. */
  projection?: boolean;
  /** Runs after memory.forget commits, with the ids it deleted (the object projection files). */
  afterForget?: AfterForget;
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
  const read = (p: { owner: string; id: string; offset: number; limit: number }) => readTimeline(db, p);
  const projection = options.projection
    ? { driver: db, dataDir: service.config.dataDir, now: service.now }
    : undefined;
  // A forget rewrites the owner's files from the database: a deleted object's file goes, and so does a
  // forgotten fact from the files of the objects it was about.
  const afterForget =
    options.afterForget ??
    (projection
      ? async (owner: string) => {
          await rebuildProjection(projection, owner);
        }
      : undefined);
  const latency = createRecallLatency();
  const recall = async (p: RecallParams) => {
    const result = await recallMemory(db, p, {
      now: service.now,
      ...(service.config.timezone ? { timeZone: service.config.timezone } : {}),
      ...(service.embedding
        ? { vectors: service.embedding.search, weights: { vector: service.embedding.weight } }
        : {}),
    });
    latency.record({
      at: service.now(),
      owner: p.owner,
      took_ms: result.took_ms,
      items: result.items.length,
    });
    return result;
  };
  // The snapshot's Project Context recalls without any model (no embedding call).
  const recallModelFree = (p: RecallParams) =>
    recallMemory(db, p, {
      now: service.now,
      ...(service.config.timezone ? { timeZone: service.config.timezone } : {}),
    });
  const snapshotStats = createSnapshotStats();
  const writeGuardThreshold = service.config.writeGuardThreshold ?? null;
  const tracks = trackHandlers({
    ...ingestDeps,
    publish: publishDirect,
    timeZone: service.config.timezone ?? DEFAULT_TIME_ZONE,
  });
  const chain = chainHandlers(ingestDeps);
  const guard = { driver: db, now: service.now, threshold: writeGuardThreshold };
  const snapshots = (principal: Parameters<typeof snapshotStats.costs>[0]) => {
    const costs = snapshotStats.costs(principal);
    return costs.length > 0 ? { snapshots: costs } : {};
  };
  const table = bindMethods({
    health: async (_p, ctx) => ({
      status: 'ok' as const,
      version: VERSION,
      schema_version: latestVersion(),
      ...snapshots(ctx.principal),
      ...(ctx.principal.kind === 'all'
        ? {
            counts: await countEvents(db),
            data_dir: service.config.dataDir,
            ingest_workers: service.config.ingestWorkers ?? 0,
            ingest_calls: service.preparer.counts(),
            ...(service.embedding ? { embedding: await service.embedding.status() } : {}),
          }
        : {}),
    }),
    'memory.events.ingest': async (p) => {
      const { accepted, duplicates, rejected } = await ingestEvents(ingestDeps, p.owner, p.events);
      return { accepted, duplicates, rejected };
    },
    'memory.evidence.get': async (p) => {
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
    'timeline.append': async (p) => {
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
        // An id that is itself a secret is never echoed back (the rejection names only the field).
        throw new MemoryError(
          code,
          rejection.message,
          rejection.event_id === null ? undefined : { id: p.id },
        );
      }
      return { id: p.id, seq: out.stored.get(p.id) ?? null, duplicate: out.duplicates > 0 };
    },
    'timeline.query': (p) => queryTimeline(db, p),
    'timeline.around': (p) => timelineAround(db, p),
    'timeline.read': read,
    'timeline.expand': read,
    ...organizeHandlers({
      ...service,
      ...(options.projection ? { projectionHealth: (owner?: string) => projectionHealth(db, owner) } : {}),
      ...(activity ? { deferring: () => activity.deferring(ORGANIZE_WORKER) } : {}),
    }),
    ...observeHandlers({
      driver: db,
      redactor: service.redactor,
      now: service.now,
      timeZone: service.config.timezone,
      ...(activity ? { deferring: () => activity.deferring(OBSERVATION_WORKER) } : {}),
    }),
    ...factsHandlers({
      driver: db,
      redactor: service.redactor,
      now: service.now,
      timeZone: service.config.timezone,
    }),
    ...forgetHandlers({
      driver: db,
      now: service.now,
      timeZone: service.config.timezone ?? DEFAULT_TIME_ZONE,
      afterForget,
      onEventsForgotten: rewriteNodesOver,
    }),
    ...chain,
    ...skillHandlers({ driver: db, redactor: service.redactor, now: service.now }),
    ...tracks,
    ...guardWrites(
      {
        'memory.track.add': tracks['memory.track.add'],
        'memory.todo.add': tracks['memory.todo.add'],
        'memory.chain.upsert': chain['memory.chain.upsert'],
      },
      guard,
    ),
    ...tokenHandlers({ driver: db, now: service.now }),
    ...safetyHandlers(),
    ...inspectorHandlers({ driver: db, now: service.now, latency }),
    ...injectHandlers(options.inject ?? createInjectRuntime(service), recall),
    ...snapshotHandlers({
      driver: db,
      now: service.now,
      timeZone: service.config.timezone ?? DEFAULT_TIME_ZONE,
      recall: recallModelFree,
      stats: snapshotStats,
      writeGuardThreshold,
    }),
  });
  if (!projection) return table;
  return projectAfterWrites(table, projection, service.log);
}
