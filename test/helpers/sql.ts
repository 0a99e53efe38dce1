// Raw reads for test assertions: rows as the engine returns them (numbers as numbers on both engines).
import { z } from 'zod';
import type { Queryable, SqlValue } from '../../src/storage/driver.js';

const AnyRow = z.record(z.string(), z.unknown());

export const sqlRows = <T = Record<string, unknown>>(
  db: Queryable,
  sql: string,
  params: readonly SqlValue[] = [],
) => db.all(AnyRow, sql, params) as Promise<T[]>;

export const sqlFirst = async <T = Record<string, unknown>>(
  db: Queryable,
  sql: string,
  params: readonly SqlValue[] = [],
): Promise<T | undefined> => (await db.one(AnyRow, sql, params)) as T | undefined;
