// `--embed` end to end: the real store and embedding worker against the scripted embedding server over
// real HTTP on 127.0.0.1, on the hand-made fixtures (not real data, not a real model).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runMain } from '../test/helpers/process.js';
import type { EmbedConfig } from '../src/embed/embed.js';
import {
  startScriptedEmbeddings,
  type EmbeddingBody,
  type ScriptedEmbeddings,
} from '../test/helpers/scripted-embeddings.js';
import { dulemonFixture, locomoFixture, readRecords, writeData as writeFixture } from './fixtures.js';
import { runEval } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-eval-embed-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writeData = (name: string, text: string): string => writeFixture(dir, name, text);
const locomoFile = writeData('locomo.json', JSON.stringify(locomoFixture));

let embeddings: ScriptedEmbeddings;
beforeEach(async () => {
  embeddings = await startScriptedEmbeddings();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await embeddings.close();
});

// A generous query timeout: the tests must not depend on the machine's speed.
const embedConfig = (extra: Partial<EmbedConfig> = {}): EmbedConfig => ({
  baseUrl: embeddings.url,
  model: 'concepts',
  timeoutMs: 30_000,
  weight: 1,
  ...extra,
});

/** Each request to the scripted server: a question's embedding ("q") or a batch of documents ("docs:n"). */
const requestKinds = (questions: ReadonlySet<string>): string[] =>
  embeddings.requests.map(({ body }) =>
    body.input.length === 1 && questions.has(body.input[0] ?? '') ? 'q' : `docs:${body.input.length}`,
  );

