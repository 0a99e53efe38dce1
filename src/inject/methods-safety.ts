// The safety gate's method: a host scores any text before it stores or shows it.
import type { Handlers } from '../protocol/catalog.js';
import { scoreSafety } from './safety.js';

export function safetyHandlers(): Handlers<'memory.safety.check'> {
  return { 'memory.safety.check': async (p) => scoreSafety(p) };
}
