import { afterEach, describe, expect, it } from 'vitest';
import { errorOf } from '../../test/helpers/errors.js';
import {
  conceptVector,
  startScriptedEmbeddings,
  type EmbedScripted,
  type ScriptedEmbeddings,
} from '../../test/helpers/scripted-embeddings.js';
import { createOpenAiEmbedder, parseEmbeddings, type OpenAiEmbedderOptions } from './openai.js';

let server: ScriptedEmbeddings | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(steps: EmbedScripted[], options: Partial<OpenAiEmbedderOptions> = {}) {
  server = await startScriptedEmbeddings(steps);
  const delays: number[] = [];
  const provider = createOpenAiEmbedder({
    baseUrl: `${server.url}/`,
    model: 'concepts',
    apiKey: 'sk-embed-key',
    sleep: async (ms) => void delays.push(ms),
    ...options,
  });
  return { provider, delays, server };
}

const asArrays = (vectors: Float32Array[]) => vectors.map((v) => [...v]);
const f32 = (v: number[]) => [...Float32Array.from(v)];

describe('createOpenAiEmbedder / OpenAI 兼容 embeddings', () => {
  it('posts model, input, float encoding and dimensions with the bearer key', async () => {
    const { provider, server } = await setup([], { dimensions: 16 });
    const result = await provider.embed(['the car', '汽车']);
    expect(asArrays(result.vectors)).toEqual([
      f32(conceptVector('the car', 16)),
      f32(conceptVector('汽车', 16)),
    ]);
    expect(result.usage).toMatchObject({ calls: 1, prompt_tokens: expect.any(Number) });
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/embeddings');
    expect(request?.headers.authorization).toBe('Bearer sk-embed-key');
    expect(request?.body).toEqual({
      model: 'concepts',
      input: ['the car', '汽车'],
      encoding_format: 'float',
      dimensions: 16,
    });
    expect(provider).toMatchObject({ id: 'concepts', dimensions: 16 });
  });

  it('leaves dimensions out when none is configured, and orders answers by index', async () => {
    const { provider, server } = await setup([{ reverse: true }], { apiKey: undefined });
    const result = await provider.embed(['dog', 'coffee', 'piano']);
    expect(asArrays(result.vectors)).toEqual(['dog', 'coffee', 'piano'].map((t) => f32(conceptVector(t))));
    expect(server.requests[0]?.body).not.toHaveProperty('dimensions');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('retries a 429 after Retry-After, then a 5xx with doubling backoff / 429 与 5xx 重试', async () => {
    const { provider, delays, server } = await setup([
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 503 },
      {},
    ]);
    const result = await provider.embed(['car']);
    expect(result.vectors).toHaveLength(1);
    expect(result.usage.calls).toBe(3);
    expect(delays).toEqual([3_000, 2_000]);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after the retries with EMBEDDING_FAILED naming the status', async () => {
    const { provider, delays } = await setup([
      { status: 500 },
      { status: 502 },
      { status: 500 },
      { status: 503 },
    ]);
    const error = await errorOf(provider.embed(['car']));
    expect(error.code).toBe('EMBEDDING_FAILED');
    expect(error.data).toMatchObject({ reason: 'http', status: 503, attempts: 4 });
    expect(error.message).toContain('embedding endpoint answered HTTP 503');
    expect(delays).toEqual([1_000, 2_000, 4_000]);
  });

  it('does not retry a 400', async () => {
    const { provider, server } = await setup([{ status: 400, raw: '{"error":"input too long"}' }]);
    const error = await errorOf(provider.embed(['car']));
    expect(error).toMatchObject({ code: 'EMBEDDING_FAILED', data: { status: 400, attempts: 1 } });
    expect(error.message).toContain('input too long');
    expect(server.requests).toHaveLength(1);
  });

  it('times out with EMBEDDING_TIMEOUT without retrying / 超时', async () => {
    const { provider, server } = await setup([{ hang: true }], { timeoutMs: 100 });
    const error = await errorOf(provider.embed(['car']));
    expect(error).toMatchObject({ code: 'EMBEDDING_TIMEOUT', data: { reason: 'timeout', attempts: 1 } });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['not JSON', '<html>gateway</html>', /not JSON/],
    ['no data', '{"object":"list"}', /data/],
    ['too few vectors', '{"data":[{"index":0,"embedding":[1,0]}]}', /1 vectors for 2 inputs/],
    [
      'ragged dimensions',
      '{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[1,0,0]}]}',
      /different dimensions/,
    ],
    [
      'a string in a vector',
      '{"data":[{"index":0,"embedding":[1,"x"]},{"index":1,"embedding":[1,0]}]}',
      /0\.embedding/,
    ],
    [
      'an infinite number',
      '{"data":[{"index":0,"embedding":[1e999,0]},{"index":1,"embedding":[1,0]}]}',
      /Infinity/,
    ],
    [
      'beyond float32',
      '{"data":[{"index":0,"embedding":[1e300,0]},{"index":1,"embedding":[1,0]}]}',
      /32-bit/,
    ],
    ['repeated indexes', '{"data":[{"index":0,"embedding":[1,0]},{"index":0,"embedding":[1,0]}]}', /indexes/],
  ])('refuses a malformed answer (%s) with EMBEDDING_FAILED, no retry', async (_name, raw, reason) => {
    const { provider, server } = await setup([{ raw }]);
    const error = await errorOf(provider.embed(['car', 'dog']));
    expect(error).toMatchObject({ code: 'EMBEDDING_FAILED', data: { reason: 'bad_response', attempts: 1 } });
    expect(error.message).toMatch(/embedding response is not usable/);
    expect(error.message).toMatch(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses vectors of another dimension than the one asked for', async () => {
    const { provider } = await setup([{ dimensions: 8 }], { dimensions: 16 });
    const error = await errorOf(provider.embed(['car']));
    expect(error.message).toMatch(/asked for 16 dimensions, got 8/);
  });

  it('stops at once when the caller aborts, and makes no call for no text', async () => {
    const { provider, server } = await setup([{ hang: true }]);
    expect(await provider.embed([])).toEqual({ vectors: [], usage: { calls: 0 } });
    expect(server.requests).toHaveLength(0);
    const controller = new AbortController();
    const call = provider.embed(['car'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stopping')), 20);
    await expect(call).rejects.toThrow('stopping');
  });
});

describe('parseEmbeddings', () => {
  it('accepts a well-formed answer without usage', () => {
    const parsed = parseEmbeddings('{"data":[{"index":0,"embedding":[0.5,-1]}]}', 1);
    expect(parsed.ok && asArrays(parsed.value.vectors)).toEqual([[0.5, -1]]);
  });
});
