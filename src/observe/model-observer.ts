// The model observer: the versioned prompt plus the batch, one JSON chat call, the proposal out.
import { MemoryError } from '../errors.js';
import { loadPrompt, type ChatProvider } from '../llm/llm.js';
import type { Observer } from './observer.js';
import type { BatchEvent, ClaimedBatch } from './schema.js';

export const OBSERVE_PROMPT_VERSION = 1;
export const OBSERVE_MAX_OUTPUT_TOKENS = 3_000;

/** The minimal context the model sees: the batch's events, nothing about other batches or owners. */
export function renderBatch(batch: ClaimedBatch): string {
  const events = batch.events.map((e: BatchEvent) => ({
    event_id: e.event_id,
    kind: e.kind,
    role: e.role,
    at: e.at,
    ...(e.task_id ? { task_id: e.task_id } : {}),
    ...(e.session_id ? { session_id: e.session_id } : {}),
    ...(e.count ? { count: e.count, event_ids: e.event_ids } : {}),
    ...(e.part ? { part: 'a byte range of a longer event' } : {}),
    text: e.text,
  }));
  return JSON.stringify({ events });
}

/** Parses the model's JSON, tolerating a Markdown code fence around it. */
export function parseModelJson(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return JSON.parse(fenced?.[1] ?? content);
}

export function createModelObserver(provider: ChatProvider): Observer {
  const prompt = loadPrompt('observe', OBSERVE_PROMPT_VERSION);
  return {
    name: `model:${provider.name}:${prompt.id}`,
    async propose(batch, signal) {
      const { content, usage } = await provider.chat({
        messages: [
          { role: 'system', content: prompt.text },
          { role: 'user', content: renderBatch(batch) },
        ],
        json: true,
        maxTokens: OBSERVE_MAX_OUTPUT_TOKENS,
        signal,
      });
      try {
        return { proposal: parseModelJson(content), usage };
      } catch {
        throw new MemoryError('MODEL_ERROR', `the model returned malformed JSON: ${content.slice(0, 200)}`, {
          reason: 'malformed_json',
          usage,
        });
      }
    },
  };
}
