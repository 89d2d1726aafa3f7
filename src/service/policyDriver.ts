/**
 * How the service drives a policy: decisions by `selectWithPropensity` + `discard` (a decision never
 * waits for its reward inside the policy), learning by `observe` (the reward arrives later, by event
 * id, with the chosen arm's features from the database). Both go through the policy's own clipping,
 * batching, noise and ledger.
 */
import type { Policy, PolicyId } from '../policies/index.js';
import { policyInfo } from '../policies/index.js';

/** The parts of the policy contract (contract 3) the service uses beyond `select`/`update`. */
interface ContractPolicy {
  selectWithPropensity?(
    features: Float64Array,
    k: number,
    options?: { samples?: number },
  ): { arm: number; propensity: number; probabilities: { probabilities: Float64Array; samples: number } };
  discard?(): void;
  observe?(features: Float64Array, reward: number): void;
  readonly roundsLearned?: number;
}

/** What one decision returns. */
export interface DriverDecision {
  readonly arm: number;
  /** Probability of each arm (length k). */
  readonly probabilities: Float64Array;
  /** Monte Carlo draws behind `probabilities` (0: exact). */
  readonly samples: number;
}

/** Chooses one of `k` arms (features k x d, row-major) and returns every arm's probability. */
export function decide(policy: Policy, features: Float64Array, k: number, samples: number): DriverDecision {
  const p = policy as Policy & ContractPolicy;
  if (typeof p.selectWithPropensity === 'function' && typeof p.discard === 'function') {
    const r = p.selectWithPropensity(features, k, { samples });
    p.discard();
    return { arm: r.arm, probabilities: r.probabilities.probabilities, samples: r.probabilities.samples };
  }
  // before the scoring contract: the plain select (replaced by the next one), one-hot probabilities
  const arm = policy.select(features, k);
  const probabilities = new Float64Array(k);
  probabilities[arm] = 1;
  return { arm, probabilities, samples: 0 };
}

/** Learns from one round whose arm (features `x`, d values) was chosen earlier, with `reward` in [0, 1]. */
export function observe(policy: Policy, x: Float64Array, reward: number): void {
  const p = policy as Policy & ContractPolicy;
  if (typeof p.observe === 'function') {
    p.observe(x, reward);
    return;
  }
  policy.select(x, 1);
  policy.update(reward);
}

const BOUNDED_BY_HORIZON: ReadonlySet<string> = new Set(['jdp-linucb', 'zcdp-episodic', 'dgs-linucb']);

/** True when the policy's guarantee is calibrated for its horizon T (it must stop learning after T rounds). */
export function boundedByHorizon(id: PolicyId): boolean {
  const info = policyInfo(id) as { boundedByHorizon?: boolean };
  return info.boundedByHorizon ?? BOUNDED_BY_HORIZON.has(id);
}
