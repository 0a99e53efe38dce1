// Column types for the small schemas every read goes through: engines return numbers as numbers (SQLite) or
// as strings (PostgreSQL bigint, numeric), booleans as 0/1 or true/false; the schema gives stages one shape.
import { z } from 'zod';

export const int = z.coerce.number().int();
export const num = z.coerce.number();
export const str = z.string();
export const nstr = z.string().nullable();
export const nint = z.coerce.number().int().nullable();
export const bool = z
  .union([z.boolean(), z.number(), z.string()])
  .transform((v) => v === true || v === 1 || v === 't' || v === '1');

/** A row schema: the columns a read selects. */
export const row = <S extends z.ZodRawShape>(shape: S) => z.object(shape);

/** `count(*) AS n`, and other single numbers. */
export const CountRow = row({ n: int });
