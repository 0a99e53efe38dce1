// The safety tests' inputs: a tool result (maybe from a page, an e-mail or a file) and the rules' verdict alone,
// without the learned signal (test/safety-model.test.ts tests that).
import type { SafetyInput, SafetySource } from '../../src/inject/safety-schema.js';
import { scoreSafety } from '../../src/inject/safety.js';

export const tool = (text: string, source?: SafetySource): SafetyInput => ({
  text,
  kind: 'tool_result',
  role: 'tool',
  ...(source ? { source } : {}),
});
export const rules = (input: SafetyInput) => scoreSafety(input, { learned: false });
export const action = (input: SafetyInput) => rules(input).action;
export const codes = (input: SafetyInput) => rules(input).reasons.map((r) => r.code);
