// Markdown projections: each object as a Markdown file a person can read and edit in any editor (Obsidian
// links between related objects), a schedule's folder, written after the database commits. The database is
// authoritative: rebuild writes every file from it, byte for byte.
export { rebuildProjection, type RebuildResult } from './rebuild.js';
export { projectionHealth, type ProjectionHealth } from './store.js';
export { SWEEP_OVERLAP_MS, syncChanges } from './sweep.js';
export { ownerRoot, syncObjectFiles, type ProjectionDeps, type SyncResult } from './sync.js';
export { PROJECTED_METHODS, projectAfterWrites } from './methods.js';
export { createProjectionWorker, PROJECTION_WORKER } from './worker.js';
