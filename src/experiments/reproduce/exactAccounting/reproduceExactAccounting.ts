/**
 * `adaprivate reproduce exact`: the synthetic "same guarantee, exact accounting" study (issue 24).
 * Every policy of {@link exactAccountingPolicies} runs at every budget of the synthetic scale with
 * the paper's accounting and with accountant 'exact', on the same seeds and rounds; the paired
 * differences, the sigmas and the claims go to results.json, tables.md, REPORT.md and the chart in
 * the output directory and, with `docPath`, to the section `exact-accounting-synthetic` of
 * docs/REPRODUCTION.md (the paper-accounting study above it is not touched).
 */
import { mkdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { VERSION } from '../../../version.js';
import { cacheVersion } from '../../codeFingerprint.js';
import { markdownTable } from '../../report/markdownTable.js';
import { runExperiment } from '../../runExperiment.js';
import type { ExperimentConfig, ExperimentResult } from '../../types.js';
import { validateExperimentConfig } from '../../validateExperimentConfig.js';
import type { Claim } from '../claims/evaluateClaim.js';
import { type SyntheticScaleName, syntheticScale } from '../syntheticScale.js';
import { accumulateTiming, runTimeLine } from './accumulatedTiming.js';
import { EXACT_SECTIONS } from './exactAccountingChart.js';
import { exactAccountingClaims } from './exactAccountingClaims.js';
import {
  type ExactAccountingRow,
  exactAccountingPolicies,
  exactAccountingRows,
} from './exactAccountingRows.js';
import { exactAccountingSection, exactAccountingTable } from './exactAccountingSection.js';
import { writeExactAccountingOutputs } from './writeExactAccountingOutputs.js';

/** Options of {@link reproduceExactAccounting}. */
export interface ExactAccountingOptions {
  /** The synthetic scale: 'full' (default: the paper's 12 seeds, T = 10,000, six budgets), 'quick' or 'tiny'. */
  readonly scale?: SyntheticScaleName;
  /** Seeds 1..n instead of the scale's (an integer >= 2). */
  readonly seeds?: number;
  readonly outDir: string;
  /** Worker threads (default: all cores). */
  readonly workers?: number;
  /** Run the cells in this thread (tests). Default false. */
  readonly inProcess?: boolean;
  /** Cell cache directory; default `<outDir>/cache`; null: no cache. */
  readonly cacheDir?: string | null;
  /** Also set the section `exact-accounting-synthetic` of this Markdown file (chart in img/reproduction/ beside it). */
  readonly docPath?: string;
  /** The command line recorded in the outputs. */
  readonly command?: string;
  readonly onProgress?: (stage: string, done: number, total: number) => void;
}

/** What the study returns. */
export interface ExactAccountingResult {
  readonly rows: readonly ExactAccountingRow[];
  readonly claims: readonly Claim[];
  readonly markdown: string;
  readonly timing: { readonly wallSeconds: number; readonly cpuSeconds: number; readonly cellsRun: number };
  readonly files: readonly string[];
}

/**
 * The study's experiment: every policy of {@link exactAccountingPolicies} at its defaults (the
 * paper's accounting) and with `accountant: 'exact'`, at every budget of the scale.
 *
 * @example
 * exactAccountingConfig('full').policies.length; // returns 16 (8 policies x 2 accountants)
 */
export function exactAccountingConfig(scaleName: SyntheticScaleName, seeds?: number): ExperimentConfig {
  const scale = syntheticScale(scaleName);
  const n = seeds ?? scale.seeds;
  if (!Number.isSafeInteger(n) || n < 2)
    throw new RangeError(`reproduceExactAccounting: seeds must be an integer >= 2. Got ${n}.`);
  return validateExperimentConfig({
    name: 'exact-accounting',
    env: scale.env,
    protocol: 'full-information',
    delta: scale.delta,
    seeds: Array.from({ length: n }, (_, i) => i + 1),
    horizon: scale.horizon,
    checkpoints: scale.checkpoints,
    epsilons: scale.epsilons,
    policies: exactAccountingPolicies().flatMap((policy) => [
      { policy },
      { policy, params: { accountant: 'exact' } },
    ]),
  });
}

/**
 * Runs the synthetic exact-accounting study and writes its outputs.
 *
 * @example
 * const r = await reproduceExactAccounting({ scale: 'quick', outDir: 'results/exact' });
 * r.rows.find((x) => x.policy === 'adaprivate-ts' && x.epsilon === 1)?.sigmaExact; // returns ~3.73
 */
export async function reproduceExactAccounting(o: ExactAccountingOptions): Promise<ExactAccountingResult> {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const scaleName = o.scale ?? 'full';
  const scale = syntheticScale(scaleName);
  const config = exactAccountingConfig(scaleName, o.seeds);
  await mkdir(o.outDir, { recursive: true });
  const cacheDir = o.cacheDir === undefined ? join(o.outDir, 'cache') : o.cacheDir;
  const result: ExperimentResult = await runExperiment(config, {
    ...(o.workers === undefined ? {} : { workers: o.workers }),
    ...(o.inProcess === true ? { inProcess: true } : {}),
    ...(cacheDir === null ? {} : { cacheDir }),
    ...(o.onProgress === undefined ? {} : { onProgress: (p) => o.onProgress!(config.name, p.done, p.total) }),
  });
  const rows = exactAccountingRows(result.cells);
  const claims = exactAccountingClaims(rows, 'synthetic');
  const cpu = process.cpuUsage(cpu0);
  const cellsRun = result.timings.filter((t) => !t.cached).length;
  const timing = {
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    cellsRun,
  };
  const command =
    o.command ??
    `adaprivate reproduce exact${scaleName === 'full' ? '' : ` --${scaleName}`}${o.seeds === undefined ? '' : ` --seeds ${o.seeds}`}`;
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`;
  const env = scale.env;
  const setup = `Generated by \`${command}\` (adaprivate ${VERSION}, cell cache version ${cacheVersion()}); regenerate with the same command. The paper's synthetic environment (d = ${env.dim}, ${env.arms} arms, ${env.armsPerRound} offered per round, ${env.link} link, ||theta*|| = ${env.thetaNorm}), seeds ${config.seeds.join(', ')}, T = ${config.horizon}, delta = ${config.delta}, cold start, every policy at its defaults (B = 300; AdaPrivate-TS-Amp q = 0.3). Reward: the mean expected reward per round (the mean of sigmoid(x^T theta*) of the chosen arm), as in the main table.`;
  const reduced = scaleName === 'full' ? null : scaleName;
  const total = accumulateTiming(o.outDir, timing.wallSeconds, timing.cpuSeconds, cellsRun);
  const runLine = runTimeLine(total, result.cells.length, machine);
  const section = (chartPath: string | null) =>
    exactAccountingSection({
      dataset: 'synthetic',
      rows,
      claims,
      setup,
      rewardName: 'mean expected reward',
      percentRewards: false,
      reduced,
      chartPath,
      runLine,
    });
  const { markdown, files } = await writeExactAccountingOutputs({
    outDir: o.outDir,
    claims,
    section,
    resultsJson: `${JSON.stringify({ study: 'exact-accounting-synthetic', command, version: VERSION, cacheVersion: cacheVersion(), scale: scaleName, seeds: config.seeds, timing, rows, claims, experiment: result }, null, 1)}\n`,
    tablesMarkdown: `${markdownTable(exactAccountingTable(rows, 'mean expected reward', false))}\n`,
    ...(o.docPath === undefined ? {} : { docPath: o.docPath }),
    sectionId: EXACT_SECTIONS.synthetic.id,
  });
  return { rows, claims, markdown, timing, files };
}
