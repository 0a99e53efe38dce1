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
export { createOpenAiProvider, OPENAI_DEFAULTS, retryAfterMs, type OpenAiOptions } from './openai.js';
export { estimateTokens } from './tokens.js';
export { loadPrompt, type Prompt } from './prompts.js';
