// `mnemo forget <id...> [--with-events]`: deletes memories or objects for real, asking nothing; prints what
// went, by kind, or --json.
import type { Config } from '../../config.js';
import { connect } from '../client.js';

export interface ForgetCommandOptions {
  owner: string;
  withEvents: boolean;
  json: boolean;
}

export async function forgetCommand(
  config: Config,
  ids: readonly string[],
  options: ForgetCommandOptions,
  out: NodeJS.WritableStream,
): Promise<number> {
  const conn = await connect(config);
  try {
    const result = await conn.call('memory.forget', {
      owner: options.owner,
      ids: [...ids],
      with_events: options.withEvents,
    });
    if (options.json) {
      out.write(`${JSON.stringify(result)}\n`);
      return 0;
    }
    const c = result.counts;
    out.write(
      `forgot ${c.memories} memories, ${c.objects} objects, ${c.events} events, ${c.relations} relations ` +
        `(${c.index_entries} index entries, ${c.vectors} vectors, ${c.cached_answers} cached answers, ` +
        `${c.inbox_items} inbox items)\n`,
    );
    for (const id of [...result.forgotten.memories, ...result.forgotten.objects]) out.write(`  ${id}\n`);
    return 0;
  } finally {
    await conn.close();
  }
}
