/**
 * `adaprivate run`: runs an experiment grid (policies x epsilons x hyperparameters x seeds) on
 * worker threads and prints a summary table, or one JSON object with `--json`.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import type { ExperimentConfig, ExperimentResult, SettingSummary } from '../../experiments/index.js';
import { parsePolicyId, policyIds, policyInfo } from '../../policies/index.js';
import { VERSION } from '../../version.js';
import { parseNumber, parseNumberList, parsePositiveInt, printJson } from '../output.js';
import { policyIdFromFlag } from '../policySpecFromFlags.js';
import { UsageError } from '../UsageError.js';

interface RunFlags {
  env?: string;
  policy?: string;
  epsilon?: number[];
  delta?: number;
  seeds?: number;
  horizon?: number;
  batch?: number;
  tune?: boolean;
  dim?: number;
  arms?: number;
  armsPerRound?: number;
  thetaNorm?: number;
  link?: string;
  checkpoints?: number;
  workers?: number;
  config?: string;
  out?: string;
  cache?: string;
  json?: boolean;
}

const GRID_FLAGS = [
  'env',
  'policy',
  'epsilon',
  'delta',
  'seeds',
  'horizon',
  'batch',
  'tune',
  'dim',
  'arms',
  'armsPerRound',
  'thetaNorm',
  'link',
  'checkpoints',
] as const;

/** The experiment runner and its dependencies load only when `run` actually runs (fast --help). */
type Experiments = typeof import('../../experiments/index.js');

function configFromFlags(f: RunFlags, x: Experiments): ExperimentConfig {
  if (f.env !== undefined && f.env !== 'synthetic') {
    throw new UsageError(
      `run: --env must be 'synthetic' (real-data experiments take --config FILE). Got ${JSON.stringify(f.env)}.`,
    );
  }
  if (f.policy === undefined) throw new UsageError('run: --policy ID[,ID..] is required (or --config FILE).');
  const ids = f.policy.split(',').map((s) => policyIdFromFlag('run', s.trim()));
  if (f.seeds === undefined) throw new UsageError('run: --seeds N is required.');
  if (f.horizon === undefined) throw new UsageError('run: --horizon T is required.');
  const usesBatch = ids.filter((id) => policyInfo(id).options.includes('batchSize'));
  if (f.batch !== undefined && usesBatch.length === 0) {
    throw new UsageError(
      `run: --batch applies to batched policies only, and none of ${ids.join(', ')} is batched.`,
    );
  }
  const policies = ids.map((id) => {
    const params: Record<string, number> = {};
    if (f.batch !== undefined && usesBatch.includes(id)) params.batchSize = f.batch;
    return { policy: id, params, tune: f.tune === true };
  });
  const raw: Record<string, unknown> = {
    env: {
      kind: 'synthetic',
      dim: f.dim,
      arms: f.arms,
      armsPerRound: f.armsPerRound,
      thetaNorm: f.thetaNorm,
      link: f.link,
    },
    policies,
    epsilons: f.epsilon ?? [],
    delta: f.delta,
    seeds: f.seeds,
    horizon: f.horizon,
    checkpoints: f.checkpoints,
  };
  const config = x.validateExperimentConfig(JSON.parse(JSON.stringify(raw)));
  // every cell's options through the policy parser before any cell runs (the service's rule text)
  if (config.env.kind === 'synthetic') {
    for (const cell of x.expandGrid(config)) {
      if (cell.seed !== config.seeds[0]) continue;
      try {
        x.cellPolicySpec(cell, config.env.dim, x.NO_PRIOR);
      } catch (err) {
        if (err instanceof RangeError || err instanceof TypeError)
          throw new UsageError(`run: ${err.message}`);
        throw err;
      }
    }
  }
  return config;
}

