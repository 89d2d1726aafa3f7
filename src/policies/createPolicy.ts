/**
 * The policy factory: validates the options of `id` (see `policyInfo(id)` for names, defaults and
 * domains), derives the privacy calibration, and builds the policy. The runner and the CLI create
 * every policy through this one function.
 */
import { BasePolicy, type PolicyRuntime } from './BasePolicy.js';
import { BatchedRidgePolicy } from './BatchedRidgePolicy.js';
import { DgsLinUcbPolicy } from './DgsLinUcbPolicy.js';
import { JdpLinUcbPolicy } from './JdpLinUcbPolicy.js';
import type { Policy, PolicyId } from './Policy.js';
import type { BudgetConfig, PolicyConfigMap, PolicyOptionsFor } from './PolicyOptions.js';
import {
  budgetEpsilon,
  budgetRho,
  calibrateSubsampledSigma,
  gaussianEvent,
  makeLedger,
  subsampledGaussianEvent,
} from './privacyAdapter.js';
import { resolveConfig } from './resolveConfig.js';
import { SwitchingOfulPolicy } from './SwitchingOfulPolicy.js';
import { unitNoise, unitSettings } from './UserLevelPrivacy.js';
import { ZcdpEpisodicPolicy } from './ZcdpEpisodicPolicy.js';

/** One builder per policy id, each taking that policy's typed configuration. */
type Builders = { readonly [I in PolicyId]: (config: PolicyConfigMap[I]) => Policy };

/**
 * AdaPrivate-TS / -UCB release: sigma = 1/sqrt(2 rho), sensitivity 1, parallel over batches; with
 * privacyUnit 'user', sigma = c sqrt(m / (2 rho)) (m releases of sensitivity c per unit and epoch).
 */
function zcdpBatch(config: BudgetConfig & { readonly batchSize: number }) {
  const unit = unitSettings(config);
  const sigma = unit === null ? 1 / Math.sqrt(2 * budgetRho(config)) : unitNoise(config, unit, 1).sigma;
  return {
    batchSize: config.batchSize,
    sigma,
    q: 1,
    event: gaussianEvent(1, sigma),
    label: 'batch sum',
  };
}

