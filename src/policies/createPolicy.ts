/**
 * The policy factory: validates the options of `id` (see `policyInfo(id)` for names, defaults and
 * domains), derives the privacy calibration, and builds the policy. The runner and the CLI create
 * every policy through this one function.
 */
import {
  type AccountantName,
  budgetEpsilon,
  calibrateGaussian,
  exactReport,
  makeLedger,
  type NoiseCalibration,
  type PrivacyBudget,
} from '../mechanisms/index.js';
import { BasePolicy, type PolicyRuntime } from './BasePolicy.js';
import { BatchedRidgePolicy, type BatchRelease } from './BatchedRidgePolicy.js';
import { DgsLinUcbPolicy } from './DgsLinUcbPolicy.js';
import { JdpLinUcbPolicy } from './JdpLinUcbPolicy.js';
import type { Policy, PolicyId } from './Policy.js';
import type { PolicyConfigMap, PolicyOptionsFor } from './PolicyOptions.js';
import { policyInfo } from './policyInfo.js';
import { resolveConfig } from './resolveConfig.js';
import { SwitchingOfulPolicy } from './SwitchingOfulPolicy.js';
import { unitSettings } from './UserLevelPrivacy.js';
import { episodeBound, ZcdpEpisodicPolicy } from './ZcdpEpisodicPolicy.js';

/** One builder per policy id, each taking that policy's typed configuration. */
type Builders = { readonly [I in PolicyId]: (config: PolicyConfigMap[I]) => Policy };

/**
 * The compositions one protected unit takes part in: 1 for event-level policies (each reward in one
 * batch or episode: parallel composition), m = `releasesPerEpoch` with privacyUnit 'user' (a unit
 * takes part in at most m releases per epoch, each at sensitivity c = `contributionsPerRelease`:
 * the policy releases at sensitivity c, so sigma = c x the multiplier calibrated for m releases).
 */
function compositions(config: PrivacyBudget): number {
  return unitSettings(config)?.m ?? 1;
}

/**
 * The noise of one release per record (parallel composition over batches or episodes), sensitivity
 * 1, calibrated by the policy's accountant (src/mechanisms/calibrate.ts); with privacyUnit 'user',
 * for m releases of sensitivity c per unit.
 */
function oneRelease(id: PolicyId, config: PrivacyBudget & { readonly accountant: AccountantName }) {
  return calibrateGaussian(
    policyInfo(id).displayName,
    config,
    { compositions: compositions(config), q: 1 },
    config.accountant,
  );
}

/** The ledger of a policy whose releases have `calibration` (it reports under the same accountant). */
function ledgerFor(delta: number, composition: 'parallel' | 'sequential', calibration: NoiseCalibration) {
  return makeLedger(delta, composition, 'classic', 'extended', null, exactReport(calibration));
}

/**
 * AdaPrivate-TS / -UCB / -Adaptive release: one Gaussian release of each batch sum (sensitivity 1),
 * and the parallel ledger that reports it.
 */
function batched(
  id: PolicyId,
  config: PrivacyBudget & { readonly batchSize: number; readonly accountant: AccountantName },
): [BatchRelease, ReturnType<typeof makeLedger>] {
  const calibration = oneRelease(id, config);
  return [
    { batchSize: config.batchSize, calibration, label: 'batch sum' },
    ledgerFor(config.delta, 'parallel', calibration),
  ];
}