function resultEntry(s: SettingSummary) {
  const { seed: _seed, ...cell } = s.config;
  return {
    policy: s.policy,
    displayName: policyInfo(parsePolicyId(s.policy, 'result')).displayName,
    epsilon: s.epsilon,
    params: s.params,
    meanReward: s.meanReward.mean,
    std: s.meanReward.std,
    ci95: s.meanReward.ci95,
    perSeed: s.meanReward.perSeed,
    seeds: s.meanReward.seeds,
    regret: s.regret === null ? null : s.regret.mean,
    regretStd: s.regret === null ? null : s.regret.std,
    epsilonSpent: s.epsilonSpent === null ? null : s.epsilonSpent.mean,
    noise: s.noise ?? null,
    config: { ...cell, seeds: s.meanReward.seeds },
  };
}

function jsonReport(result: ExperimentResult, summaries: readonly SettingSummary[], x: Experiments) {
  const tuned = result.config.policies.some((p) => Object.values(p.params).some((v) => v.length > 1));
  return {
    version: VERSION,
    seeds: result.config.seeds,
    config: result.config,
    results: summaries.map(resultEntry),
    ...(tuned
      ? {
          tuning: x.tune(summaries).map((t) => ({
            policy: t.policy,
            epsilon: t.epsilon,
            bestParams: t.best.params,
            meanReward: t.best.meanReward.mean,
            settingsTried: t.all.length,
          })),
        }
      : {}),
  };
}

const fmt = (v: number | null, digits = 4): string =>
  v === null || Number.isNaN(v) ? '-' : v.toFixed(digits);

