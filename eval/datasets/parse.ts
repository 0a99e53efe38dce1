// Reading dataset files into values: JSON or JSON lines, checked by a zod schema.
import type { z } from 'zod';
import type { Result } from '../types.js';

const issuesOf = (error: z.ZodError): string[] =>
  error.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);

export function parseJsonFile<T>(
  raw: string,
  schema: z.ZodType<T>,
  options: { lines?: boolean } = {},
): Result<T> {
  let value: unknown;
  try {
    value = options.lines
      ? raw
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as unknown)
      : JSON.parse(raw);
  } catch (error) {
    return {
      ok: false,
      issues: [`not valid JSON${options.lines ? ' lines' : ''}: ${(error as Error).message}`],
    };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesOf(parsed.error) };
}