const BUILDERS: Builders = {
  /**
   * AdaPrivate-TS (the paper's Algorithm 1): batched sufficient-statistic perturbation of b with
   * Thompson sampling theta~ ~ N(A^{-1} b, v^2 A^{-1}). rho-zCDP (parallel over batches). O(d^2)/round.
   */
  'adaprivate-ts': (c) =>
    new BatchedRidgePolicy('adaprivate-ts', c, { kind: 'ts', v: c.v }, ...batched('adaprivate-ts', c)),
  /** AdaPrivate-UCB: the same releases, a_t = argmax x^T theta_hat + alpha ||x||_{A^{-1}}. rho-zCDP. O(K d^2)/round. */
  'adaprivate-ucb': (c) =>
    new BatchedRidgePolicy(
      'adaprivate-ucb',
      c,
      { kind: 'ucb', alpha: c.alpha },
      ...batched('adaprivate-ucb', c),
    ),
  /**
   * AdaPrivate-TS-Amp: Poisson subsampling (rate q) of each batch, N(0, sigma_amp^2 I) on the
   * subsampled sum, rescaled by 1/q; sigma_amp calibrated to (eps, delta) by the policy's accountant
   * ('rdp': the paper's RDP calibration on the order grid; 'zcdp' refuses q < 1). With q = 1 it is
   * exactly AdaPrivate-TS (accountant 'rdp' then means the paper's zCDP calibration, no subsampling
   * draws). O(d^2)/round.
   */
  'adaprivate-ts-amp': (c) => {
    const q = c.q;
    const orders = c.orders;
    const conversion = c.conversion;
    if (q >= 1) {
      const accountant = c.accountant === 'rdp' ? 'zcdp' : c.accountant;
      return new BatchedRidgePolicy(
        'adaprivate-ts-amp',
        c,
        { kind: 'ts', v: c.v },
        ...batched('adaprivate-ts-amp', { ...c, accountant }),
      );
    }
    // user-level: units Poisson-sampled at rate q, m subsampled releases of sensitivity c
    const calibration = calibrateGaussian(
      'AdaPrivate-TS-Amp',
      c,
      { compositions: compositions(c), q },
      c.accountant,
      { orders, conversion, noise: 'continuous' },
    );
    return new BatchedRidgePolicy(
      'adaprivate-ts-amp',
      c,
      { kind: 'ts', v: c.v },
      { batchSize: c.batchSize, calibration, label: 'subsampled batch sum' },
      makeLedger(c.delta, 'parallel', conversion, orders, calibration.order, exactReport(calibration)),
    );
  },
  /**
   * AdaPrivate-TS-Adaptive: AdaPrivate-TS with v_k = v0 gamma^(k-1); 'tuned' sets
   * v0 = 1 + sigma / (d sqrt(lambda_0)) with lambda_0 given or estimated after batch 1. rho-zCDP.
   */
  'adaprivate-ts-adaptive': (c) => {
    const [batch, ledger] = batched('adaprivate-ts-adaptive', c);
    const tuned = c.adaptiveSetting === 'tuned';
    return new BatchedRidgePolicy(
      'adaprivate-ts-adaptive',
      c,
      {
        kind: 'ts-decay',
        v0: tuned ? null : c.v0,
        gamma: c.gamma,
        sigma: batch.calibration.multiplier,
        lambda0: c.lambda0 ?? null,
      },
      batch,
      ledger,
    );
  },
  /** LinUCB (Li et al. 2010), non-private, updates every round. O(K d^2)/round. */
  linucb: (c) => new BatchedRidgePolicy('linucb', c, { kind: 'ucb', alpha: c.alpha }, null, null),
  /** LinTS (Agrawal & Goyal 2013), non-private, updates every round. O(d^2)/round. */
  lints: (c) => new BatchedRidgePolicy('lints', c, { kind: 'ts', v: c.v }, null, null),
  'jdp-linucb': (c) =>
    new JdpLinUcbPolicy('jdp-linucb', c, budgetEpsilon(c), makeLedger(c.delta, 'sequential')),
  /** zCDP-Episodic: M_max episode releases of the estimate compose sequentially (compositions M_max). */
  'zcdp-episodic': (c) => {
    const episodes = episodeBound(c.dim, c.horizon, c.lambda, c.cTrigger);
    const calibration = calibrateGaussian('zCDP-Episodic', c, { compositions: episodes, q: 1 }, c.accountant);
    return new ZcdpEpisodicPolicy(
      'zcdp-episodic',
      c,
      calibration,
      ledgerFor(c.delta, 'sequential', calibration),
    );
  },
  'adac-oful-zcdp': (c) => {
    const calibration = oneRelease('adac-oful-zcdp', c);
    return new SwitchingOfulPolicy(
      'adac-oful-zcdp',
      c,
      true,
      calibration,
      ledgerFor(c.delta, 'parallel', calibration),
    );
  },
  'rarely-switching-zcdp': (c) => {
    const calibration = oneRelease('rarely-switching-zcdp', c);
    const ledger = ledgerFor(c.delta, 'parallel', calibration);
    return new SwitchingOfulPolicy('rarely-switching-zcdp', c, false, calibration, ledger);
  },
  /** DGS-LinUCB: up to T per-step releases of the estimate compose sequentially (compositions T). */
  'dgs-linucb': (c) => {
    const calibration = calibrateGaussian('DGS-LinUCB', c, { compositions: c.horizon, q: 1 }, c.accountant);
    return new DgsLinUcbPolicy('dgs-linucb', c, calibration, ledgerFor(c.delta, 'sequential', calibration));
  },
};

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
