import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { RatingsFormat } from '../../data/RatingsFormat.js';
import { parsePositiveInt } from '../output.js';
import { stageProgress } from '../progress.js';
import { UsageError } from '../UsageError.js';
import { resolveFormat } from './data.js';

interface Opts {
  data: string;
  out?: string;
  quick?: boolean;
  workers?: number;
  horizon?: number;
  seeds?: number;
  rank?: number;
  format?: string;
  doc?: string;
  warmStart?: boolean;
  coldStart?: boolean;
}

/** The ratings file of `data` (a file, or a directory holding one of the dataset's official names) and its format. */
export async function locate(
  dataset: 'movielens' | 'jester',
  data: string,
  format?: string,
): Promise<{ source: string; format: RatingsFormat }> {
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(data);
  } catch {
    throw new UsageError(`--data: ${data} does not exist.`);
  }
  let source = data;
  if (st.isDirectory()) {
    const names =
      dataset === 'movielens'
        ? ['ratings.csv', 'ratings.dat', 'u.data']
        : ['jester-data-1.csv', 'jester_ratings.dat'];
    const found = await Promise.all(
      names.map((n) =>
        stat(join(data, n)).then(
          () => n,
          () => undefined,
        ),
      ),
    );
    const name = found.find((n) => n !== undefined);
    if (name === undefined) throw new UsageError(`--data: ${data} holds none of ${names.join(', ')}.`);
    source = join(data, name);
  }
  return { source, format: resolveFormat(source, format) };
}

/** Registers `reproduce movielens` and `reproduce jester` on the `reproduce` command. */
export function registerReproduceRealData(reproduce: Command): void {
  for (const dataset of ['movielens', 'jester'] as const) {
    reproduce
      .command(dataset)
      .description(
        `the paper's ${dataset} tables: all policies across eps, amplification sweep, CTR over time at eps=1 (replay)`,
      )
      .requiredOption(
        '--data <path>',
        dataset === 'movielens'
          ? 'ml-25m / ml-latest(-small) directory or ratings file'
          : 'jester-data-1.csv or jester_ratings.dat',
      )
      .option('--format <format>', 'ratings layout (default: from the file name)')
      .option('--out <dir>', 'output directory', `results/realdata-${dataset}`)
      .option('--quick', 'small grid: eps 1 and 5, 2 seeds, 5,000 logged steps')
      .option('--workers <n>', 'worker threads', parsePositiveInt('--workers'))
      .option('--horizon <n>', 'logged replay steps per run', parsePositiveInt('--horizon'))
      .option('--seeds <n>', 'number of seeds', parsePositiveInt('--seeds'))
      .option(
        '--rank <k>',
        'SVD feature rank (default 50; at most min(users, items))',
        parsePositiveInt('--rank'),
      )
      .option(
        '--warm-start',
        `start the policies from the ridge fit of the training split${dataset === 'movielens' ? ' (the default here, as in the paper)' : ''}`,
      )
      .option(
        '--cold-start',
        `start the policies from theta_0 = 0${dataset === 'jester' ? ' (the default here)' : ''}`,
      )
      .option(
        '--doc <file>',
        'also write the Markdown section to this file, its chart under img/reproduction/ beside it (e.g. docs/REPRODUCTION-jester.md)',
      )
      .action(async (opts: Opts) => {
        if (opts.warmStart === true && opts.coldStart === true) {
          throw new UsageError('--warm-start and --cold-start exclude each other.');
        }
        const { source, format } = await locate(dataset, opts.data, opts.format);
        const progress = stageProgress();
        try {
          const { runRealDataReproduction } = await import(
            '../../experiments/reproduce/realData/runRealDataReproduction.js'
          );
          const r = await runRealDataReproduction({
            dataset,
            source,
            format,
            outDir: opts.out ?? `results/realdata-${dataset}`,
            quick: opts.quick === true,
            ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
            ...(opts.horizon !== undefined ? { horizon: opts.horizon } : {}),
            ...(opts.seeds !== undefined ? { seeds: opts.seeds } : {}),
            ...(opts.rank !== undefined ? { rank: opts.rank } : {}),
            ...(opts.doc !== undefined ? { docPath: opts.doc } : {}),
            ...(opts.warmStart === true ? { warmStart: true } : {}),
            ...(opts.coldStart === true ? { warmStart: false } : {}),
            onProgress: progress.update,
          });
          progress.stop(); // before printing; `finally` covers the error path
          process.stdout.write(r.markdown);
        } finally {
          progress.stop();
        }
      });
  }
}
