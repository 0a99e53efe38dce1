// health.history: what the store took in per UTC day, counts per owner, and the recall latencies measured
// by this process. Reads events, memories and objects; writes nothing.
import type { Principal } from '../protocol/principal.js';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, row, str } from '../storage/rows.js';
import { quantile, type RecallLatency } from './recall-latency.js';
import type { HealthHistory, HealthHistoryParams } from './schema.js';

const DAY_MS = 86_400_000;
/** The newest latency samples the answer carries (the quantiles count every one kept). */
const SAMPLES_SHOWN = 200;

const DayRow = row({ day: int, n: int });
const OwnerRow = row({ owner: str, n: int });

type Counted = 'events' | 'memories' | 'objects';
/** Each counted table and the column that says when a row was stored. */
const TABLES: ReadonlyArray<{ key: Counted; table: string; stored: string }> = [
  { key: 'events', table: 'events', stored: 'ingested_at' },
  { key: 'memories', table: 'memories', stored: 'created_at' },
  { key: 'objects', table: 'objects', stored: 'created_at' },
];

const dayName = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

export async function healthHistory(
  db: Queryable,
  p: HealthHistoryParams,
  ctx: { now: number; principal: Principal; latency: RecallLatency },
): Promise<HealthHistory> {
  const today = Math.floor(ctx.now / DAY_MS);
  const first = today - p.days + 1;
  const byOwner = p.owner === undefined ? '' : 'WHERE owner = ?';
  const ownerParams: SqlValue[] = p.owner === undefined ? [] : [p.owner];
  const days = Array.from({ length: p.days }, (_, i) => ({
    day: dayName(first + i),
    events: 0,
    memories: 0,
    objects: 0,
  }));
  const totals = { events: 0, memories: 0, objects: 0 };
  const owners = new Map<string, { owner: string } & typeof totals>();
  for (const { key, table, stored } of TABLES) {
    const perDay = await db.all(
      DayRow,
      `SELECT ${stored} / ${DAY_MS} AS day, count(*) AS n FROM ${table}
        WHERE ${stored} >= ? ${p.owner === undefined ? '' : 'AND owner = ?'} GROUP BY 1`,
      [first * DAY_MS, ...ownerParams],
    );
    for (const d of perDay) {
      const slot = days[d.day - first];
      if (slot) slot[key] = d.n;
    }
    const perOwner = await db.all(
      OwnerRow,
      `SELECT owner, count(*) AS n FROM ${table} ${byOwner} GROUP BY owner`,
      ownerParams,
    );
    for (const o of perOwner) {
      const entry = owners.get(o.owner) ?? { owner: o.owner, events: 0, memories: 0, objects: 0 };
      entry[key] = o.n;
      owners.set(o.owner, entry);
      totals[key] += o.n;
    }
  }
  const samples = ctx.latency.samples(ctx.principal, p.owner);
  const sorted = samples.map((s) => s.took_ms).sort((a, b) => a - b);
  return {
    now: new Date(ctx.now).toISOString(),
    days,
    totals,
    owners: [...owners.values()].sort((a, b) => (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0)),
    recall: {
      count: samples.length,
      p50_ms: quantile(sorted, 0.5),
      p95_ms: quantile(sorted, 0.95),
      max_ms: sorted.at(-1) ?? null,
      samples: samples.slice(-SAMPLES_SHOWN).map((s) => ({
        at: new Date(s.at).toISOString(),
        took_ms: s.took_ms,
        items: s.items,
      })),
    },
  };
}
