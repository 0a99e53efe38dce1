// Versioned prompt files, read next to this module (the build copies .md files into dist/).
import { readFileSync } from 'node:fs';

export interface Prompt {
  /** e.g. "observe-v1": recorded with what the prompt produced. */
  id: string;
  text: string;
}

const cache = new Map<string, Prompt>();

export function loadPrompt(name: 'observe' | 'compact', version: number): Prompt {
  const id = `${name}-v${version}`;
  let prompt = cache.get(id);
  if (!prompt) {
    prompt = { id, text: readFileSync(new URL(`./prompts/${id}.md`, import.meta.url), 'utf8') };
    cache.set(id, prompt);
  }
  return prompt;
}