describe('runEval --embed on the LoCoMo fixture', () => {
  it('embeds each store before its questions and asks every question with and without vectors', async () => {
    const plain = await runEval({
      dataset: 'locomo',
      dataFile: locomoFile,
      outDir: join(dir, 'plain'),
      ks: [1, 5],
      baseline: true,
      observe: false,
    });
    expect(embeddings.requests).toHaveLength(0);
    const result = await runEval({
      dataset: 'locomo',
      dataFile: locomoFile,
      outDir: join(dir, 'embed'),
      ks: [1, 5],
      baseline: true,
      embed: embedConfig(),
      // The scripted server counts the events' embeddings: no observed memories beside them.
      observe: false,
    });
    if (!result.ok || !plain.ok) throw new Error('eval failed');
    const { metrics, files } = result.value;
    const records = readRecords(files.questions);

    // Drained before the questions: all 4 turns of conv-a, its 3 questions, then conv-b's 2 turns and 2 questions.
    expect(requestKinds(new Set(records.map((r) => r.question)))).toEqual([
      'docs:4',
      'q',
      'q',
      'q',
      'docs:2',
      'q',
      'q',
    ]);
    expect(metrics.embedding).toEqual({
      model: 'concepts',
      dimensions: 32,
      requested_dimensions: null,
      weight: 1,
      timeout_ms: 30_000,
      documents: 6,
      vectors: 6,
      degraded: { queries: 0, codes: {} },
    });
    expect(metrics.options.embed).toBe(true);

    for (const r of records) {
      expect(r.embedding).toEqual({ model: 'concepts', dimensions: 32 });
      const channels = r.mnemo_vectors?.ranked_channels ?? [];
      expect(channels).toHaveLength(r.mnemo_vectors?.ranked.length ?? -1);
      // Every stored turn has a vector, so the vector channel ranks every item of its owner.
      expect(channels.every((c) => c.vector !== undefined)).toBe(true);
      expect(r.mnemo.ranked_channels?.some((c) => c.vector !== undefined)).toBe(false);
      expect(r.mnemo_vectors).not.toHaveProperty('degraded');
    }
    // The vector channel's own rank of the evidence is kept.
    const sister = records.find((r) => r.id === 'conv-a:q1');
    expect(sister?.mnemo_vectors?.evidence_channels?.['conv-a:D2:1']?.channels).toMatchObject({
      bm25: expect.any(Number),
      vector: expect.any(Number),
    });

    // "mnemo" is exactly the run without --embed.
    const before = readRecords(plain.value.files.questions);
    expect(records.map((r) => r.mnemo.ranked)).toEqual(before.map((r) => r.mnemo.ranked));
    expect(metrics.systems.mnemo.overall.metrics).toEqual(plain.value.metrics.systems.mnemo.overall.metrics);
    expect(metrics.vectors_ratio?.overall).toBeDefined();
    expect(plain.value.metrics).not.toHaveProperty('embedding');
    expect(plain.value.metrics.systems).not.toHaveProperty('mnemo_vectors');
    expect(before[0]).not.toHaveProperty('mnemo_vectors');
    expect(before[0]?.mnemo).not.toHaveProperty('ranked_channels');

    expect(JSON.parse(readFileSync(files.metrics, 'utf8'))).toMatchObject({
      embedding: { model: 'concepts', dimensions: 32 },
      systems: { mnemo_vectors: { overall: { n: 4 } } },
    });
    const report = readFileSync(files.report, 'utf8');
    expect(report).toContain('- vector channel: **on**, model `concepts`, 32 dimensions');
    expect(report).toContain('(6 documents, 6 vectors)');
    expect(report).toContain('did not answer (scored from the other channels): 0 of 5');
    expect(report).toContain('## Vector channel: mnemo+vectors / mnemo');
    expect(report).toMatch(/\| mnemo\+vectors \(call\) \| [\d.]+ \|/);
    expect(readFileSync(join(dir, 'plain', 'report.md'), 'utf8')).toContain('- vector channel: off');
    expect(readFileSync(files.plot, 'utf8').match(/<polyline/g)).toHaveLength(3);
  });

  it('counts and reports recalls whose vector channel did not answer', async () => {
    const questions = new Set(locomoFixture.flatMap((c) => c.qa.map((q) => q.question)));
    const failQuestions = (body: EmbeddingBody) =>
      body.input.length === 1 && questions.has(body.input[0] ?? '') ? { status: 400 } : {};
    embeddings.push(...Array.from({ length: 20 }, () => failQuestions));
    const result = await runEval({
      dataset: 'locomo',
      dataFile: locomoFile,
      outDir: join(dir, 'degraded'),
      ks: [5],
      embed: embedConfig(),
      // The scripted server counts the events' embeddings: no observed memories beside them.
      observe: false,
    });
    if (!result.ok) throw new Error(result.issues.join('; '));
    const { metrics, files } = result.value;
    expect(metrics.embedding?.degraded).toEqual({ queries: 5, codes: { EMBEDDING_FAILED: 5 } });
    const records = readRecords(files.questions);
    for (const r of records) {
      expect(r.mnemo_vectors?.degraded).toEqual([
        { channel: 'vector', code: 'EMBEDDING_FAILED', message: expect.stringContaining('HTTP 400') },
      ]);
      expect(r.mnemo_vectors?.ranked).toEqual(r.mnemo.ranked);
    }
    expect(readFileSync(files.report, 'utf8')).toContain('5 of 5 (EMBEDDING_FAILED 5)');
  });

  it('stops the run when the embedding server fails, and writes no results', async () => {
    embeddings.push({ status: 401, raw: '{"error":"bad key"}' });
    const out = join(dir, 'failed');
    await expect(
      runEval({ dataset: 'locomo', dataFile: locomoFile, outDir: out, embed: embedConfig(), observe: false }),
    ).rejects.toMatchObject({
      name: 'MemoryError',
      code: 'EMBEDDING_FAILED',
      message: expect.stringMatching(/^embedding conv-a failed, so the run stops: .*HTTP 401/),
    });
    // No question was asked.
    expect(embeddings.requests).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });
});

