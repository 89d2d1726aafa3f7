/**
 * How replicas sharing a database (PostgreSQL) learn a policy: the number of rewards one
 * `releaseBatch` consumes (`unit`), and whether that learning is serialised (`serialised`). Every
 * policy has one (docs/serving-replicas.md, "Policies on replicas").
 *
 * - Batched private policies (AdaPrivate-TS/-UCB/-TS-Amp/-TS-Adaptive): unit = their `batchSize`;
 *   each full batch makes exactly one release (checked when it is computed).
 * - Non-private policies (LinUCB, LinTS): unit = 1; each reward is committed into the shared
 *   snapshot on its own (no privacy release: the ledger row records 0).
 * - The other private policies (JDP-LinUCB, zCDP-Episodic, DGS-LinUCB, AdaC-OFUL-zCDP,
 *   RarelySwitching-zCDP) release on events that are not a fixed number of rewards (a tree node, an
 *   episode start, a select after new data, a determinant trigger): serialised learning, unit = 1.
 *   Each reward is one step under the model row lock (restore, observe, commit), and its ledger row
 *   records what the policy itself released in that step (0, 1 or more).
 */
import type { PolicyId } from '../policies/index.js';
import { policyInfo } from '../policies/index.js';

/** The release unit of a policy on replicas. */
export interface ReplicaReleaseUnit {
  /** Rewards consumed by one release transaction (a positive integer). */
  readonly unit: number;
  /**
   * True when each step records whatever the policy released (0 or more); false when each unit must
   * make exactly one release (a private batched policy) or none (a non-private one).
   */
  readonly serialised: boolean;
}

/**
 * @example
 * replicaReleaseUnit('adaprivate-ts', { batchSize: 300 }); // returns { unit: 300, serialised: false }
 * replicaReleaseUnit('lints', {}); // returns { unit: 1, serialised: false }
 * replicaReleaseUnit('dgs-linucb', {}); // returns { unit: 1, serialised: true }
 */
export function replicaReleaseUnit(id: PolicyId, config: object): ReplicaReleaseUnit {
  const info = policyInfo(id);
  if (!info.isPrivate) return { unit: 1, serialised: false };
  const b = 'batchSize' in config ? config.batchSize : undefined;
  if (!info.boundedByHorizon && 'batchSize' in info.defaults) {
    if (typeof b !== 'number' || !Number.isSafeInteger(b) || b < 1) {
      throw new RangeError(`replicaReleaseUnit: ${id} needs a positive integer batchSize. Got ${String(b)}.`);
    }
    return { unit: b, serialised: false };
  }
  return { unit: 1, serialised: true };
}