const BUILDERS: Builders = {
  /**
   * AdaPrivate-TS (the paper's Algorithm 1): batched sufficient-statistic perturbation of b with
   * Thompson sampling theta~ ~ N(A^{-1} b, v^2 A^{-1}). rho-zCDP (parallel over batches). O(d^2)/round.
   */
  'adaprivate-ts': (c) =>
    new BatchedRidgePolicy(
      'adaprivate-ts',
      c,
      { kind: 'ts', v: c.v },
      zcdpBatch(c),
      makeLedger(c.delta, 'parallel'),
    ),
  /** AdaPrivate-UCB: the same releases, a_t = argmax x^T theta_hat + alpha ||x||_{A^{-1}}. rho-zCDP. O(K d^2)/round. */
  'adaprivate-ucb': (c) =>
    new BatchedRidgePolicy(
      'adaprivate-ucb',
      c,
      { kind: 'ucb', alpha: c.alpha },
      zcdpBatch(c),
      makeLedger(c.delta, 'parallel'),
    ),
  /**
   * AdaPrivate-TS-Amp: Poisson subsampling (rate q) of each batch, N(0, sigma_amp^2 I) on the
   * subsampled sum, rescaled by 1/q; sigma_amp calibrated by the RDP accountant to (eps, delta).
   * With q = 1 it is exactly AdaPrivate-TS (zCDP calibration, no subsampling draws). O(d^2)/round.
   */
  'adaprivate-ts-amp': (c) => {
    const q = c.q;
    const orders = c.orders;
    const conversion = c.conversion;
    if (q >= 1) {
      return new BatchedRidgePolicy(
        'adaprivate-ts-amp',
        c,
        { kind: 'ts', v: c.v },
        zcdpBatch(c),
        makeLedger(c.delta, 'parallel'),
      );
    }
    // user-level: units sampled at rate q, m subsampled releases of sensitivity c (RDP)
    const unit = unitSettings(c);
    const { sigma, order } =
      unit === null
        ? calibrateSubsampledSigma(budgetEpsilon(c), c.delta, q, orders, conversion)
        : (() => {
            const u = unitNoise(c, unit, q, orders, conversion);
            return { sigma: u.sigma, order: u.order ?? 2 };
          })();
    return new BatchedRidgePolicy(
      'adaprivate-ts-amp',
      c,
      { kind: 'ts', v: c.v },
      {
        batchSize: c.batchSize,
        sigma,
        q,
        event: subsampledGaussianEvent(q, sigma),
        label: 'subsampled batch sum',
      },
      makeLedger(c.delta, 'parallel', conversion, orders, order),
    );
  },
  /**
   * AdaPrivate-TS-Adaptive: AdaPrivate-TS with v_k = v0 gamma^(k-1); 'tuned' sets
   * v0 = 1 + sigma / (d sqrt(lambda_0)) with lambda_0 given or estimated after batch 1. rho-zCDP.
   */
  'adaprivate-ts-adaptive': (c) => {
    const batch = zcdpBatch(c);
    const tuned = c.adaptiveSetting === 'tuned';
    return new BatchedRidgePolicy(
      'adaprivate-ts-adaptive',
      c,
      {
        kind: 'ts-decay',
        v0: tuned ? null : c.v0,
        gamma: c.gamma,
        sigma: batch.sigma,
        lambda0: c.lambda0 ?? null,
      },
      batch,
      makeLedger(c.delta, 'parallel'),
    );
  },
  /** LinUCB (Li et al. 2010), non-private, updates every round. O(K d^2)/round. */
  linucb: (c) => new BatchedRidgePolicy('linucb', c, { kind: 'ucb', alpha: c.alpha }, null, null),
  /** LinTS (Agrawal & Goyal 2013), non-private, updates every round. O(d^2)/round. */
  lints: (c) => new BatchedRidgePolicy('lints', c, { kind: 'ts', v: c.v }, null, null),
  'jdp-linucb': (c) =>
    new JdpLinUcbPolicy('jdp-linucb', c, budgetEpsilon(c), makeLedger(c.delta, 'sequential')),
  'zcdp-episodic': (c) =>
    new ZcdpEpisodicPolicy('zcdp-episodic', c, budgetRho(c), makeLedger(c.delta, 'sequential')),
  'adac-oful-zcdp': (c) => {
    const rho = episodeRho(c);
    return new SwitchingOfulPolicy(
      'adac-oful-zcdp',
      c,
      true,
      rho,
      gaussianEvent(1, 1 / Math.sqrt(2 * rho)),
      makeLedger(c.delta, 'parallel'),
    );
  },
  'rarely-switching-zcdp': (c) => {
    const rho = episodeRho(c);
    return new SwitchingOfulPolicy(
      'rarely-switching-zcdp',
      c,
      false,
      rho,
      gaussianEvent(1, 1 / Math.sqrt(2 * rho)),
      makeLedger(c.delta, 'parallel'),
    );
  },
  'dgs-linucb': (c) => new DgsLinUcbPolicy('dgs-linucb', c, budgetRho(c), makeLedger(c.delta, 'sequential')),
};

/**
 * The rho of one episode release of the switching-OFUL policies (sensitivity 1, sigma =
 * 1/sqrt(2 rho)): the budget, or with privacyUnit 'user' rho / (m c^2), so that a unit's m releases
 * of sensitivity c compose to the budget (sigma = c sqrt(m / (2 rho))).
 */
function episodeRho(c: BudgetConfig): number {
  const unit = unitSettings(c);
  if (unit === null) return budgetRho(c);
  const sigma = unitNoise(c, unit, 1).sigma;
  return 1 / (2 * sigma * sigma);
}

/**
 * Creates policy `id` from validated `options` (unknown options and invalid values are refused with
 * a message naming the option, the value and the rule).
 *
 * @example
 * const p = createPolicy('adaprivate-ts', { dim: 20, horizon: 10000, seed: 1, epsilon: 1 });
 * p.config.batchSize; // returns 300
 * // user-level: every reward names its unit; at most 1 per release and 10 releases per 30 days
 * const u = createPolicy('adaprivate-ts', { dim: 20, horizon: 10000, seed: 1, epsilon: 1,
 *   privacyUnit: 'user', releasesPerEpoch: 10, epochDays: 30 });
 * @param runtime - user-level policies: the clock of `epochDays` and the unit-count store (see `PolicyRuntime`).
 */
export function createPolicy<I extends PolicyId>(
  id: I,
  options: PolicyOptionsFor<I>,
  runtime?: PolicyRuntime,
): Policy<I> {
  const config = resolveConfig(id, options);
  const build: (config: PolicyConfigMap[I]) => Policy = BUILDERS[id];
  const policy = build(config);
  if (runtime !== undefined && policy instanceof BasePolicy) policy.useRuntime(runtime);
  return policy as Policy<I>;
}
