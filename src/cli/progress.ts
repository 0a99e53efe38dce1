// Progress of a long command on stderr: a bar on a terminal, else a plain line at each tenth of the way.
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

const isTty = (stream: NodeJS.WritableStream): boolean =>
  'isTTY' in stream && (stream as NodeJS.WriteStream).isTTY === true;

export function createProgress(err: NodeJS.WritableStream, label: string, unit: string): Progress {
  if (isTty(err)) {
    const bar = new cliProgress.SingleBar(
      {
        stream: err as NodeJS.WriteStream,
        format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {eta_formatted} left`,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(done, total) {
        if (!started) bar.start(total, done);
        else bar.update(done);
        started = true;
      },
      stop: () => started && bar.stop(),
    };
  }
  let shown = -1;
  return {
    update(done, total) {
      const tenth = total === 0 ? 10 : Math.floor((done * 10) / total);
      if (tenth <= shown) return;
      shown = tenth;
      err.write(`${label}: ${tenth * 10}% (${done}/${total} ${unit})\n`);
    },
    stop() {},
  };
}
