// Model providers behind one small interface, token estimates and versioned prompts.
export {
  addUsage,
  NO_USAGE,
  type ChatMessage,
  type ChatProvider,
  type ChatRequest,
  type ChatResult,
  type ChatUsage,
} from './provider.js';
export { createOpenAiProvider, OPENAI_DEFAULTS, type OpenAiOptions } from './openai.js';
export { postJson, retryAfterMs, sleepFor, type JsonPost, type RetryOptions } from './http.js';
export { estimateTokens } from '../text/tokens.js';
export { loadPrompt, type Prompt } from './prompts.js';
