// `mnemo inspect objects|events|nodes|jobs`: read-only tables (100 columns, CJK counted as two) or JSON
// lines, from the store opened read-only (SQLite) or read with SELECTs only (PostgreSQL).
import { existsSync } from 'node:fs';
import type { Config } from '../../config.js';
import { MemoryError } from '../../errors.js';
import { databaseFile } from '../../service.js';
import type { Driver } from '../../storage/driver.js';
import { openPostgres } from '../../storage/postgres.js';
import { openSqlite } from '../../storage/sqlite.js';
import { readView, type InspectView } from '../inspect-views.js';
import { renderTable } from '../text-width.js';

async function openReadOnly(config: Config): Promise<Driver> {
  if (config.database) return openPostgres({ ...config.database, poolSize: 1 });
  const path = databaseFile(config.dataDir);
  if (!existsSync(path)) throw new MemoryError('NOT_FOUND', `no store at ${path}`, { path });
  return openSqlite({ path, readonly: true });
}

export async function inspectCommand(
  config: Config,
  name: InspectView,
  options: { owner?: string | undefined; limit: number; json: boolean },
  out: NodeJS.WritableStream,
): Promise<number> {
  const db = await openReadOnly(config);
  try {
    const rows = await readView(db, name, options);
    if (options.json) for (const r of rows.json) out.write(`${JSON.stringify(r)}\n`);
    else if (rows.cells.length === 0) out.write(`no ${name}\n`);
    else out.write(renderTable(rows.header, rows.cells));
    return 0;
  } finally {
    await db.close();
  }
}
