// A scripted OpenAI-compatible chat server on 127.0.0.1 (a real HTTP server, port 0), for model-path tests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { estimateTokens } from '../../src/llm/tokens.js';

export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  max_tokens?: number;
  temperature?: number;
  response_format?: { type: string };
}

/** One scripted answer: a chat completion with `content` (or `json`), or a raw status/body, or no answer. */
export interface ScriptStep {
  status?: number;
  headers?: Record<string, string>;
  content?: string;
  json?: unknown;
  /** A raw response body instead of a chat completion. */
  raw?: string;
  /** Never answer (until the server closes). */
  hang?: boolean;
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
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  let inFlight = 0;
  const model: ScriptedModel = {
    url: '',
    requests: [],
    maxInFlight: 0,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    push: (...more) => void queue.push(...more),
    close: async () => {
      for (const res of hanging) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const answer = (body: ChatBody, res: ServerResponse): void => {
    const next = queue.shift() ?? options.fallback;
    const step = typeof next === 'function' ? next(body) : next;
    if (!step) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"script exhausted"}');
      return;
    }
    if (step.hang) {
      hanging.add(res);
      return;
    }
    const headers = { 'content-type': 'application/json', ...step.headers };
    if (step.raw !== undefined || (step.status !== undefined && step.status !== 200)) {
      res.writeHead(step.status ?? 200, headers).end(step.raw ?? '{"error":"scripted"}');
      return;
    }
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
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      inFlight++;
      model.maxInFlight = Math.max(model.maxInFlight, inFlight);
      res.on('close', () => inFlight--);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as ChatBody;
      model.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      answer(body, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  model.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
}

/** The batch the model was shown (the user message of the observe prompt). */
export function batchOf(body: ChatBody): {
  events: Array<{ event_id: string; kind: string; role: string; text: string; event_ids?: string[] }>;
} {
  const user = body.messages.find((m) => m.role === 'user');
  return JSON.parse(user?.content ?? '{"events":[]}') as ReturnType<typeof batchOf>;
}
