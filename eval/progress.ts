// Progress while the harness runs: a cli-progress bar on a terminal, one summary line otherwise.
import cliProgress from 'cli-progress';

export interface Progress {
  start(total: number, label: string): void;
  tick(detail: string): void;
  /** What runs between questions (embedding a store), shown without counting a query. */
  detail(detail: string): void;
  stop(summary: string): void;
}

export const silentProgress: Progress = { start() {}, tick() {}, detail() {}, stop() {} };

export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) {
    return {
      start() {},
      tick() {},
      detail() {},
      stop: (summary) => void stream.write(`${summary}\n`),
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format:
        '{label} [{bar}] {value}/{total} queries | {detail} | {duration_formatted} elapsed, eta {eta_formatted}',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  return {
    start: (total, label) => bar.start(total, 0, { label, detail: '' }),
    tick: (detail) => bar.increment(1, { detail }),
    detail: (detail) => bar.update({ detail }),
    stop: (summary) => {
      bar.stop();
      stream.write(`${summary}\n`);
    },
  };
}