function table(summaries: readonly SettingSummary[]): string {
  const rows = [
    ['policy', 'epsilon', 'params', 'mean reward', 'std', '95% CI', 'regret', 'eps spent', 'seeds'],
  ];
  for (const s of summaries) {
    const params = Object.entries(s.params)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    rows.push([
      policyInfo(parsePolicyId(s.policy, 'result')).displayName,
      s.epsilon === null ? 'non-private' : String(s.epsilon),
      params || 'defaults',
      fmt(s.meanReward.mean),
      fmt(s.meanReward.std),
      `[${fmt(s.meanReward.ci95[0])}, ${fmt(s.meanReward.ci95[1])}]`,
      s.regret === null ? '-' : fmt(s.regret.mean, 1),
      s.epsilonSpent === null ? '-' : fmt(s.epsilonSpent.mean, 3),
      String(s.meanReward.n),
    ]);
  }
  const widths = rows[0]!.map((_, j) => Math.max(...rows.map((r) => r[j]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, j) => (j >= 3 ? c.padStart(widths[j]!) : c.padEnd(widths[j]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** What 'eps spent' protects: event-level unless a setting configures privacyUnit 'user'. */
function unitNote(summaries: readonly SettingSummary[]): string {
  const user = summaries.some((s) => s.params.privacyUnit === 'user');
  return user
    ? "eps spent: settings with privacyUnit=user report one user's cumulative guarantee (all rewards of one unit, within its contribution bounds); the others are event-level: protects one reward; features, chosen arms and stored decisions are not protected."
    : 'eps spent is event-level: protects one reward; features, chosen arms and stored decisions are not protected (a person with k rewards: group privacy, k^2 rho).';
}

async function runCommand(f: RunFlags): Promise<void> {
  const x: Experiments = await import('../../experiments/index.js');
  let config: ExperimentConfig;
  try {
    if (f.config !== undefined) {
      const clash = GRID_FLAGS.filter((k) => f[k] !== undefined);
      if (clash.length > 0) {
        throw new UsageError(
          `run: --config cannot be combined with grid flags (${clash.map((k) => `--${k}`).join(', ')}).`,
        );
      }
      config = x.loadExperimentConfig(f.config);
    } else {
      config = configFromFlags(f, x);
    }
  } catch (err) {
    if (err instanceof x.ExperimentConfigError) throw new UsageError(`run: ${err.message}`);
    throw err;
  }
  const cacheDir = f.cache ?? (f.out === undefined ? undefined : join(f.out, 'cache'));
  const showBar = f.json !== true && process.stderr.isTTY === true;
  const { SingleBar } = await import('cli-progress');
  const bar = showBar
    ? new SingleBar({
        format:
          'run [{bar}] {value}/{total} cells | {percentage}% | ETA {eta_formatted} | elapsed {duration_formatted}',
        stream: process.stderr,
        hideCursor: true,
      })
    : null;
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  let started = false;
  let result: ExperimentResult;
  try {
    result = await x.runExperiment(config, {
      ...(f.workers === undefined ? {} : { workers: f.workers }),
      ...(cacheDir === undefined ? {} : { cacheDir }),
      signal: controller.signal,
      onProgress: (p) => {
        if (bar === null) return;
        if (!started) {
          bar.start(p.total, p.done);
          started = true;
        } else bar.update(p.done);
      },
    });
  } finally {
    bar?.stop();
    process.removeListener('SIGINT', onSigint);
  }
  const summaries = x.summarise(result.cells);
  if (f.out !== undefined) {
    x.writeResultsJson(result, join(f.out, 'results.json'), join(f.out, 'timings.json'));
    x.writeResultsCsv(result, f.out);
  }
  if (f.json === true) {
    printJson(jsonReport(result, summaries, x));
  } else {
    const cached = result.timings.filter((t) => t.cached).length;
    process.stdout.write(`${table(summaries)}\n`);
    process.stdout.write(`${unitNote(summaries)}\n`);
    process.stdout.write(
      `${result.cells.length} cells (${cached} from cache), horizon ${config.horizon}, seeds ${config.seeds.join(',')}, adaprivate ${VERSION}${f.out === undefined ? '' : `; results in ${f.out}`}\n`,
    );
  }
}

/**
 * Registers `adaprivate run`.
 *
 * @example
 * adaprivate run --env synthetic --policy adaprivate-ts,adaprivate-ucb --epsilon 1,5 --seeds 3 --horizon 2000 --json
 */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run an experiment grid (policies x epsilons x hyperparameters x seeds) in parallel')
    .option('--env <kind>', "environment: 'synthetic' (the paper's, SPEC section 5)")
    .option('--policy <ids>', `comma-separated policy ids (${policyIds.join(', ')})`)
    .option(
      '--epsilon <list>',
      'comma-separated privacy budgets for private policies',
      parseNumberList('--epsilon'),
    )
    .option('--delta <number>', 'privacy delta (default 1e-5)', parseNumber('--delta'))
    .option('--seeds <n>', 'number of seeds (seeds 1..N)', parsePositiveInt('--seeds'))
    .option('--horizon <T>', 'rounds per run', parsePositiveInt('--horizon'))
    .option('--batch <B>', 'batch size of the batched policies (a positive integer)', parseNumber('--batch'))
    .option('--tune', "sweep each policy's SPEC tuning grid and report the best setting")
    .option('--dim <d>', 'feature dimension (default 20)', parsePositiveInt('--dim'))
    .option('--arms <n>', 'arm pool size (default 100)', parsePositiveInt('--arms'))
    .option(
      '--arms-per-round <K>',
      'arms offered per round (default 5)',
      parsePositiveInt('--arms-per-round'),
    )
    .option('--theta-norm <S>', '||theta*|| (default 2)', parseNumber('--theta-norm'))
    .option('--link <link>', "'logistic' (default) or 'linear'")
    .option('--checkpoints <n>', 'checkpoints per run (default 20)', parsePositiveInt('--checkpoints'))
    .option('--workers <n>', 'worker threads (default: all cores)', parsePositiveInt('--workers'))
    .option('--config <file>', 'experiment config file (JSON or YAML; see docs/experiments.md)')
    .option('--out <dir>', 'write results.json, cells.csv, checkpoints.csv, timings.json (and cache/) here')
    .option('--cache <dir>', 'cache directory of finished cells (default: <out>/cache when --out is given)')
    .option('--json', 'print one JSON object instead of a table (no progress bar)')
    .action(async (opts: RunFlags) => {
      await runCommand(opts);
    });
}
