// End to end through the real store: hand-made fixtures in the published shapes, not real data.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../test/helpers/process.js';
import {
  dulemonFixture,
  locomoFixture,
  longMemEvalFixture,
  readRecords,
  writeData as writeFixture,
} from './fixtures.js';
import { runEval } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-eval-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writeData = (name: string, text: string): string => writeFixture(dir, name, text);

describe('runEval on a 2-conversation LoCoMo fixture', async () => {
  const result = await runEval({
    dataset: 'locomo',
    dataFile: writeData('locomo.json', JSON.stringify(locomoFixture)),
    outDir: join(dir, 'locomo-out'),
    ks: [5, 1],
    baseline: true,
  });
  if (!result.ok) throw new Error(result.issues.join('; '));
  const { metrics, files } = result.value;
  const records = readRecords(files.questions);

  it('ingests every turn once and scores every question with evidence', () => {
    expect(metrics.counts).toEqual({ conversations: 2, units: 6, queries: 5, skipped: 1 });
    expect(metrics.ingest).toEqual({ accepted: 6, duplicates: 0, rejected: 0 });
    expect(metrics.options.ks).toEqual([1, 5]);
    expect(records.map((r) => r.id)).toEqual([
      'conv-a:q1',
      'conv-a:q2',
      'conv-a:q3',
      'conv-b:q1',
      'conv-b:q2',
    ]);
  });

  it('keeps each conversation in its own owner', () => {
    for (const r of records) {
      for (const id of [...r.mnemo.ranked, ...(r.baseline?.ranked ?? [])])
        expect(id.startsWith(`${r.owner}:`)).toBe(true);
    }
  });

  it('finds single-evidence questions by their words, in mnemo and the baseline', () => {
    for (const id of ['conv-a:q1', 'conv-a:q3', 'conv-b:q1', 'conv-b:q2']) {
      const r = records.find((x) => x.id === id);
      expect(r?.mnemo.scores['recall@5'], id).toBe(1);
      expect(r?.mnemo.hits['5'], id).toBe(1);
      expect(r?.baseline?.scores['recall@5'], id).toBe(1);
    }
    expect(records[0]?.at).toBe('2023-05-25T09:05:00.000Z');
  });

  it('reports category 5 apart from the overall score, with ratios', () => {
    expect(metrics.apart).toEqual(['5 adversarial']);
    expect(metrics.systems.mnemo.overall.n).toBe(4);
    expect(Object.keys(metrics.systems.mnemo.groups)).toEqual([
      '1 multi-hop',
      '4 single-hop',
      '5 adversarial',
    ]);
    expect(metrics.ratio?.groups['4 single-hop']?.['recall@5']).toBe(1);
    expect(Number.isFinite(metrics.systems.mnemo.latency_ms.p95)).toBe(true);
  });

  it('writes metrics.json, a Markdown report and an SVG plot', () => {
    expect(JSON.parse(readFileSync(files.metrics, 'utf8'))).toMatchObject({
      dataset: 'locomo',
      apart: ['5 adversarial'],
    });
    const report = readFileSync(files.report, 'utf8');
    expect(report).toContain('![recall@k](recall-at-k.svg)');
    expect(report).toMatch(/\| \*\*overall\*\* \| 4 \| [\d.]+ \/ [\d.]+ \(×[\d.]+\) \|/);
    const svg = readFileSync(files.plot, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<polyline/g)).toHaveLength(2);
  });
});

describe('runEval on LongMemEval and DuLeMon fixtures', () => {
  it('scores sessions and turns of a LongMemEval haystack', async () => {
    const result = await runEval({
      dataset: 'longmemeval',
      dataFile: writeData('lme.json', JSON.stringify(longMemEvalFixture)),
      outDir: join(dir, 'lme-out'),
      ks: [1, 2],
    });
    if (!result.ok) throw new Error(result.issues.join('; '));
    const [record] = readRecords(result.value.files.questions);
    expect(result.value.metrics.skipped).toEqual([{ id: 'q2_abs', reason: 'abstention question' }]);
    expect(record?.evidence_sessions).toEqual(['answer_x']);
    expect(record?.mnemo.ranked_sessions?.[0]).toBe('answer_x');
    expect(record?.mnemo.scores['session_recall_all@1']).toBe(1);
    expect(record?.baseline).toBeUndefined();
  });

  it('asks each DuLeMon turn over the memories and earlier turns only', async () => {
    const result = await runEval({
      dataset: 'dulemon',
      dataFile: writeData('dulemon.json', dulemonFixture.map((s) => JSON.stringify(s)).join('\n')),
      outDir: join(dir, 'dulemon-out'),
      baseline: true,
    });
    if (!result.ok) throw new Error(result.issues.join('; '));
    const records = readRecords(result.value.files.questions);
    expect(records.map((r) => r.id)).toEqual(['dulemon-1:t2', 'dulemon-1:t4']);
    // t2 runs when t1 is the only turn stored: later turns are never among its results.
    for (const id of [...(records[0]?.mnemo.ranked ?? []), ...(records[0]?.baseline?.ranked ?? [])]) {
      expect(['dulemon-1:t2', 'dulemon-1:t3', 'dulemon-1:t4']).not.toContain(id);
    }
    expect(records[0]?.baseline?.scores['recall@5']).toBe(1);
  });

  it('returns unreadable data as issues', async () => {
    const result = await runEval({ dataset: 'locomo', dataFile: writeData('bad.json', '{"not": "a list"}') });
    expect(result.ok).toBe(false);
    const missing = await runEval({ dataset: 'locomo', dataFile: join(dir, 'missing.json') });
    expect(missing).toMatchObject({ ok: false, issues: [expect.stringContaining('ENOENT')] });
  });
});

describe('mnemo eval (CLI)', () => {
  it('runs a dataset and prints where the results are', async () => {
    const data = writeData('cli-locomo.json', JSON.stringify(locomoFixture));
    const out = join(dir, 'cli-out');
    const result = await runMain([
      'eval',
      'locomo',
      '--data',
      data,
      '--out',
      out,
      '--k',
      '1,5',
      '--subset',
      '1',
      '--baseline',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(join(out, 'report.md'));
    expect(result.stderr).toMatch(/^locomo: 3 queries over 1 conversations/);
  });

  it('rejects a bad --k and a missing file', async () => {
    expect((await runMain(['eval', 'locomo', '--k', '0,5'])).code).not.toBe(0);
    const missing = await runMain([
      'eval',
      'dulemon',
      '--data',
      join(dir, 'nope.json'),
      '--out',
      join(dir, 'x'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ENOENT');
  });
});
