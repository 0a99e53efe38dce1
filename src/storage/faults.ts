// Faults of the store that are not bugs: a full disk, a read-only or locked database, an I/O error. They
// become STORAGE_UNAVAILABLE (retryable), so clients retry later and nothing acknowledged is at stake.
import { MemoryError } from '../errors.js';

const UNAVAILABLE = /^SQLITE_(FULL|READONLY|BUSY|LOCKED|IOERR|CANTOPEN|PROTOCOL|NOLFS)/;

/** Postgres SQLSTATE classes of the same kind: insufficient resources, connection, lock, read-only. */
const UNAVAILABLE_SQLSTATE = /^(53|08|57P|55P03|40P01|25006)/;

/** A PostgreSQL server out of reach: the socket's errors, and pg's own for a dropped connection (no code). */
const UNREACHABLE =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/;
const DROPPED = /^(Connection terminated|Client has encountered a connection error|Client was closed)/;

/** The reason a store fault gives, or undefined for an error that is not one. */
function faultReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    return UNAVAILABLE.test(code) || UNAVAILABLE_SQLSTATE.test(code) || UNREACHABLE.test(code)
      ? code
      : undefined;
  }
  return error instanceof Error && DROPPED.test(error.message) ? 'CONNECTION_LOST' : undefined;
}

export function storageFault(error: unknown): MemoryError | undefined {
  if (error instanceof MemoryError) return undefined;
  const reason = faultReason(error);
  if (reason === undefined) return undefined;
  return new MemoryError(
    'STORAGE_UNAVAILABLE',
    'the store cannot be written or read right now; nothing was changed, retry later',
    { reason },
    { cause: error },
  );
}

/** Rethrows a store fault as STORAGE_UNAVAILABLE; any other error as it is. */
export function rethrowFault(error: unknown): never {
  throw storageFault(error) ?? error;
}
