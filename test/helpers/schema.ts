// The logical schema of a store, read from the engine's catalog: tables, columns (coarse type, nullability),
// primary key, unique keys and foreign keys, in one shape for both engines so that they can be compared.
import type { Queryable } from '../../src/storage/driver.js';
import { sqlRows } from './sql.js';

export interface TableShape {
  columns: Record<string, { type: string; nullable: boolean }>;
  primaryKey: string[];
  /** Column lists of unique constraints and unique indexes (the primary key apart), sorted. */
  unique: string[];
  /** `columns -> table(columns)`, sorted. */
  foreignKeys: string[];
}
export type SchemaShape = Record<string, TableShape>;

/** Types as mnemo uses them: every integer width is an integer, every string type text. */
function coarseType(declared: string): string {
  const t = declared.toLowerCase();
  if (/int/.test(t)) return 'integer';
  if (/char|text|clob/.test(t)) return 'text';
  if (/real|floa|doub|numeric/.test(t)) return 'real';
  if (/bool/.test(t)) return 'boolean';
  if (/blob|bytea/.test(t) || t === '') return 'blob';
  return t;
}

interface SqliteColumn {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

export async function sqliteSchema(db: Queryable, exclude: (table: string) => boolean): Promise<SchemaShape> {
  const tables = await sqlRows<{ name: string }>(
    db,
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
  );
  const out: SchemaShape = {};
  for (const { name } of tables.filter((t) => !exclude(t.name))) {
    const cols = await sqlRows<SqliteColumn>(
      db,
      'SELECT name, type, "notnull", pk FROM pragma_table_info(?)',
      [name],
    );
    const primaryKey = cols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const indexes = await sqlRows<{ name: string; origin: string }>(
      db,
      `SELECT name, origin FROM pragma_index_list(?) WHERE "unique" = 1 AND origin != 'pk'`,
      [name],
    );
    const unique: string[] = [];
    for (const index of indexes) {
      const keyCols = await sqlRows<{ name: string }>(
        db,
        'SELECT name FROM pragma_index_info(?) ORDER BY seqno',
        [index.name],
      );
      unique.push(keyCols.map((c) => c.name).join(','));
    }
    const fks = await sqlRows<{ id: number; table: string; from: string; to: string }>(
      db,
      'SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq',
      [name],
    );
    const byId = new Map<number, { table: string; from: string[]; to: string[] }>();
    for (const fk of fks) {
      const entry = byId.get(fk.id) ?? { table: fk.table, from: [], to: [] };
      entry.from.push(fk.from);
      entry.to.push(fk.to);
      byId.set(fk.id, entry);
    }
    out[name] = {
      columns: Object.fromEntries(
        cols.map((c) => [c.name, { type: coarseType(c.type), nullable: c.notnull === 0 && c.pk === 0 }]),
      ),
      primaryKey,
      unique: unique.sort(),
      foreignKeys: [...byId.values()]
        .map((f) => `${f.from.join(',')} -> ${f.table}(${f.to.join(',')})`)
        .sort(),
    };
  }
  return out;
}

export async function postgresSchema(
  db: Queryable,
  exclude: (table: string) => boolean,
): Promise<SchemaShape> {
  const tables = await sqlRows<{ name: string }>(
    db,
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: SchemaShape = {};
  for (const { name } of tables.filter((t) => !exclude(t.name))) {
    const cols = await sqlRows<{ name: string; type: string; nullable: string }>(
      db,
      `SELECT column_name AS name, data_type AS type, is_nullable AS nullable FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
      [name],
    );
    // Keys from the catalog: each index or constraint with its columns in key order.
    const keys = await sqlRows<{ kind: string; cols: string; target: string | null }>(
      db,
      `SELECT CASE WHEN i.indisprimary THEN 'p' ELSE 'u' END AS kind,
              (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS cols,
              NULL AS target
         FROM pg_index i WHERE i.indrelid = (quote_ident(current_schema()) || '.' || quote_ident(?))::regclass
          AND i.indisunique
       UNION ALL
       SELECT 'f',
              (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum),
              (SELECT c.confrelid::regclass::text || '(' || string_agg(a.attname, ',' ORDER BY k.n) || ')'
                 FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum)
         FROM pg_constraint c WHERE c.contype = 'f'
          AND c.conrelid = (quote_ident(current_schema()) || '.' || quote_ident(?))::regclass`,
      [name, name],
    );
    out[name] = {
      columns: Object.fromEntries(
        cols.map((c) => [c.name, { type: coarseType(c.type), nullable: c.nullable === 'YES' }]),
      ),
      primaryKey: keys.find((k) => k.kind === 'p')?.cols.split(',') ?? [],
      unique: keys
        .filter((k) => k.kind === 'u')
        .map((k) => k.cols)
        .sort(),
      foreignKeys: keys
        .filter((k) => k.kind === 'f')
        .map((k) => `${k.cols} -> ${k.target ?? ''}`)
        .sort(),
    };
  }
  return out;
}
