// The human-readable output: a short Markdown report and a hand-written SVG plot of recall@k.
import { renderAbstention } from './abstention.js';
import type { GroupSummary, Ratios, SystemSummary } from './aggregate.js';
import { VECTORS_NAME } from './embed.js';
import type { EvalMetrics } from './run.js';

const fmt = (value: number | null | undefined, digits = 3): string =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);

const escapeXml = (text: string): string =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);

/** A line chart of the headline metric family at each k: mnemo and, when run, the baseline. */
export function renderRecallPlot(metrics: EvalMetrics): string {
  const family = metrics.families[0] ?? 'recall';
  const ks = metrics.options.ks;
  const [w, h, left, right, top, bottom] = [520, 320, 56, 170, 30, 46];
  const plotW = w - left - right;
  const plotH = h - top - bottom;
  const x = (i: number) => left + (ks.length === 1 ? plotW / 2 : (i * plotW) / (ks.length - 1));
  const y = (v: number) => top + plotH - v * plotH;
  const vectors = metrics.systems.mnemo_vectors;
  const series = [
    { name: 'mnemo', color: '#1f6feb', values: metrics.systems.mnemo.overall.metrics },
    ...(vectors ? [{ name: VECTORS_NAME, color: '#1a7f37', values: vectors.overall.metrics }] : []),
    ...(metrics.systems.baseline
      ? [
          {
            name: metrics.baseline_name ?? 'baseline',
            color: '#d1242f',
            values: metrics.systems.baseline.overall.metrics,
          },
        ]
      : []),
  ];
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="12">`,
    `<rect width="${w}" height="${h}" fill="white"/>`,
    `<text x="${left}" y="18" font-size="14">${escapeXml(`${metrics.dataset}: ${family}@k (overall)`)}</text>`,
  ];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/>`,
      `<text x="${left - 8}" y="${y(tick) + 4}" text-anchor="end">${tick.toFixed(2)}</text>`,
    );
  }
  ks.forEach((k, i) =>
    out.push(`<text x="${x(i)}" y="${top + plotH + 18}" text-anchor="middle">${k}</text>`),
  );
  out.push(`<text x="${left + plotW / 2}" y="${h - 8}" text-anchor="middle">k</text>`);
  series.forEach((s, n) => {
    const points = ks.flatMap((k, i) => {
      const v = s.values[`${family}@${k}`];
      return v === undefined || !Number.isFinite(v) ? [] : [{ x: x(i), y: y(v), v }];
    });
    out.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')}"/>`,
      ...points.map(
        (p) =>
          `<circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="3" fill="${s.color}"><title>${p.v.toFixed(3)}</title></circle>`,
      ),
      `<line x1="${left + plotW + 16}" x2="${left + plotW + 36}" y1="${top + 10 + n * 20}" y2="${top + 10 + n * 20}" stroke="${s.color}" stroke-width="2"/>`,
      `<text x="${left + plotW + 42}" y="${top + 14 + n * 20}">${escapeXml(s.name)}</text>`,
    );
  });
  out.push('</svg>', '');
  return out.join('\n');
}

interface Row {
  name: string;
  mine: GroupSummary;
  base: GroupSummary | undefined;
  ratio: Record<string, number | null> | undefined;
}

/** Two systems side by side: cells read "mine / base (×mine ÷ base)"; mine alone without a base. */
interface Comparison {
  mine: SystemSummary;
  base?: SystemSummary | undefined;
  ratio?: Ratios | undefined;
}

/** One table per metric family: rows are overall and groups. */
function familyTable(metrics: EvalMetrics, family: string, { mine, base, ratio }: Comparison): string[] {
  const ks = metrics.options.ks;
  const rows: Row[] = [
    { name: '**overall**', mine: mine.overall, base: base?.overall, ratio: ratio?.overall },
    ...Object.entries(mine.groups).map(([name, group]) => ({
      name: metrics.apart.includes(name) ? `${name} (apart)` : name,
      mine: group,
      base: base?.groups[name],
      ratio: ratio?.groups[name],
    })),
  ];
  const header = `| ${metrics.group_label} | n | ${ks.map((k) => `${family}@${k}`).join(' | ')} |`;
  const lines = [header, `|---|--:|${ks.map(() => '--:|').join('')}`];
  for (const row of rows) {
    const n = row.mine.support?.[`${family}@${ks[0]}`] ?? row.mine.n;
    const cells = ks.map((k) => {
      const key = `${family}@${k}`;
      const mine = fmt(row.mine.metrics[key]);
      return row.base ? `${mine} / ${fmt(row.base.metrics[key])} (×${fmt(row.ratio?.[key], 2)})` : mine;
    });
    lines.push(`| ${row.name} | ${n} | ${cells.join(' | ')} |`);
  }
  return lines;
}

