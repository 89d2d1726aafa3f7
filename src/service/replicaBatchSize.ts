/**
 * The release unit of a policy when several replicas serve it: the number of rewards one
 * `releaseBatch` consumes, or null when the policy cannot be served by replicas.
 *
 * - Batched private policies (AdaPrivate-TS/-UCB/-TS-Amp/-TS-Adaptive): their `batchSize`; each
 *   full batch makes exactly one release.
 * - Non-private policies (LinUCB, LinTS): 1; each reward is committed into the shared snapshot on
 *   its own (no privacy release, the ledger row records 0 releases).
 * - The others (JDP-LinUCB, zCDP-Episodic, DGS-LinUCB, AdaC-OFUL-zCDP, RarelySwitching-zCDP)
 *   release on events that are not a fixed number of rewards (a tree node, an episode, a select
 *   after new data, a determinant trigger), or are bounded by their horizon: null.
 */
import type { PolicyId } from '../policies/index.js';
import { policyInfo } from '../policies/index.js';

/**
 * @example
 * replicaBatchSize('adaprivate-ts', { batchSize: 300 }); // returns 300
 * replicaBatchSize('lints', {}); // returns 1
 * replicaBatchSize('dgs-linucb', {}); // returns null
 */
export function replicaBatchSize(id: PolicyId, config: Readonly<Record<string, unknown>>): number | null {
  const info = policyInfo(id);
  if (!info.isPrivate) return 1;
  if (info.boundedByHorizon || !('batchSize' in info.defaults)) return null;
  const b = config.batchSize;
  return typeof b === 'number' && Number.isSafeInteger(b) && b >= 1 ? b : null;
}
