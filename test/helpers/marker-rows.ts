// Every table of a PostgreSQL store's schema whose rows hold a string: each row's text form is searched, so
// a new table is searched too without being named.
import type { Queryable } from '../../src/storage/driver.js';
import { int, row, str } from '../../src/storage/rows.js';

/** `table: needle` for each table of the current schema with a row holding the needle. */
export async function markerRows(db: Queryable, needles: readonly string[]): Promise<string[]> {
  const tables = await db.all(
    row({ name: str }),
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const hits: string[] = [];
  for (const { name } of tables) {
    for (const needle of needles) {
      const found = await db.one(
        row({ n: int }),
        `SELECT count(*)::int AS n FROM "${name}" t WHERE strpos(t::text, ?) > 0`,
        [needle],
      );
      if ((found?.n ?? 0) > 0) hits.push(`${name}: ${needle}`);
    }
  }
  return hits;
}