/** Whether the vector channel was on, with which model, and what came of it. */
function vectorLines(metrics: EvalMetrics): string[] {
  const e = metrics.embedding;
  if (!e) return ['- vector channel: off (`--embed` measures it with the model of `MNEMO_EMBED_*`)'];
  const degraded = Object.entries(e.degraded.codes).map(([code, n]) => `${code} ${n}`);
  return [
    `- vector channel: **on**, model \`${e.model}\`, ${e.dimensions ?? '?'} dimensions` +
      `${e.requested_dimensions !== null ? ` (asked for ${e.requested_dimensions})` : ''}, fusion weight ${e.weight}, ` +
      `query embedding timeout ${e.timeout_ms} ms; every store embedded before its questions ` +
      `(${e.documents} documents, ${e.vectors} vectors); ${VECTORS_NAME} is mnemo with the channel, mnemo without it, over the same stores`,
    `- recalls whose vector channel did not answer (scored from the other channels): ${e.degraded.queries} of ${metrics.counts.queries}` +
      (degraded.length > 0 ? ` (${degraded.join(', ')})` : ''),
  ];
}

export function renderReport(metrics: EvalMetrics, plotFile: string): string {
  const base = metrics.systems.baseline;
  const vectors = metrics.systems.mnemo_vectors;
  const mnemoLat = metrics.systems.mnemo.latency_ms;
  const lines = [
    `# mnemo eval: ${metrics.dataset}`,
    '',
    `- data: \`${metrics.data.file}\` (sha256 ${metrics.data.sha256.slice(0, 12)}…), ${metrics.counts.conversations} conversations, ` +
      `${metrics.counts.units} units, ${metrics.counts.queries} queries scored, ${metrics.counts.skipped} skipped`,
    `- run: ${metrics.created_at}, k = ${metrics.options.ks.join(', ')}, recall limit ${metrics.options.recall_limit}` +
      `${metrics.options.subset !== null ? `, subset ${metrics.options.subset}` : ''}, store ${metrics.options.engine}, wall time ${(metrics.wall_ms.total / 1000).toFixed(1)} s`,
    base
      ? `- cells read **mnemo / ${metrics.baseline_name ?? 'baseline'} (×mnemo ÷ baseline)**`
      : '- baseline not run (`--baseline` adds it)',
    ...vectorLines(metrics),
    ...(metrics.apart.length > 0 ? [`- reported apart, not in overall: ${metrics.apart.join(', ')}`] : []),
    '',
    `![${metrics.families[0] ?? 'recall'}@k](${plotFile})`,
    '',
  ];
  const mnemo = { mine: metrics.systems.mnemo, base, ratio: metrics.ratio };
  for (const family of metrics.families)
    lines.push(`## ${family}@k`, '', ...familyTable(metrics, family, mnemo), '');
  if (vectors) {
    lines.push(
      `## Vector channel: ${VECTORS_NAME} / mnemo`,
      '',
      `Cells read **${VECTORS_NAME} / mnemo (×${VECTORS_NAME} ÷ mnemo)**.`,
      '',
    );
    const comparison = { mine: vectors, base: metrics.systems.mnemo, ratio: metrics.vectors_ratio };
    for (const family of metrics.families)
      lines.push(`### ${family}@k`, '', ...familyTable(metrics, family, comparison), '');
  }
  if (metrics.abstention) lines.push(...renderAbstention(metrics.abstention));
  lines.push(
    '## Latency of one recall call (ms)',
    '',
    '| system | p50 | p95 | mean | max |',
    '|---|--:|--:|--:|--:|',
  );
  lines.push(
    `| mnemo (call) | ${fmt(mnemoLat.p50, 2)} | ${fmt(mnemoLat.p95, 2)} | ${fmt(mnemoLat.mean, 2)} | ${fmt(mnemoLat.max, 2)} |`,
  );
  const took = metrics.systems.mnemo.took_ms;
  lines.push(`| mnemo (took_ms) | ${fmt(took.p50, 2)} | ${fmt(took.p95, 2)} | | |`);
  if (vectors) {
    const v = vectors.latency_ms;
    lines.push(
      `| ${VECTORS_NAME} (call) | ${fmt(v.p50, 2)} | ${fmt(v.p95, 2)} | ${fmt(v.mean, 2)} | ${fmt(v.max, 2)} |`,
      `| ${VECTORS_NAME} (took_ms) | ${fmt(vectors.took_ms.p50, 2)} | ${fmt(vectors.took_ms.p95, 2)} | | |`,
    );
  }
  if (base) {
    const b = base.latency_ms;
    lines.push(
      `| ${metrics.baseline_name ?? 'baseline'} | ${fmt(b.p50, 2)} | ${fmt(b.p95, 2)} | ${fmt(b.mean, 2)} | ${fmt(b.max, 2)} |`,
    );
  }
  lines.push('');
  if (metrics.skipped.length > 0 || metrics.notes.length > 0) {
    const reasons = new Map<string, number>();
    for (const s of metrics.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
    lines.push('## Data notes', '');
    for (const [reason, n] of reasons) lines.push(`- skipped ${n}: ${reason}`);
    for (const note of metrics.notes.slice(0, 20)) lines.push(`- ${note}`);
    if (metrics.notes.length > 20) lines.push(`- … ${metrics.notes.length - 20} more in metrics.json`);
    lines.push('');
  }
  return lines.join('\n');
}
