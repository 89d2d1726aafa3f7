/**
 * `adaprivate reproduce movielens-exact`: the "same guarantee, exact accounting" study on MovieLens
 * (issue 24), with the protocol of the MovieLens reproduction (Li et al. replay, uniformly random
 * logging over K = 5, rank-50 biased features, warm start from the training split). Each policy
 * runs at each budget with the paper's accounting and with accountant 'exact' on the same seeds and
 * logged steps. The prior weight of the warm start is tuned on the validation part for the noise
 * each run adds (docs/data.md): the environment's rule for the paper's sigma, and the same rule
 * for the exact sigma (`lambda` of the exact runs), as a deployment would. Writes results.json,
 * tables.md, REPORT.md and the chart into the output directory and, with `docPath`, the section
 * `exact-accounting-movielens` of that document.
 */
import { mkdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import {
  prepareFeaturesFile,
  type RatingsFormat,
  type StepProgress,
  tunePriorWeight,
} from '../../../data/index.js';
import { calibrateGaussian } from '../../../mechanisms/index.js';
import { isPolicyId, paperAccountant } from '../../../policies/index.js';
import { VERSION } from '../../../version.js';
import { cacheVersion } from '../../codeFingerprint.js';
import { markdownTable } from '../../report/markdownTable.js';
import { runExperiment } from '../../runExperiment.js';
import type { ExperimentConfig, ExperimentResult } from '../../types.js';
import { validateExperimentConfig } from '../../validateExperimentConfig.js';
import { accumulateTiming, runTimeLine } from './accumulatedTiming.js';
import { EXACT_SECTIONS } from './exactAccountingChart.js';
import { exactAccountingClaims } from './exactAccountingClaims.js';
import { exactAccountingRows } from './exactAccountingRows.js';
import { exactAccountingSection, exactAccountingTable } from './exactAccountingSection.js';
import type { ExactAccountingResult } from './reproduceExactAccounting.js';
import { writeExactAccountingOutputs } from './writeExactAccountingOutputs.js';

/** The policies of the full MovieLens run (the AdaPrivate family; about 3 CPU-s per cell of 200,000 steps). */
export const MOVIELENS_EXACT_POLICIES: readonly string[] = [
  'adaprivate-ts',
  'adaprivate-ucb',
  'adaprivate-ts-adaptive',
  'adaprivate-ts-amp',
];

/** Options of {@link reproduceExactAccountingMovielens}. */
export interface ExactAccountingMovielensOptions {
  readonly source: string;
  readonly format: RatingsFormat;
  readonly outDir: string;
  /** Small run: 2 seeds, 20,000 logged steps, eps 1 and 5, AdaPrivate-TS and -UCB. */
  readonly quick?: boolean;
  readonly workers?: number;
  readonly inProcess?: boolean;
  /** Logged steps per run (default 200,000; quick 20,000). */
  readonly horizon?: number;
  /** Seeds 1..n (default 5; quick 2). */
  readonly seeds?: number;
  /** SVD rank (default 50). */
  readonly rank?: number;
  /** Budgets (default 0.5, 1, 2, 5, 10 as the MovieLens reproduction; quick 1, 5). */
  readonly epsilons?: readonly number[];
  /** Policies (default {@link MOVIELENS_EXACT_POLICIES}; quick AdaPrivate-TS and -UCB); each must take the `accountant` option. */
  readonly policies?: readonly string[];
  readonly docPath?: string;
  readonly command?: string;
  readonly onProgress?: StepProgress;
}

/**
 * Runs the MovieLens exact-accounting study.
 *
 * @example
 * await reproduceExactAccountingMovielens({ source: 'ml-latest-small/ratings.csv', format: 'movielens-csv', outDir: 'results/ml-exact', quick: true });
 */
export async function reproduceExactAccountingMovielens(
  o: ExactAccountingMovielensOptions,
): Promise<ExactAccountingResult> {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const quick = o.quick === true;
  const policies = o.policies ?? (quick ? ['adaprivate-ts', 'adaprivate-ucb'] : MOVIELENS_EXACT_POLICIES);
  for (const p of policies) {
    if (!isPolicyId(p) || paperAccountant(p) === undefined)
      throw new RangeError(
        `reproduceExactAccountingMovielens: policies must take the 'accountant' option (${JSON.stringify(p)} does not).`,
      );
  }
  await mkdir(o.outDir, { recursive: true });
  const featuresFile = join(o.outDir, 'features.bin');
  const prep = await prepareFeaturesFile({
    source: o.source,
    format: o.format,
    out: featuresFile,
    params: { rank: o.rank ?? 50, construction: 'biased' },
    ...(o.onProgress !== undefined ? { onProgress: o.onProgress } : {}),
  });
  const k = 5;
  const batchSize = 300;
  const delta = 1e-5;
  const horizon = o.horizon ?? (quick ? 20_000 : 200_000);
  const seeds = Array.from({ length: o.seeds ?? (quick ? 2 : 5) }, (_, i) => i + 1);
  const epsilons = o.epsilons ?? (quick ? [1, 5] : [0.5, 1, 2, 5, 10]);
  const envOptions = { featuresFile, armsPerRound: k, horizon, warmStart: true };
  const base = {
    env: { kind: 'ratings' as const, options: envOptions },
    protocol: 'replay' as const,
    delta,
    seeds,
    horizon,
    checkpoints: 10,
  };
  const run = (raw: { readonly name: string } & Record<string, unknown>): Promise<ExperimentResult> => {
    const config: ExperimentConfig = validateExperimentConfig(raw);
    return runExperiment(config, {
      ...(o.workers !== undefined ? { workers: o.workers } : {}),
      ...(o.inProcess === true ? { inProcess: true } : {}),
      cacheDir: join(o.outDir, 'cache'),
      ...(o.onProgress !== undefined
        ? { onProgress: (p) => o.onProgress!(config.name, p.done, p.total) }
        : {}),
    });
  };
  const results: ExperimentResult[] = [];
  // the paper's accounting: the environment tunes the prior weight for the zCDP sigma of each budget
  results.push(
    await run({
      ...base,
      name: 'movielens-exact-paper-accounting',
      policies: policies.map((policy) => ({ policy })),
      epsilons,
    }),
  );
  // the exact accountant: the same rule, for the exact sigma of one release at this budget
  const weights: { eps: number; sigma: number; lambda: number }[] = [];
  for (const eps of epsilons) {
    const sigma = calibrateGaussian(
      'movielens-exact',
      { epsilon: eps, delta },
      { compositions: 1, q: 1 },
      'exact',
    ).multiplier;
    const lambda = tunePriorWeight(envOptions, sigma, batchSize).weight;
    weights.push({ eps, sigma, lambda });
    results.push(
      await run({
        ...base,
        name: `movielens-exact-eps${eps}`,
        policies: policies.map((policy) => ({ policy, params: { accountant: 'exact', lambda } })),
        epsilons: [eps],
      }),
    );
  }
  const cells = results.flatMap((r) => r.cells);
  const rows = exactAccountingRows(cells);
  const claims = exactAccountingClaims(rows, 'MovieLens');
  const cpu = process.cpuUsage(cpu0);
  const cellsRun = results.reduce((n, r) => n + r.timings.filter((t) => !t.cached).length, 0);
  const timing = {
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    cellsRun,
  };
  const command =
    o.command ?? `adaprivate reproduce movielens-exact --data ${o.source}${quick ? ' --quick' : ''}`;
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`;
  const h = prep.header;
  const effective = cells.map((c) => c.effectiveSteps ?? 0);
  const setup = `Generated by \`${command}\` (adaprivate ${VERSION}, cell cache version ${cacheVersion()}); regenerate with the same command. Source \`${h.source.file}\` (sha256 \`${h.source.sha256}\`), ${h.counts.ratings} ratings, ${h.counts.users} users, ${h.counts.items} items; rank-${h.params.rank} \`${h.construction.kind}\` features on the ${100 * (1 - h.params.evalFraction)}% training split; Li et al. replay over the held-out ratings, uniformly random logging over K = ${k}, ${horizon} logged steps per run (effective steps ${Math.min(...effective)}-${Math.max(...effective)}), seeds ${seeds.join(', ')}, delta ${delta}, policies at their defaults (B = ${batchSize}), warm start as in the MovieLens reproduction. The prior weight is tuned on the validation part for each run's noise (docs/data.md): the environment's rule for the paper's sigma; for the exact runs the same rule at the exact sigma of one release (${weights.map((w) => `eps ${w.eps}: sigma ${w.sigma.toFixed(3)}, weight ${w.lambda}`).join('; ')}). Reward: 1{rating >= 4}; CTR over the effective steps.`;
  const reduced = quick ? 'quick' : null;
  const total = accumulateTiming(o.outDir, timing.wallSeconds, timing.cpuSeconds, cellsRun);
  const runLine = runTimeLine(total, cells.length, machine);
  const section = (chartPath: string | null) =>
    exactAccountingSection({
      dataset: 'MovieLens',
      rows,
      claims,
      setup,
      rewardName: 'replay CTR',
      percentRewards: true,
      reduced,
      chartPath,
      runLine,
    });
  const { markdown, files } = await writeExactAccountingOutputs({
    outDir: o.outDir,
    claims,
    section,
    resultsJson: `${JSON.stringify({ study: 'exact-accounting-movielens', command, version: VERSION, cacheVersion: cacheVersion(), seeds, horizon, epsilons, delta, envOptions, weights, timing, rows, claims, experiments: results }, null, 1)}\n`,
    tablesMarkdown: `${markdownTable(exactAccountingTable(rows, 'replay CTR', true))}\n`,
    ...(o.docPath === undefined ? {} : { docPath: o.docPath }),
    sectionId: EXACT_SECTIONS.movielens.id,
  });
  return { rows, claims, markdown, timing, files };
}
