// The MemoryError a call rejects with; any other outcome fails the test.
import { MemoryError } from '../../src/errors.js';

export async function errorOf(call: Promise<unknown>): Promise<MemoryError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof MemoryError) return error;
    throw error;
  }
  throw new Error('expected an error');
}
