// The knowledge layer below the stages: memories' lifecycle, facts over time, duplicates, revocation,
// objects, aliases and relations. Observation's publish writes into it, recall reads it, methods call it.
export type { DirectMemory, PublishDirect } from './direct.js';
export { DEFAULT_TIME_ZONE } from './evidence.js';
export { mergeDuplicate, settleMemory, type KnowledgeContext, type PublishedMemory } from './facts.js';
export { factHistory, resolveConflict } from './history.js';
export { LIFECYCLES, reportedStatus, type Lifecycle } from './lifecycle.js';
export { renormMemories } from './renorm.js';
export { retireStaleCandidates } from './retire.js';
export { revokeMemory } from './revoke.js';
export { recordOutcomes, type OutcomeEvent } from './skill-evidence.js';
export { noteRecalledProcedures } from './skill-status.js';
export {
  memoryVisibility,
  objectVisibility,
  RECALL_VISIBILITY_PARAMS,
  visibilityOf,
  visibleMemory,
  visibleObject,
  type VisibilityOptions,
} from './visibility.js';
export { forgetItems, type AfterForget, type ForgetDeps } from './forget.js';
export {
  linkedEvents,
  namesOf,
  objectsForQuery,
  type LinkedEvent,
  type NamedObject,
} from './alias-lookup.js';
export { normName, normText } from './names.js';
export { isWriteNote } from './note.js';
export { OBJECT_DOC_KIND, objectIndexDoc, storedObjectDoc } from './object-index.js';
export { redactObjects, type CredentialIssue, type RedactableObject } from './object-redact.js';
export {
  writeObjects,
  type ObjectInput,
  type ObjectOutcome,
  type RelationInput,
  type WriteOutcome,
} from './object-write.js';
export {
  MAX_ALIASES,
  MAX_BODY,
  MAX_NAME,
  OBJECT_STATUSES,
  OBJECT_TYPES,
  getObjects,
  type ObjectRow,
  type ObjectStatus,
  type ObjectType,
} from './objects.js';
export { RELATION_TYPE } from './relations.js';
export { projectScope } from './project-ref.js';
export { trackEntries, type EntryRow, type ProjectScope } from './track-view.js';
export type { Track } from './tracks-schema.js';