describe('runEval --embed on the DuLeMon fixture', () => {
  it('embeds what each turn may see before it is asked', async () => {
    const result = await runEval({
      dataset: 'dulemon',
      dataFile: writeData('dulemon.json', dulemonFixture.map((s) => JSON.stringify(s)).join('\n')),
      outDir: join(dir, 'dulemon'),
      embed: embedConfig(),
      // The scripted server counts the events' embeddings: no observed memories beside them.
      observe: false,
    });
    if (!result.ok) throw new Error(result.issues.join('; '));
    const records = readRecords(result.value.files.questions);
    expect(records.map((r) => r.id)).toEqual(['dulemon-1:t2', 'dulemon-1:t4']);
    // 4 persona memories and turn 1, the question of turn 2; then turns 2 and 3, the question of turn 4.
    expect(requestKinds(new Set(records.map((r) => r.question)))).toEqual(['docs:5', 'q', 'docs:2', 'q']);
    expect(result.value.metrics.embedding).toMatchObject({ documents: 7, vectors: 7 });
    for (const id of records[0]?.mnemo_vectors?.ranked ?? [])
      expect(['dulemon-1:t2', 'dulemon-1:t3', 'dulemon-1:t4']).not.toContain(id);
  });
});

describe('mnemo eval --embed (CLI)', () => {
  const stubEmbedEnv = (env: Record<string, string>) => {
    for (const name of ['MNEMO_EMBED_BASE_URL', 'MNEMO_EMBED_MODEL', 'MNEMO_EMBED_DIMENSIONS'])
      vi.stubEnv(name, env[name] ?? '');
  };

  it('reads MNEMO_EMBED_* like the server and reports the model', async () => {
    stubEmbedEnv({ MNEMO_EMBED_BASE_URL: embeddings.url, MNEMO_EMBED_MODEL: 'concepts' });
    vi.stubEnv('MNEMO_EMBED_TIMEOUT_MS', '30000');
    const out = join(dir, 'cli-embed');
    const result = await runMain([
      'eval',
      'locomo',
      '--data',
      locomoFile,
      '--out',
      out,
      '--k',
      '1,5',
      '--embed',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\| mnemo\+vectors \(concepts, 32 dims\) @1 [\d.]+ @5 [\d.]+ \|/);
    expect(embeddings.requests.length).toBeGreaterThan(0);
  });

  it('makes no embedding call without --embed, even with MNEMO_EMBED_* set', async () => {
    stubEmbedEnv({ MNEMO_EMBED_BASE_URL: embeddings.url, MNEMO_EMBED_MODEL: 'concepts' });
    const out = join(dir, 'cli-plain');
    expect((await runMain(['eval', 'locomo', '--data', locomoFile, '--out', out])).code).toBe(0);
    expect(embeddings.requests).toHaveLength(0);
    expect(JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'))).not.toHaveProperty('embedding');
  });

  it('fails at once with CONFIG_INVALID naming the variables when the model is not configured', async () => {
    stubEmbedEnv({});
    const out = join(dir, 'cli-missing');
    const missing = await runMain([
      'eval',
      'locomo',
      '--data',
      join(dir, 'nope.json'),
      '--out',
      out,
      '--embed',
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^mnemo: CONFIG_INVALID: --embed .*MNEMO_EMBED_BASE_URL and MNEMO_EMBED_MODEL/,
    );
    expect(missing.stderr).not.toContain('ENOENT');
    expect(existsSync(out)).toBe(false);

    stubEmbedEnv({ MNEMO_EMBED_BASE_URL: embeddings.url });
    const half = await runMain(['eval', 'dulemon', '--data', locomoFile, '--out', out, '--embed']);
    expect(half.code).toBe(1);
    expect(half.stderr).toContain('MNEMO_EMBED_MODEL is required with MNEMO_EMBED_BASE_URL');
    expect(embeddings.requests).toHaveLength(0);
  });

  it('stops with the embedding error', async () => {
    stubEmbedEnv({ MNEMO_EMBED_BASE_URL: embeddings.url, MNEMO_EMBED_MODEL: 'concepts' });
    embeddings.push({ status: 400 });
    const out = join(dir, 'cli-failed');
    const failed = await runMain(['eval', 'locomo', '--data', locomoFile, '--out', out, '--embed']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /^mnemo: EMBEDDING_FAILED: embedding conv-a failed, so the run stops: .*HTTP 400/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
