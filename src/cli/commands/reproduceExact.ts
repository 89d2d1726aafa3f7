/**
 * `adaprivate reproduce exact` and `adaprivate reproduce movielens-exact`: the "same guarantee,
 * exact accounting" study (issue 24; docs/REPRODUCTION.md and docs/REPRODUCTION-movielens.md,
 * sections "Same guarantee, exact accounting"). The paper's reproduction keeps the paper's
 * accounting; these commands run the private policies with accountant 'exact' beside it on the
 * same seeds. Bad input exits with code 2 and a one-line reason.
 */
import { type Command, Option } from 'commander';
import { isPolicyId, paperAccountant } from '../../policies/index.js';
import { parsePositiveInt, printJson } from '../output.js';
import { stageProgress } from '../progress.js';
import { UsageError } from '../UsageError.js';
import { locate } from './reproduceRealData.js';
import { reproduceScaleAndDoc } from './reproduceScaleAndDoc.js';

interface ExactFlags {
  quick?: boolean;
  tiny?: boolean;
  seeds?: number;
  out?: string;
  workers?: number;
  cache?: boolean;
  writeDoc?: boolean | string;
  json?: boolean;
}

function seedsAtLeastTwo(n: number | undefined): void {
  if (n !== undefined && n < 2) throw new UsageError(`--seeds must be an integer >= 2. Got ${n}.`);
}

/**
 * Adds `exact` to the `reproduce` command.
 *
 * @example
 * addReproduceExact(reproduce); // adaprivate reproduce exact --quick
 */
export function addReproduceExact(reproduce: Command): Command {
  const cmd = reproduce
    .command('exact')
    .description(
      "same guarantee, exact accounting (synthetic): every private policy whose noise an accountant calibrates runs at every budget with the paper's accounting (zCDP; RDP for AdaPrivate-TS-Amp) and with accountant 'exact' on the same seeds; prints the paired reward difference with its 95% CI and the sigma of each; writes results.json, tables.md, REPORT.md and the chart to --out",
    )
    .option('--quick', 'reduced run: 3 seeds, T = 2000 (indicative only)')
    .addOption(new Option('--tiny', 'smoke-test size (d = 5, 2 seeds, T = 200, eps 1 and 5)').hideHelp())
    .option('--seeds <n>', "seeds 1..n (default: the scale's, 12 at full scale)", parsePositiveInt('--seeds'))
    .option('--out <dir>', 'output directory', 'results/exact')
    .option('--workers <n>', 'worker threads (default: all cores)', parsePositiveInt('--workers'))
    .option('--no-cache', 'do not reuse or keep finished cells in <out>/cache')
    .option(
      '--write-doc [path]',
      'also set the section "Same guarantee, exact accounting: synthetic" of this document (default docs/REPRODUCTION.md; chart in img/reproduction/ beside it)',
    )
    .option('--json', 'print one JSON object (rows, claims, timing, files)')
    .action(async (flags: ExactFlags) => {
      const { scale, runOptions } = reproduceScaleAndDoc('exact', flags);
      seedsAtLeastTwo(flags.seeds);
      const progress = stageProgress({ unit: 'cells' });
      const { reproduceExactAccounting } = await import(
        '../../experiments/reproduce/exactAccounting/reproduceExactAccounting.js'
      );
      const r = await reproduceExactAccounting({
        scale,
        outDir: flags.out ?? 'results/exact',
        command: `adaprivate reproduce exact${scale === 'full' ? '' : ` --${scale}`}${flags.seeds === undefined ? '' : ` --seeds ${flags.seeds}`}`,
        ...(flags.seeds === undefined ? {} : { seeds: flags.seeds }),
        ...runOptions,
        onProgress: (stage, done, total) => progress.update(stage, done, total),
      }).finally(() => progress.stop());
      if (flags.json === true) {
        printJson({ scale, rows: r.rows, claims: r.claims, timing: r.timing, files: r.files });
        return;
      }
      process.stdout.write(r.markdown);
    });
  cmd.exitOverride();
  return cmd;
}

