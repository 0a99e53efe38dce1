// The handler of memory.forget; `afterForget` (the object projection files) runs once the deletion commits.
import type { Handlers } from '../protocol/catalog.js';
import { forgetItems, type ForgetDeps } from './forget.js';

export function forgetHandlers(deps: ForgetDeps): Handlers<'memory.forget'> {
  return { 'memory.forget': (p) => forgetItems(deps, p) };
}
