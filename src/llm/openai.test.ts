import { afterEach, describe, expect, it } from 'vitest';
import { errorOf } from '../../test/helpers/errors.js';
import { startScriptedModel, type ScriptedModel, type Scripted } from '../../test/helpers/scripted-model.js';
import { retryAfterMs } from './http.js';
import { createOpenAiProvider, type OpenAiOptions } from './openai.js';

let server: ScriptedModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MESSAGES = [
  { role: 'system' as const, content: 'Answer in JSON.' },
  { role: 'user' as const, content: '你好 hello' },
];

async function setup(steps: Scripted[], options: Partial<OpenAiOptions> = {}) {
  server = await startScriptedModel(steps);
  const delays: number[] = [];
  const provider = createOpenAiProvider({
    baseUrl: `${server.url}/`,
    model: 'test-model',
    apiKey: 'sk-test-key',
    sleep: async (ms) => void delays.push(ms),
    ...options,
  });
  return { provider, delays, server };
}

describe('createOpenAiProvider / OpenAI 兼容接口', () => {
  it('posts a JSON-mode chat completion and returns content and reported usage', async () => {
    const { provider, server } = await setup([{ json: { ok: true } }]);
    const result = await provider.chat({ messages: MESSAGES, json: true });
    expect(result.content).toBe('{"ok":true}');
    expect(result.usage).toEqual({ calls: 1, ...server.usage });
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test-key');
    expect(request?.body).toEqual({
      model: 'test-model',
      messages: MESSAGES,
      max_tokens: 3000,
      temperature: 0,
      response_format: { type: 'json_object' },
    });
  });

  it('estimates usage when the server reports none (1 per CJK char, 0.3 per other char)', async () => {
    const { provider } = await setup([{ content: '好的 ok', noUsage: true }]);
    const result = await provider.chat({ messages: MESSAGES });
    // "Answer in JSON.\n你好 hello" = 2 CJK + 22 other → 2 + 6.6; "好的 ok" = 2 + 0.9
    expect(result.usage).toEqual({ calls: 1, prompt_tokens: 9, completion_tokens: 3 });
  });

  it('retries a 429 after Retry-After / 429 按 Retry-After 重试', async () => {
    const { provider, delays, server } = await setup([
      { status: 429, headers: { 'retry-after': '2' } },
      { json: { done: 1 } },
    ]);
    const result = await provider.chat({ messages: MESSAGES, json: true });
    expect(result.content).toBe('{"done":1}');
    expect(delays).toEqual([2_000]);
    expect(result.usage.calls).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('retries 5xx with doubling backoff, then fails with MODEL_ERROR and the calls spent', async () => {
    const { provider, delays } = await setup([
      { status: 503 },
      { status: 502 },
      { status: 500 },
      { status: 503 },
    ]);
    const error = await errorOf(provider.chat({ messages: MESSAGES }));
    expect(error.code).toBe('MODEL_ERROR');
    expect(error.data).toMatchObject({ status: 503, attempts: 4, usage: { calls: 4 } });
    expect(delays).toEqual([1_000, 2_000, 4_000]);
  });

  it('does not retry a 400', async () => {
    const { provider, server } = await setup([{ status: 400, raw: '{"error":"bad model"}' }]);
    const error = await errorOf(provider.chat({ messages: MESSAGES }));
    expect(error).toMatchObject({ code: 'MODEL_ERROR', data: { status: 400, attempts: 1 } });
    expect(error.message).toContain('bad model');
    expect(server.requests).toHaveLength(1);
  });

  it('times out without retrying / 超时不重试', async () => {
    const { provider, server } = await setup([{ hang: true }], { timeoutMs: 100 });
    const error = await errorOf(provider.chat({ messages: MESSAGES }));
    expect(error).toMatchObject({ code: 'MODEL_TIMEOUT', data: { reason: 'timeout', attempts: 1 } });
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a body that is not a chat completion', async () => {
    const { provider } = await setup([{ raw: '<html>gateway</html>' }]);
    const error = await errorOf(provider.chat({ messages: MESSAGES }));
    expect(error).toMatchObject({ code: 'MODEL_ERROR', data: { reason: 'bad_response' } });
  });

  it('runs one call at a time / 并发为 1', async () => {
    const { provider, server } = await setup([{ hang: true }, { json: {} }], { timeoutMs: 200 });
    const [first, second] = await Promise.allSettled([
      provider.chat({ messages: MESSAGES }),
      provider.chat({ messages: MESSAGES }),
    ]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('fulfilled');
    expect(server.maxInFlight).toBe(1);
  });

  it('stops at once when the caller aborts', async () => {
    const { provider } = await setup([{ hang: true }]);
    const controller = new AbortController();
    const call = provider.chat({ messages: MESSAGES, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stopping')), 20);
    await expect(call).rejects.toThrow('stopping');
  });
});

describe('retryAfterMs', () => {
  it('reads delta seconds and HTTP dates', () => {
    const now = Date.parse('2026-09-17T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs('Thu, 17 Sep 2026 10:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
