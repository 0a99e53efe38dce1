// The read methods the inspector added, as the catalog declares them (spread into protocol/catalog.ts).
import { spec } from '../protocol/method.js';
import {
  HealthHistoryParamsSchema,
  HealthHistoryResultSchema,
  MemoryBrowseParamsSchema,
  MemoryBrowseResultSchema,
} from './schema.js';

export const INSPECTOR_METHODS = {
  'memory.browse': spec({
    summary:
      'Every memory newest first (kinds, lifecycles), with status, validity and sources, a page at a time.',
    params: MemoryBrowseParamsSchema,
    result: MemoryBrowseResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'health.history': spec({
    summary: 'Events, memories and objects stored per UTC day, counts per owner, recall latencies measured.',
    params: HealthHistoryParamsSchema,
    result: HealthHistoryResultSchema,
    access: 'read',
    owner: 'optional',
  }),
} as const;
