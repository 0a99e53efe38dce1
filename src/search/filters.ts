// Filters every channel applies on search_docs, as SQL fragments with parameters.
import type { SqlValue } from '../storage/driver.js';

export interface DocFilters {
  owner: string;
  kinds?: readonly string[];
  from?: number;
  to?: number;
  sessionId?: string;
  taskId?: string;
  /** Keep documents whose time falls in any of these spans (both ends inclusive). */
  spans?: readonly { from: number; to: number }[];
}

export function filterSql(f: DocFilters, alias = 'd'): { where: string; params: SqlValue[] } {
  // invariant: every search query is scoped to one owner (test: recall never crosses owners).
  const parts = [`${alias}.owner = ?`];
  const params: SqlValue[] = [f.owner];
  if (f.kinds && f.kinds.length > 0) {
    parts.push(`${alias}.kind IN (${f.kinds.map(() => '?').join(', ')})`);
    params.push(...f.kinds);
  }
  if (f.from !== undefined) {
    parts.push(`${alias}.at >= ?`);
    params.push(f.from);
  }
  if (f.to !== undefined) {
    parts.push(`${alias}.at <= ?`);
    params.push(f.to);
  }
  if (f.spans && f.spans.length > 0) {
    parts.push(`(${f.spans.map(() => `${alias}.at BETWEEN ? AND ?`).join(' OR ')})`);
    for (const span of f.spans) params.push(span.from, span.to);
  }
  if (f.sessionId !== undefined) {
    parts.push(`${alias}.session_id = ?`);
    params.push(f.sessionId);
  }
  if (f.taskId !== undefined) {
    parts.push(`${alias}.task_id = ?`);
    params.push(f.taskId);
  }
  return { where: parts.join(' AND '), params };
}
