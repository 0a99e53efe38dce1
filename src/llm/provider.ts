// The one small interface every model provider implements.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** Ask for a JSON object (`response_format: {type: "json_object"}`). */
  json?: boolean;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** Tokens spent, as the provider reported them (or estimated when it did not). */
export interface ChatUsage {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
}

export interface ChatResult {
  content: string;
  usage: ChatUsage;
}

export interface ChatProvider {
  readonly name: string;
  /** Throws MemoryError MODEL_ERROR or MODEL_TIMEOUT with `data.usage` of the calls already made. */
  chat(request: ChatRequest): Promise<ChatResult>;
}

export const addUsage = (a: ChatUsage, b: ChatUsage): ChatUsage => ({
  calls: a.calls + b.calls,
  prompt_tokens: a.prompt_tokens + b.prompt_tokens,
  completion_tokens: a.completion_tokens + b.completion_tokens,
});

export const NO_USAGE: Readonly<ChatUsage> = Object.freeze({
  calls: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
});
