// The README says what the code does: every error code a client can receive is in its table, with the
// HTTP status the wire gives it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../src/errors.js';
import { httpStatusOf, RETRYABLE } from '../src/protocol/wire-errors.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('regression for issue 8: lists every error code with its HTTP status and whether it is retryable', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const row = readme.split('\n').find((line) => new RegExp(`^\\| \`${code}\` +\\|`).test(line));
      expect(row, code).toBeDefined();
      const [, , status, retryable] = (row ?? '').split('|').map((cell) => cell.trim());
      expect(Number(status), code).toBe(httpStatusOf(code));
      expect(retryable === 'yes', code).toBe(RETRYABLE.has(code));
    }
  });
});