interface MovielensExactFlags {
  data: string;
  format?: string;
  out?: string;
  quick?: boolean;
  workers?: number;
  horizon?: number;
  seeds?: number;
  policies?: string;
  doc?: string;
  json?: boolean;
}

/**
 * Adds `movielens-exact` to the `reproduce` command.
 *
 * @example
 * addReproduceMovielensExact(reproduce); // adaprivate reproduce movielens-exact --data ml-latest-small --quick
 */
export function addReproduceMovielensExact(reproduce: Command): Command {
  const cmd = reproduce
    .command('movielens-exact')
    .description(
      "same guarantee, exact accounting on MovieLens (replay, warm start as `reproduce movielens`): each policy at each budget with the paper's accounting and with accountant 'exact' on the same seeds, the prior weight tuned for each run's noise; paired CTR difference with its 95% CI and the sigma of each",
    )
    .requiredOption('--data <path>', 'ml-25m / ml-latest(-small) directory or ratings file')
    .option('--format <format>', 'ratings layout (default: from the file name)')
    .option('--out <dir>', 'output directory', 'results/movielens-exact')
    .option('--quick', 'small run: 2 seeds, 20,000 logged steps, eps 1 and 5, AdaPrivate-TS and -UCB')
    .option('--workers <n>', 'worker threads', parsePositiveInt('--workers'))
    .option('--horizon <n>', 'logged replay steps per run (default 200,000)', parsePositiveInt('--horizon'))
    .option('--seeds <n>', 'number of seeds (default 5)', parsePositiveInt('--seeds'))
    .option(
      '--policies <ids>',
      'comma-separated private policies that take the accountant option (default: AdaPrivate-TS, -UCB, -TS-Adaptive, -TS-Amp)',
    )
    .option(
      '--doc <file>',
      'also set the section "Same guarantee, exact accounting: MovieLens" of this document (e.g. docs/REPRODUCTION-movielens.md; chart in img/reproduction/ beside it)',
    )
    .option('--json', 'print one JSON object (rows, claims, timing, files)')
    .action(async (opts: MovielensExactFlags) => {
      seedsAtLeastTwo(opts.seeds);
      const policies = opts.policies?.split(',').map((x) => x.trim());
      for (const id of policies ?? []) {
        if (!isPolicyId(id) || paperAccountant(id) === undefined)
          throw new UsageError(
            `--policies must list private policies that take the accountant option. Got ${JSON.stringify(id)}.`,
          );
      }
      const { source, format } = await locate('movielens', opts.data, opts.format);
      const progress = stageProgress({ unit: 'cells' });
      const { reproduceExactAccountingMovielens } = await import(
        '../../experiments/reproduce/exactAccounting/reproduceExactAccountingMovielens.js'
      );
      const r = await reproduceExactAccountingMovielens({
        source,
        format,
        outDir: opts.out ?? 'results/movielens-exact',
        quick: opts.quick === true,
        command: `adaprivate reproduce movielens-exact --data ${opts.data}${opts.quick === true ? ' --quick' : ''}${opts.horizon === undefined ? '' : ` --horizon ${opts.horizon}`}${opts.seeds === undefined ? '' : ` --seeds ${opts.seeds}`}${opts.policies === undefined ? '' : ` --policies ${opts.policies}`}`,
        ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
        ...(opts.horizon !== undefined ? { horizon: opts.horizon } : {}),
        ...(opts.seeds !== undefined ? { seeds: opts.seeds } : {}),
        ...(policies !== undefined ? { policies } : {}),
        ...(opts.doc !== undefined ? { docPath: opts.doc } : {}),
        onProgress: progress.update,
      }).finally(() => progress.stop());
      if (opts.json === true) {
        printJson({ rows: r.rows, claims: r.claims, timing: r.timing, files: r.files });
        return;
      }
      process.stdout.write(r.markdown);
    });
  cmd.exitOverride();
  return cmd;
}
