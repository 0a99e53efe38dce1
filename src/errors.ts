// The error catalog: every code mnemo can answer with, and the one error class that carries it.

export const ERROR_CODES = {
  INVALID_JSON: 'The request is not valid JSON.',
  INVALID_REQUEST: 'The request envelope is malformed.',
  INVALID_PARAMS: 'The params do not match the method schema.',
  UNKNOWN_METHOD: 'No such method.',
  REQUEST_TOO_LARGE: 'The request exceeds the size limit.',
  RESPONSE_TOO_LARGE: 'The response exceeds the size limit; ask for less (a smaller limit or fewer ids).',
  REQUEST_TOO_LONG: 'The current request does not fit the context budget; it is never cut, shorten it.',
  IDLE_TIMEOUT: 'The connection was idle for too long.',
  REQUEST_TIMEOUT: 'A request line did not arrive in time.',
  SLOW_CONSUMER: 'The client did not read its answers in time.',
  TOO_MANY_CONNECTIONS: 'Too many concurrent connections.',
  UNAUTHORIZED: 'A valid bearer token is required.',
  FORBIDDEN: 'This caller may not do that.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body must be application/json.',
  NOT_FOUND: 'Nothing with that id exists for this owner.',
  EVENT_INVALID: 'The event is not valid.',
  EVENT_CONFLICT: 'An event with this id exists with different content.',
  REVISION_CONFLICT: 'The document changed since the expected revision; read it again and retry.',
  LEASE_LOST: 'The lease token is stale or the lease expired and was taken by another worker.',
  BATCH_NOT_FOUND: 'No such observation batch.',
  PROPOSAL_INVALID: 'The proposal failed validation.',
  CREDENTIAL_VALUE_REFUSED: 'A credential_ref names where a credential lives, never the credential itself.',
  APPROVAL_REQUIRED: 'This needs an explicit approval by the user first.',
  ALREADY_DECIDED: 'This was decided already; a decision is made once.',
  PACKET_EXPIRED: 'The memory packet expired before it was delivered; build a new one.',
  SCHEMA_TOO_NEW: 'The database was written by a newer mnemo.',
  MIGRATION_FAILED: 'A schema migration failed.',
  SOCKET_IN_USE: 'Another mnemo instance answers on this socket.',
  HTTP_TOKEN_REQUIRED:
    'A non-loopback HTTP address is served only with a bearer token (MNEMO_HTTP_AUTH=off is for loopback).',
  CONFIG_INVALID: 'The configuration is not valid.',
  SHUTTING_DOWN: 'The server is shutting down.',
  STORAGE_UNAVAILABLE:
    'The store cannot be written or read right now (disk full, read-only or locked); retry later.',
  SERVER_UNAVAILABLE: 'No mnemo server answered.',
  MODEL_ERROR: 'The model provider failed.',
  MODEL_TIMEOUT: 'The model did not answer in time.',
  EMBEDDING_FAILED: 'The embedding provider failed.',
  EMBEDDING_TIMEOUT: 'The embedding provider did not answer in time.',
  INTERNAL: 'Internal error.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes whose request may be sent again as it is: the store, the server or a limit recovers. */
export const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'STORAGE_UNAVAILABLE',
  'SHUTTING_DOWN',
  'TOO_MANY_CONNECTIONS',
  'SERVER_UNAVAILABLE',
]);

export interface ErrorIssue {
  path: string;
  message: string;
  code?: string;
}

export class MemoryError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    data?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message ?? ERROR_CODES[code], options);
    this.name = 'MemoryError';
    this.code = code;
    this.data = data;
  }

  /** The same request may succeed later unchanged (the wire's `retryable: true`). */
  get retryable(): boolean {
    return RETRYABLE_CODES.has(this.code);
  }
}

export function isMemoryError(value: unknown): value is MemoryError {
  return value instanceof MemoryError;
}

/** Expected outcomes are values, not throws. */
export type Result<T, E = ErrorIssue[]> = { ok: true; value: T } | { ok: false; issues: E };
