// Who writes a node's summary: the model when one is configured (one JSON chat call per step, the versioned
// compact prompt), the extractive summarizer otherwise.
import { MemoryError } from '../errors.js';
import { loadPrompt, NO_USAGE, type ChatProvider, type ChatUsage } from '../llm/llm.js';
import { EXTRACTIVE, summarizeExtractively } from './extractive.js';
import type { Piece } from './schema-jobs.js';

export interface Summary {
  text: string;
  usage: ChatUsage;
}

export interface Summarizer {
  /** Recorded on every node it writes. */
  readonly name: string;
  summarize(
    step: { level: number; pieces: readonly Piece[]; max_chars: number },
    signal?: AbortSignal,
  ): Promise<Summary>;
}

export const COMPACT_PROMPT_VERSION = 1;
export const COMPACT_MAX_OUTPUT_TOKENS = 1_500;

export function createExtractiveSummarizer(nodeTokens: number): Summarizer {
  return {
    name: EXTRACTIVE,
    summarize: async (step) => ({
      text: summarizeExtractively(step.pieces, nodeTokens),
      usage: { ...NO_USAGE },
    }),
  };
}

/** What the model sees: the pieces (heads of at most 1,200 characters), nothing of other owners or steps. */
export function renderPieces(step: { level: number; pieces: readonly Piece[]; max_chars: number }): string {
  const pieces = step.pieces.map((p) => ({
    ref: p.ref,
    at: p.at,
    ...(p.last_at ? { until: p.last_at } : {}),
    ...(p.role ? { role: p.role, kind: p.kind } : { summary_of_events: p.events }),
    text: p.text,
    ...(p.truncated ? { cut: `first 1,200 of ${p.length} characters` } : {}),
  }));
  return JSON.stringify({ level: step.level, max_chars: step.max_chars, pieces });
}

export function createModelSummarizer(provider: ChatProvider, nodeChars: number): Summarizer {
  const prompt = loadPrompt('compact', COMPACT_PROMPT_VERSION);
  return {
    name: `model:${provider.name}:${prompt.id}`,
    async summarize(step, signal) {
      const { content, usage } = await provider.chat({
        messages: [
          { role: 'system', content: prompt.text },
          {
            role: 'user',
            content: renderPieces({ ...step, max_chars: Math.min(step.max_chars, nodeChars) }),
          },
        ],
        json: true,
        maxTokens: COMPACT_MAX_OUTPUT_TOKENS,
        ...(signal ? { signal } : {}),
      });
      const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
      let summary: unknown;
      try {
        summary = (JSON.parse(fenced?.[1] ?? content) as { summary?: unknown }).summary;
      } catch {
        summary = undefined;
      }
      if (typeof summary !== 'string' || summary.trim() === '') {
        throw new MemoryError('MODEL_ERROR', `the model returned no summary: ${content.slice(0, 200)}`, {
          reason: 'malformed_json',
          usage,
        });
      }
      return { text: summary, usage };
    },
  };
}
