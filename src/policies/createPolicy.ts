/**
 * The policy factory: validates the options of `id` (see `policyInfo(id)` for names, defaults and
 * domains), derives the privacy calibration, and builds the policy. The runner and the CLI create
 * every policy through this one function.
 */
import { BatchedRidgePolicy } from './BatchedRidgePolicy.js';
import { DgsLinUcbPolicy } from './DgsLinUcbPolicy.js';
import { JdpLinUcbPolicy } from './JdpLinUcbPolicy.js';
import type { Policy, PolicyId } from './Policy.js';
import type { PolicyConfig, PolicyOptions } from './PolicyOptions.js';
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
import { ZcdpEpisodicPolicy } from './ZcdpEpisodicPolicy.js';

type Builder = (config: PolicyConfig) => Policy;

/** AdaPrivate-TS / -UCB release: sigma = 1/sqrt(2 rho), sensitivity 1, parallel over batches. */
function zcdpBatch(config: PolicyConfig) {
  const rho = budgetRho(config);
  const sigma = 1 / Math.sqrt(2 * rho);
  return {
    batchSize: config.batchSize as number,
    sigma,
    q: 1,
    event: gaussianEvent(1, sigma),
    label: 'batch sum',
  };
}

const BUILDERS: Readonly<Record<PolicyId, Builder>> = {
  /**
   * AdaPrivate-TS (the paper's Algorithm 1): batched sufficient-statistic perturbation of b with
   * Thompson sampling theta~ ~ N(A^{-1} b, v^2 A^{-1}). rho-zCDP (parallel over batches). O(d^2)/round.
   */
  'adaprivate-ts': (c) =>
    new BatchedRidgePolicy(
      'adaprivate-ts',
      c,
      { kind: 'ts', v: c.v as number },
      zcdpBatch(c),
      makeLedger(c.delta as number, 'parallel'),
    ),
  /** AdaPrivate-UCB: the same releases, a_t = argmax x^T theta_hat + alpha ||x||_{A^{-1}}. rho-zCDP. O(K d^2)/round. */
  'adaprivate-ucb': (c) =>
    new BatchedRidgePolicy(
      'adaprivate-ucb',
      c,
      { kind: 'ucb', alpha: c.alpha as number },
      zcdpBatch(c),
      makeLedger(c.delta as number, 'parallel'),
    ),
  /**
   * AdaPrivate-TS-Amp: Poisson subsampling (rate q) of each batch, N(0, sigma_amp^2 I) on the
   * subsampled sum, rescaled by 1/q; sigma_amp calibrated by the RDP accountant to (eps, delta).
   * With q = 1 it is exactly AdaPrivate-TS (zCDP calibration, no subsampling draws). O(d^2)/round.
   */
  'adaprivate-ts-amp': (c) => {
    const q = c.q as number;
    const orders = c.orders as 'paper' | 'extended';
    const conversion = c.conversion as 'classic' | 'improved';
    if (q >= 1) {
      return new BatchedRidgePolicy(
        'adaprivate-ts-amp',
        c,
        { kind: 'ts', v: c.v as number },
        zcdpBatch(c),
        makeLedger(c.delta as number, 'parallel'),
      );
    }
    const { sigma, order } = calibrateSubsampledSigma(
      budgetEpsilon(c),
      c.delta as number,
      q,
      orders,
      conversion,
    );
    return new BatchedRidgePolicy(
      'adaprivate-ts-amp',
      c,
      { kind: 'ts', v: c.v as number },
      {
        batchSize: c.batchSize as number,
        sigma,
        q,
        event: subsampledGaussianEvent(q, sigma),
        label: 'subsampled batch sum',
      },
      makeLedger(c.delta as number, 'parallel', conversion, orders, order),
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
        v0: tuned ? null : (c.v0 as number),
        gamma: c.gamma as number,
        sigma: batch.sigma,
        lambda0: typeof c.lambda0 === 'number' ? c.lambda0 : null,
      },
      batch,
      makeLedger(c.delta as number, 'parallel'),
    );
  },
  /** LinUCB (Li et al. 2010), non-private, updates every round. O(K d^2)/round. */
  linucb: (c) => new BatchedRidgePolicy('linucb', c, { kind: 'ucb', alpha: c.alpha as number }, null, null),
  /** LinTS (Agrawal & Goyal 2013), non-private, updates every round. O(d^2)/round. */
  lints: (c) => new BatchedRidgePolicy('lints', c, { kind: 'ts', v: c.v as number }, null, null),
  'jdp-linucb': (c) =>
    new JdpLinUcbPolicy('jdp-linucb', c, budgetEpsilon(c), makeLedger(c.delta as number, 'sequential')),
  'zcdp-episodic': (c) =>
    new ZcdpEpisodicPolicy('zcdp-episodic', c, budgetRho(c), makeLedger(c.delta as number, 'sequential')),
  'adac-oful-zcdp': (c) => {
    const rho = budgetRho(c);
    return new SwitchingOfulPolicy(
      'adac-oful-zcdp',
      c,
      true,
      rho,
      gaussianEvent(1, 1 / Math.sqrt(2 * rho)),
      makeLedger(c.delta as number, 'parallel'),
    );
  },
  'rarely-switching-zcdp': (c) => {
    const rho = budgetRho(c);
    return new SwitchingOfulPolicy(
      'rarely-switching-zcdp',
      c,
      false,
      rho,
      gaussianEvent(1, 1 / Math.sqrt(2 * rho)),
      makeLedger(c.delta as number, 'parallel'),
    );
  },
  'dgs-linucb': (c) =>
    new DgsLinUcbPolicy('dgs-linucb', c, budgetRho(c), makeLedger(c.delta as number, 'sequential')),
};

/**
 * Creates policy `id` from validated `options` (unknown options and invalid values are refused with
 * a message naming the option, the value and the rule).
 *
 * @example
 * const p = createPolicy('adaprivate-ts', { dim: 20, horizon: 10000, seed: 1, epsilon: 1 });
 * p.config.batchSize; // returns 300
 */
export function createPolicy(id: PolicyId, options: PolicyOptions): Policy {
  const config = resolveConfig(id, options);
  const build = BUILDERS[id];
  return build(config);
}
