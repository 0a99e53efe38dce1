// The public API of the mnemo package.
export { openMemory, type MemoryService, type MemoryServiceOptions } from './service.js';
export { createMethodTable } from './protocol/methods.js';
export { createLocalClient, type LocalClient } from './local-client.js';
export { createSocketClient, createHttpClient, type MnemoClient } from './client.js';
export { connect, type ConnectOptions } from './connect.js';
export type { MemoryClient, RetryOptions } from './memory-client.js';
export type { MethodName, MethodParams, MethodResult } from './protocol/catalog.js';
export { readHttpToken } from './protocol/http-token.js';
export { startServer, type RunningServer } from './server.js';
export { loadConfig, type Config, type ConfigOverrides } from './config.js';
export { MemoryError, ERROR_CODES, type ErrorCode } from './errors.js';
export { quoteAsData, scoreSafety, SAFETY_THRESHOLDS } from './inject/safety.js';
export type { EventInput, IngestResult, StoredEvent } from './ingest/schema.js';
export type { RecallItem, RecallParams, RecallResult } from './recall/schema.js';
