/**
 * The live page's study (site/playground): the synthetic study of `adaprivate run --env synthetic`
 * for the page's settings, cell by cell, with the same configuration, cells, seeds and loop as the
 * CLI (validateExperimentConfig, expandGrid, runFullInformation with the cell-seeded noise), so the
 * same settings give the same numbers in a browser as on the command line. No Node built-in: it
 * runs in a Web Worker.
 */

import { expandGrid } from '../experiments/expandGrid.js';
import { NO_PRIOR, runFullInformation } from '../experiments/runFullInformation.js';
import { syntheticCellEnvironment } from '../experiments/syntheticCellEnvironment.js';
import type { ExperimentConfig } from '../experiments/types.js';
import { validateExperimentConfig } from '../experiments/validateExperimentConfig.js';
import { isPolicyId, policyInfo } from '../policies/index.js';

/** The page's controls. Options a policy does not have are not passed to it. */
export interface PlaygroundSettings {
  /** Policy ids, e.g. ['adaprivate-ts', 'adaprivate-ucb']. */
  readonly policies: readonly string[];
  readonly epsilon: number;
  /** Batch size B of the batched policies. */
  readonly batchSize: number;
  /** Subsampling rate q (policies with a `q` option, e.g. adaprivate-ts-amp). */
  readonly q: number;
  /** Seeds 1..seeds. */
  readonly seeds: number;
  readonly horizon: number;
  /** Checkpoints per run (default 20, as the CLI). */
  readonly checkpoints?: number;
  /** Privacy accountant, for policies that have the option (absent: the policy's default). */
  readonly accountant?: string;
  /** Privacy unit ('event' or 'user'), for policies that have the option (absent: the default). */
  readonly privacyUnit?: string;
  /** Synthetic environment size (defaults: the CLI's). */
  readonly dim?: number;
  readonly arms?: number;
  readonly armsPerRound?: number;
}

/** Whether policy `id` has option `name` (the page enables a control only where it applies). */
export function hasOption(id: string, name: string): boolean {
  return isPolicyId(id) && policyInfo(id).options.includes(name);
}

/**
 * The experiment configuration of the page's settings, as `adaprivate run` builds it from the same
 * flags (the batch size and q go to the policies that have them).
 *
 * @example
 * playgroundConfig({ policies: ['adaprivate-ts'], epsilon: 1, batchSize: 100, q: 0.3, seeds: 2, horizon: 500 }).seeds; // returns [1, 2]
 */
export function playgroundConfig(s: PlaygroundSettings): ExperimentConfig {
  const policies = s.policies.map((id) => {
    const params: Record<string, number | string> = {};
    if (hasOption(id, 'batchSize')) params.batchSize = s.batchSize;
    if (hasOption(id, 'q')) params.q = s.q;
    if (s.accountant !== undefined && hasOption(id, 'accountant')) params.accountant = s.accountant;
    if (s.privacyUnit !== undefined && hasOption(id, 'privacyUnit')) params.privacyUnit = s.privacyUnit;
    return { policy: id, params, tune: false };
  });
  const raw = {
    env: { kind: 'synthetic', dim: s.dim, arms: s.arms, armsPerRound: s.armsPerRound },
    policies,
    epsilons: [s.epsilon],
    seeds: s.seeds,
    horizon: s.horizon,
    checkpoints: s.checkpoints,
  };
  // JSON round trip drops the undefined fields, as the CLI's does
  return validateExperimentConfig(JSON.parse(JSON.stringify(raw)));
}

/** One checkpoint of one run: average expected reward so far and the guarantee spent so far. */
export interface PlaygroundPoint {
  readonly round: number;
  readonly averageReward: number;
  readonly epsilon: number;
  readonly releases: number;
}

/** One finished run (cell). */
export interface PlaygroundRun {
  readonly policy: string;
  readonly seed: number;
  readonly epsilon: number | null;
  readonly meanReward: number;
  readonly regret: number;
  readonly points: readonly PlaygroundPoint[];
  /** The guarantee at the end, from the policy's ledger (null for non-private policies). */
  readonly privacy: { readonly epsilon: number; readonly delta: number; readonly releases: number } | null;
}

/**
 * Runs every cell of the settings' study in order, calling `onRun` after each (for progress).
 *
 * @example
 * runPlaygroundStudy({ policies: ['adaprivate-ts'], epsilon: 1, batchSize: 100, q: 0.3, seeds: 1, horizon: 300 })[0].meanReward; // e.g. 0.52
 */
export function runPlaygroundStudy(
  s: PlaygroundSettings,
  onRun?: (run: PlaygroundRun, done: number, total: number) => void,
): PlaygroundRun[] {
  const cells = expandGrid(playgroundConfig(s));
  const runs: PlaygroundRun[] = [];
  for (const cell of cells) {
    if (cell.env.kind !== 'synthetic')
      throw new RangeError('runPlaygroundStudy: synthetic environments only.');
    const privacyAt: { epsilon: number; releases: number }[] = [];
    const out = runFullInformation(cell, syntheticCellEnvironment(cell.env, cell.seed), NO_PRIOR, (_t, p) => {
      const g = p.privacy();
      privacyAt.push({ epsilon: Number.isFinite(g.epsilon) ? g.epsilon : 0, releases: g.releases });
    });
    const g = out.policy.privacy();
    const run: PlaygroundRun = {
      policy: cell.policy,
      seed: cell.seed,
      epsilon: cell.epsilon,
      meanReward: out.meanReward,
      regret: out.regret,
      points: out.checkpoints.map((c, i) => ({
        round: c.round,
        averageReward: (c.cumulativeExpectedReward ?? Number.NaN) / c.round,
        epsilon: privacyAt[i]!.epsilon,
        releases: privacyAt[i]!.releases,
      })),
      privacy: cell.epsilon === null ? null : { epsilon: g.epsilon, delta: g.delta, releases: g.releases },
    };
    runs.push(run);
    onRun?.(run, runs.length, cells.length);
  }
  return runs;
}
