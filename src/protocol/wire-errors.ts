// The one place where error codes become wire errors and HTTP statuses.
import type { z } from 'zod';
import { ERROR_CODES, isMemoryError, RETRYABLE_CODES, type ErrorCode } from '../errors.js';

export interface WireError {
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
  /** The same request may succeed later unchanged (the store, the server or a limit recovers). */
  retryable?: true;
}

/** Codes whose request may be sent again as it is. */
export const RETRYABLE: ReadonlySet<ErrorCode> = RETRYABLE_CODES;

const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  INVALID_JSON: 400,
  INVALID_REQUEST: 400,
  INVALID_PARAMS: 400,
  EVENT_INVALID: 400,
  PROPOSAL_INVALID: 422,
  CREDENTIAL_VALUE_REFUSED: 422,
  UNKNOWN_METHOD: 404,
  NOT_FOUND: 404,
  BATCH_NOT_FOUND: 404,
  REQUEST_TOO_LARGE: 413,
  REQUEST_TOO_LONG: 413,
  // The server could not send what it computed: its fault, not the request's syntax.
  RESPONSE_TOO_LARGE: 500,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  // The caller lacks the user's approval, not a permission: sent again unchanged it fails again.
  APPROVAL_REQUIRED: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  STORAGE_UNAVAILABLE: 503,
  EVENT_CONFLICT: 409,
  LEASE_LOST: 409,
  REVISION_CONFLICT: 409,
  ALREADY_DECIDED: 409,
  // Gone for good: the same packet id never becomes deliverable again.
  PACKET_EXPIRED: 410,
  TOO_MANY_CONNECTIONS: 503,
  SHUTTING_DOWN: 503,
  SERVER_UNAVAILABLE: 503,
  IDLE_TIMEOUT: 408,
  REQUEST_TIMEOUT: 408,
  SLOW_CONSUMER: 429,
  MODEL_ERROR: 502,
  MODEL_TIMEOUT: 504,
  EMBEDDING_FAILED: 502,
  EMBEDDING_TIMEOUT: 504,
};

export const httpStatusOf = (code: ErrorCode): number => HTTP_STATUS[code] ?? 500;

/** Issues of a failed zod parse, each naming its field path. */
export function zodIssues(error: z.ZodError): Array<{ path: string; message: string; code: string }> {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
    code: issue.code,
  }));
}

export function toWireError(error: unknown): WireError {
  if (isMemoryError(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
      ...(RETRYABLE.has(error.code) ? { retryable: true as const } : {}),
    };
  }
  return { code: 'INTERNAL', message: ERROR_CODES.INTERNAL };
}
