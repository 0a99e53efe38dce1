// `mnemo reindex` and `mnemo projection rebuild`: the search index and the Markdown files written again
// from the database, which is authoritative; the store is opened directly (a running server may keep
// serving: recall sees a partial index meanwhile, file writes take the projection lock).
import type { Config } from '../../config.js';
import { rebuildProjection } from '../../projection/projection.js';
import { rebuildIndex } from '../../reindex.js';
import { openMemory } from '../../service.js';
import { createProgress } from '../progress.js';

type Io = { out: NodeJS.WritableStream; err: NodeJS.WritableStream };

export async function reindexCommand(config: Config, owner: string | undefined, io: Io): Promise<number> {
  const service = await openMemory({ config });
  const progress = createProgress(io.err, 'reindex', 'documents');
  try {
    const started = Date.now();
    const done = await rebuildIndex(service.driver, (p) => progress.update(p.done, p.total), {
      owner,
      recreate: owner === undefined,
    });
    progress.stop();
    const scope = owner === undefined ? 'every owner' : owner;
    io.out.write(`reindexed ${done.done} document(s) of ${scope} in ${Date.now() - started} ms\n`);
    return 0;
  } finally {
    await service.close();
  }
}

export async function projectionRebuildCommand(
  config: Config,
  owner: string | undefined,
  json: boolean,
  io: Io,
): Promise<number> {
  const service = await openMemory({ config });
  try {
    const result = await rebuildProjection(
      { driver: service.driver, dataDir: config.dataDir, now: service.now },
      owner,
    );
    io.out.write(
      json
        ? `${JSON.stringify(result)}\n`
        : `rebuilt ${result.files} object file(s) of ${result.objects} object(s) and ${result.core_files} core file(s) ` +
            `for ${result.owners} owner(s); removed ${result.removed} stray file(s); ${result.failed} failed\n`,
    );
    return result.failed > 0 ? 1 : 0;
  } finally {
    await service.close();
  }
}
