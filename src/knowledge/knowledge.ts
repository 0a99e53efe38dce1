// The knowledge layer below the stages: memories' lifecycle, facts over time, duplicates, revocation.
// Observation's publish writes into it, recall reads it, methods call it.
export { DEFAULT_TIME_ZONE } from './evidence.js';
export { mergeDuplicate, settleMemory, type KnowledgeContext, type PublishedMemory } from './facts.js';
export { factHistory, resolveConflict } from './history.js';
export { LIFECYCLES, reportedStatus, type Lifecycle } from './lifecycle.js';
export { renormMemories } from './renorm.js';
export { retireStaleCandidates } from './retire.js';
export { revokeMemory } from './revoke.js';
export {
  memoryVisibility,
  RECALL_VISIBILITY_PARAMS,
  visibilityOf,
  visibleMemory,
  type VisibilityOptions,
} from './visibility.js';
