// A scripted OpenAI-compatible chat server on 127.0.0.1 (a real HTTP server, port 0), for model-path tests.
import type { IncomingMessage } from 'node:http';
import { estimateTokens } from '../../src/text/tokens.js';
import { startScriptedServer, type BaseStep } from './scripted-server.js';

export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  max_tokens?: number;
  temperature?: number;
  response_format?: { type: string };
}

/** One scripted answer: a chat completion with `content` (or `json`), or a raw status/body, or no answer. */
export interface ScriptStep extends BaseStep {
  content?: string;
  json?: unknown;
  /** Leave usage out of the completion (the provider must estimate). */
  noUsage?: boolean;
}

export type Scripted = ScriptStep | ((body: ChatBody) => ScriptStep);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: ChatBody;
}

export interface ScriptedModel {
  /** Base URL as MNEMO_MODEL_BASE_URL would hold it (…/v1). */
  url: string;
  requests: RecordedRequest[];
  /** Most requests in flight at once. */
  maxInFlight: number;
  /** Usage reported so far (estimated: ~1 token per CJK char, 0.3 per other char). */
  usage: { prompt_tokens: number; completion_tokens: number };
  push(...steps: Scripted[]): void;
  close(): Promise<void>;
}

export async function startScriptedModel(
  steps: Scripted[] = [],
  options: { fallback?: Scripted } = {},
): Promise<ScriptedModel> {
  const queue = [...steps];
  let inFlight = 0;
  const model: ScriptedModel = {
    url: '',
    requests: [],
    maxInFlight: 0,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    push: (...more) => void queue.push(...more),
    close: () => server.close(),
  };
  const server = await startScriptedServer<ChatBody, ScriptStep>({
    path: '/v1/chat/completions',
    record(req, body, res) {
      inFlight++;
      model.maxInFlight = Math.max(model.maxInFlight, inFlight);
      res.on('close', () => inFlight--);
      model.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    },
    next(body) {
      const next = queue.shift() ?? options.fallback;
      return typeof next === 'function' ? next(body) : next;
    },
    answer(body, step, res, headers) {
      const content = step.content ?? JSON.stringify(step.json ?? {});
      const usage = {
        prompt_tokens: estimateTokens(body.messages.map((m) => m.content).join('\n')),
        completion_tokens: estimateTokens(content),
      };
      model.usage.prompt_tokens += usage.prompt_tokens;
      model.usage.completion_tokens += usage.completion_tokens;
      const completion = {
        id: `chatcmpl-${model.requests.length}`,
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        ...(step.noUsage
          ? {}
          : { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
      };
      res.writeHead(200, headers).end(JSON.stringify(completion));
    },
  });
  model.url = server.url;
  return model;
}

/** The batch the model was shown (the user message of the observe prompt). */
export function batchOf(body: ChatBody): {
  events: Array<{ event_id: string; kind: string; role: string; text: string; event_ids?: string[] }>;
} {
  const user = body.messages.find((m) => m.role === 'user');
  return JSON.parse(user?.content ?? '{"events":[]}') as ReturnType<typeof batchOf>;
}
