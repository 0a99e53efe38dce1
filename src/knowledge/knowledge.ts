// The knowledge layer's front: what other folders use of objects, aliases and relations.
export {
  linkedEvents,
  namesOf,
  objectsForQuery,
  type LinkedEvent,
  type NamedObject,
} from './alias-lookup.js';
export { normName, normText } from './names.js';
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
