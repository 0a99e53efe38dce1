// `mnemo eval <dataset>`: runs the recall benchmark harness in eval/ and prints where the results went.
import type { DatasetName } from '../../../eval/types.js';

export interface EvalCommandOptions {
  data?: string;
  k: number[];
  out?: string;
  subset?: number;
  baseline: boolean;
}

export async function evalCommand(
  dataset: DatasetName,
  options: EvalCommandOptions,
  io: { out: NodeJS.WritableStream; err: NodeJS.WriteStream },
): Promise<number> {
  // Loaded on demand: the harness and its baseline library are only needed here.
  const { runEval } = await import('../../../eval/run.js');
  const { createProgress } = await import('../../../eval/progress.js');
  const result = await runEval({
    dataset,
    ks: options.k,
    baseline: options.baseline,
    progress: createProgress(io.err),
    ...(options.data !== undefined ? { dataFile: options.data } : {}),
    ...(options.out !== undefined ? { outDir: options.out } : {}),
    ...(options.subset !== undefined ? { subset: options.subset } : {}),
  });
  if (!result.ok) {
    for (const issue of result.issues) io.err.write(`mnemo eval: ${issue}\n`);
    return 2;
  }
  const { files } = result.value;
  io.out.write(`report   ${files.report}\nmetrics  ${files.metrics}\nqueries  ${files.questions}\n`);
  return 0;
}
