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
  /**
   * Privacy unit ('event' or 'user'), for policies that have the option (absent: the default).
   * 'user' runs the synthetic users study of `adaprivate reproduce users`: every user arrives
   * `arrivalsPerUnit` times, and the private policies protect each user with contribution bounds
   * (c rewards per release, m releases per epoch, one epoch: the run) at the user-level epsilon.
   */
  readonly privacyUnit?: string;
  /** privacyUnit 'user': arrivals k of each user in the run (default 5; the study's k in {1, 5, 10}). */
  readonly arrivalsPerUnit?: number;
  /** privacyUnit 'user': contribution bound c, rewards of one user in one release (default 1). */
  readonly contributionsPerRelease?: number;
  /** privacyUnit 'user': contribution bound m, releases one user takes part in (default k, as the study). */
  readonly releasesPerEpoch?: number;
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
  const users = s.privacyUnit === 'user';
  const k = users ? (s.arrivalsPerUnit ?? 5) : undefined;
  if (
    !users &&
    (s.arrivalsPerUnit !== undefined ||
      s.contributionsPerRelease !== undefined ||
      s.releasesPerEpoch !== undefined)
  ) {
    throw new RangeError(
      "playground: arrivalsPerUnit, contributionsPerRelease and releasesPerEpoch need privacyUnit 'user'.",
    );
  }
  const policies = s.policies.map((id) => {
    const params: Record<string, number | string> = {};
    if (hasOption(id, 'batchSize')) params.batchSize = s.batchSize;
    if (hasOption(id, 'q')) params.q = s.q;
    if (s.accountant !== undefined && hasOption(id, 'accountant')) params.accountant = s.accountant;
    if (s.privacyUnit !== undefined && hasOption(id, 'privacyUnit')) params.privacyUnit = s.privacyUnit;
    if (users && isPolicyId(id) && policyInfo(id).isPrivate) {
      if (!hasOption(id, 'privacyUnit')) {
        throw new RangeError(
          `playground: privacyUnit 'user': ${id} has no user-level mode; choose policies with the privacyUnit option (the AdaPrivate family) or a non-private reference.`,
        );
      }
      // the study's bounds: c rewards per release, m = k releases in the run's one (lifetime) epoch
      params.contributionsPerRelease = s.contributionsPerRelease ?? 1;
      params.releasesPerEpoch = s.releasesPerEpoch ?? (k as number);
    }
    return { policy: id, params, tune: false };
  });
  const raw = {
    env: { kind: 'synthetic', dim: s.dim, arms: s.arms, armsPerRound: s.armsPerRound, arrivalsPerUnit: k },
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
  /**
   * The guarantee at the end, from the policy's ledger (null for non-private policies). A user-level
   * run adds the unit, the rewards offered and dropped by the bounds, and the per-epoch epsilon
   * (the top-level epsilon is the cumulative one; with one epoch, the two are equal).
   */
  readonly privacy: {
    readonly epsilon: number;
    readonly delta: number;
    readonly releases: number;
    readonly unit: 'event' | 'user';
    readonly offered?: number;
    readonly dropped?: number;
    readonly perEpochEpsilon?: number;
  } | null;
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
    const env = syntheticCellEnvironment(cell.env, cell.seed, cell.horizon);
    const out = runFullInformation(cell, env, NO_PRIOR, (_t, p) => {
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
      privacy:
        cell.epsilon === null
          ? null
          : {
              epsilon: g.epsilon,
              delta: g.delta,
              releases: g.releases,
              unit: g.unit ?? 'event',
              ...(g.unit === 'user'
                ? {
                    offered: g.offered ?? 0,
                    dropped: g.dropped?.total ?? 0,
                    perEpochEpsilon: g.perEpoch?.epsilon ?? Number.NaN,
                  }
                : {}),
            },
    };
    runs.push(run);
    onRun?.(run, runs.length, cells.length);
  }
  return runs;
}
