// OpenAI-compatible chat completions over plain fetch (OpenAI, DeepSeek, Ollama, vLLM, …).
import { z } from 'zod';
import { isMemoryError, MemoryError } from '../errors.js';
import { postJson, type RetryOptions } from './http.js';
import {
  addUsage,
  NO_USAGE,
  type ChatProvider,
  type ChatRequest,
  type ChatResult,
  type ChatUsage,
} from './provider.js';
import { estimateTokens } from '../text/tokens.js';

export interface OpenAiOptions extends Partial<RetryOptions> {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  maxTokens?: number;
  temperature?: number;
}

export const OPENAI_DEFAULTS = Object.freeze({
  timeoutMs: 90_000,
  maxTokens: 3_000,
  retries: 3,
  retryBaseMs: 1_000,
  retryCapMs: 60_000,
  temperature: 0,
});

const ResponseSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish() }) }))
    .min(1, 'the response has no choices'),
  usage: z
    .object({ prompt_tokens: z.number().int().min(0), completion_tokens: z.number().int().min(0) })
    .nullish(),
});

export function createOpenAiProvider(options: OpenAiOptions): ChatProvider {
  const o = { ...OPENAI_DEFAULTS, ...options };
  const url = `${o.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  // invariant: one model call at a time per provider (concurrency 1; test: "runs one call at a time").
  let tail: Promise<unknown> = Promise.resolve();

  async function run(request: ChatRequest): Promise<ChatResult> {
    const body = JSON.stringify({
      model: o.model,
      messages: request.messages,
      max_tokens: Math.min(request.maxTokens ?? o.maxTokens, o.maxTokens),
      temperature: o.temperature,
      ...(request.json ? { response_format: { type: 'json_object' } } : {}),
    });
    const estimate = estimateTokens(request.messages.map((m) => m.content).join('\n'));
    // A failed call still costs a call; its tokens are unknown (an error has no usage).
    const failedCalls = (n: number): ChatUsage => ({ ...NO_USAGE, calls: n });
    try {
      const { value, attempts } = await postJson(
        {
          url,
          apiKey: o.apiKey,
          body,
          signal: request.signal,
          label: 'model',
          codes: { failed: 'MODEL_ERROR', timeout: 'MODEL_TIMEOUT' },
          parse: (text) => parseCompletion(text, estimate),
        },
        o,
      );
      return { ...value, usage: addUsage(failedCalls(attempts - 1), value.usage) };
    } catch (error) {
      if (!isMemoryError(error)) throw error;
      const attempts = Number(error.data?.attempts ?? 1);
      throw new MemoryError(error.code, error.message, { ...error.data, usage: failedCalls(attempts) });
    }
  }

  return {
    name: `openai-compatible:${o.model}`,
    chat(request) {
      const result = tail.then(() => run(request));
      tail = result.catch(() => undefined);
      return result;
    },
  };
}

function parseCompletion(
  text: string,
  estimate: number,
): { ok: true; value: ChatResult } | { ok: false; message: string } {
  let parsed: z.infer<typeof ResponseSchema>;
  try {
    parsed = ResponseSchema.parse(JSON.parse(text));
  } catch {
    return { ok: false, message: `the model response is not a chat completion: ${text.slice(0, 300)}` };
  }
  const content = parsed.choices[0]?.message.content ?? '';
  const usage: ChatUsage = {
    calls: 1,
    prompt_tokens: parsed.usage?.prompt_tokens ?? estimate,
    completion_tokens: parsed.usage?.completion_tokens ?? estimateTokens(content),
  };
  return { ok: true, value: { content, usage } };
}
