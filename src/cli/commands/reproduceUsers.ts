/**
 * `adaprivate reproduce users`: the synthetic user-level privacy study (issue 25, study (a);
 * docs/REPRODUCTION.md, "User-level privacy: synthetic users"). `--quick` runs in about a minute;
 * the default is the paper-sized study. Bad input exits with code 2 and a one-line reason.
 */
import { type Command, Option } from 'commander';
import { policyInfo } from '../../policies/index.js';
import { parseNumber, parsePositiveInt, printJson } from '../output.js';
import { policyIdFromFlag } from '../policySpecFromFlags.js';
import { stageProgress } from '../progress.js';
import { UsageError } from '../UsageError.js';
import { locate } from './reproduceRealData.js';
import { reproduceScaleAndDoc } from './reproduceScaleAndDoc.js';

interface UsersFlags {
  quick?: boolean;
  tiny?: boolean;
  out?: string;
  workers?: number;
  cache?: boolean;
  writeDoc?: boolean | string;
  json?: boolean;
}

/**
 * Adds `users` to the `reproduce` command.
 *
 * @example
 * addReproduceUsers(reproduce); // adaprivate reproduce users --quick
 */
export function addReproduceUsers(reproduce: Command): Command {
  const cmd = reproduce
    .command('users')
    .description(
      "user-level privacy on synthetic users who arrive k in {1, 5, 10} times: the paper's group-privacy figures next to ours with group privacy (zCDP k^2 rho, exact k mu) and with contribution bounds (a user-level policy); writes results.json, tables.md, REPORT.md and the chart to --out",
    )
    .option('--quick', 'reduced run of about a minute: 4 seeds, T = 5000 (indicative only)')
    .addOption(new Option('--tiny', 'smoke-test size (d = 5, 2 seeds, T = 400)').hideHelp())
    .option('--out <dir>', 'output directory', 'results/users')
    .option('--workers <n>', 'worker threads (default: all cores)', parsePositiveInt('--workers'))
    .option('--no-cache', 'do not reuse or keep finished cells in <out>/cache')
    .option(
      '--write-doc [path]',
      'also set the section "User-level privacy: synthetic users" of this document (default docs/REPRODUCTION.md; chart in img/reproduction/ beside it)',
    )
    .option('--json', 'print one JSON object (claims, rows, timing, files)')
    .action(async (flags: UsersFlags) => {
      const { scale, runOptions } = reproduceScaleAndDoc('users', flags);
      const progress = stageProgress({ unit: 'cells' });
      const { reproduceUserLevelSynthetic } = await import(
        '../../experiments/reproduce/userLevel/reproduceUserLevelSynthetic.js'
      );
      const r = await reproduceUserLevelSynthetic({
        scale,
        outDir: flags.out ?? 'results/users',
        command: `adaprivate reproduce users${scale === 'full' ? '' : ` --${scale}`}`,
        ...runOptions,
        onProgress: (stage, done, total) => progress.update(stage, done, total),
      }).finally(() => progress.stop());
      if (flags.json === true) {
        printJson({ scale, claims: r.claims, rows: r.rows, timing: r.timing, files: r.files });
        return;
      }
      process.stdout.write(r.markdown);
    });
  cmd.exitOverride();
  return cmd;
}

interface MovielensUsersFlags {
  data: string;
  format?: string;
  out?: string;
  quick?: boolean;
  workers?: number;
  horizon?: number;
  seeds?: number;
  quantile?: number;
  eventPolicies?: string;
  doc?: string;
}

/**
 * Adds `movielens-users` to the `reproduce` command (issue 25, study (b); docs/REPRODUCTION-movielens.md).
 *
 * @example
 * addReproduceMovielensUsers(reproduce); // adaprivate reproduce movielens-users --data ml-latest-small --quick
 */
export function addReproduceMovielensUsers(reproduce: Command): Command {
  const cmd = reproduce
    .command('movielens-users')
    .description(
      'MovieLens by user: event-level policies with the user-level guarantee group privacy gives the median and the heaviest user, and user-level policies with contribution bounds chosen on the training split (CTR with CI, share of rewards dropped)',
    )
    .requiredOption('--data <path>', 'ml-25m / ml-latest(-small) directory or ratings file')
    .option('--format <format>', 'ratings layout (default: from the file name)')
    .option('--out <dir>', 'output directory', 'results/movielens-users')
    .option('--quick', 'small run: 2 seeds, 20,000 logged steps, AdaPrivate-TS and -UCB only')
    .option('--workers <n>', 'worker threads', parsePositiveInt('--workers'))
    .option('--horizon <n>', 'logged replay steps per run (default 200,000)', parsePositiveInt('--horizon'))
    .option('--seeds <n>', 'number of seeds (default 5)', parsePositiveInt('--seeds'))
    .option(
      '--quantile <q>',
      'quantile of the bounds rule, in (0, 1] (default 0.9)',
      parseNumber('--quantile'),
    )
    .option(
      '--event-policies <ids>',
      'comma-separated event-level policies (default: AdaPrivate-TS, -UCB, -TS-Adaptive, AdaC-OFUL-zCDP, RarelySwitching-zCDP)',
    )
    .option('--doc <file>', 'also set the section "User-level privacy: MovieLens by user" of this document')
    .action(async (opts: MovielensUsersFlags) => {
      if (opts.quantile !== undefined && !(opts.quantile > 0 && opts.quantile <= 1))
        throw new UsageError(`--quantile must be in (0, 1]. Got ${opts.quantile}.`);
      const eventPolicies = opts.eventPolicies
        ?.split(',')
        .map((x) => policyIdFromFlag('reproduce', x.trim()));
      for (const id of eventPolicies ?? []) {
        if (!policyInfo(id).isPrivate)
          throw new UsageError(`--event-policies must list private policy ids. Got ${JSON.stringify(id)}.`);
      }
      const { source, format } = await locate('movielens', opts.data, opts.format);
      const progress = stageProgress({ unit: 'cells' });
      const { reproduceUserLevelMovielens } = await import(
        '../../experiments/reproduce/userLevel/reproduceUserLevelMovielens.js'
      );
      const r = await reproduceUserLevelMovielens({
        source,
        format,
        outDir: opts.out ?? 'results/movielens-users',
        quick: opts.quick === true,
        command: `adaprivate reproduce movielens-users --data ${opts.data}${opts.quick === true ? ' --quick' : ''}${opts.horizon === undefined ? '' : ` --horizon ${opts.horizon}`}${opts.seeds === undefined ? '' : ` --seeds ${opts.seeds}`}${opts.quantile === undefined ? '' : ` --quantile ${opts.quantile}`}${opts.eventPolicies === undefined ? '' : ` --event-policies ${opts.eventPolicies}`}`,
        ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
        ...(opts.horizon !== undefined ? { horizon: opts.horizon } : {}),
        ...(opts.seeds !== undefined ? { seeds: opts.seeds } : {}),
        ...(opts.quantile !== undefined ? { quantile: opts.quantile } : {}),
        ...(eventPolicies !== undefined ? { eventPolicies } : {}),
        ...(opts.doc !== undefined ? { docPath: opts.doc } : {}),
        onProgress: progress.update,
      }).finally(() => progress.stop());
      process.stdout.write(r.markdown);
    });
  cmd.exitOverride();
  return cmd;
}
