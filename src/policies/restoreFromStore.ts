/**
 * The service's way back from its database to a policy: a FRESH policy of `id` with `options`,
 * restored from the snapshot the store holds. Not part of the public API (not in ./index.ts).
 *
 * Library users restore with `restore`/`loadPolicy`, which hand the lineage over within the process
 * and refuse a snapshot behind the releases the lineage has already made here (lineageRegistry.ts).
 * The service's replicas restore the store's latest committed snapshot again and again (a decision
 * view per release, a fresh policy per release computation), possibly while a computation in the
 * same process is ahead of the database by a release that will never commit (a rolled-back
 * transaction, another replica in a test process). There the database, not the process, serialises
 * the lineage: a release commits only as the stored version + 1 under the model row lock, and a
 * computed policy is used only after its commit. So this path neither claims nor checks the
 * process-wide registry; everything else of `restore` (checksum, configuration, ledger consistency)
 * applies unchanged.
 *
 * @example
 * const p = restoreFromStore('adaprivate-ts', row.options, JSON.parse(state.snapshot));
 * p.privacy().releases; // returns the releases of the stored snapshot, e.g. 3
 */
import { BasePolicy, type PolicyRuntime } from './BasePolicy.js';
import { createPolicy } from './createPolicy.js';
import { STORE_SERIALISED } from './lineageRegistry.js';
import type { Policy, PolicyId, PolicySnapshot } from './Policy.js';
import type { PolicyOptionsFor } from './PolicyOptions.js';
import { withStoredAccountant } from './withStoredAccountant.js';

export function restoreFromStore<I extends PolicyId>(
  id: I,
  options: PolicyOptionsFor<I>,
  snapshot: PolicySnapshot,
  runtime?: PolicyRuntime,
): Policy<I> {
  const p = createPolicy(id, withStoredAccountant(id, options), runtime);
  if (!(p instanceof BasePolicy)) {
    throw new TypeError(`restoreFromStore: policy '${id}' is not built on BasePolicy.`);
  }
  p.restore(snapshot, { [STORE_SERIALISED]: true });
  return p;
}
