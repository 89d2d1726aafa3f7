import type { PolicyRuntime } from './BasePolicy.js';
import { createPolicy } from './createPolicy.js';
import type { Policy, PolicySnapshot, RestoreOptions } from './Policy.js';
import type { PolicyOptions } from './PolicyOptions.js';
import { isPolicyId } from './policyInfo.js';
import { withStoredAccountant } from './withStoredAccountant.js';

/**
 * Rebuilds a policy from a snapshot alone (object or the JSON text of `policy.save()`): the snapshot
 * carries the policy id, its configuration and the library version. The new policy continues the
 * lineage's privacy ledger; its noise is fresh from the secure source unless the snapshot was taken in
 * research mode (`noiseSeed`), in which case the seeded stream continues and `privacy().noise` says
 * 'seeded'. A snapshot from another library version, a corrupted or edited one, or one whose ledger
 * disagrees with its state is refused with a message naming the field.
 *
 * Within one process a lineage has one holder (lineageRegistry.ts): the loaded policy takes the
 * lineage over (the policy the snapshot came from, or an earlier load, can no longer select, update or
 * finish), and a snapshot with fewer releases than the lineage has already made in this process is
 * refused. Across processes nothing can see another copy: load a snapshot once (docs/privacy.md).
 *
 * @param options - `rewind` is meaningless for a fresh policy and ignored; `branch` (research mode
 * only) loads a new branch with its own lineage, reported by `privacy().branched`.
 * @example
 * const text = policy.save();
 * const copy = loadPolicy(text);
 * copy.privacy().releases === policy.privacy().releases; // returns true
 */
export function loadPolicy(
  snapshot: PolicySnapshot | string,
  options: RestoreOptions = {},
  runtime?: PolicyRuntime,
): Policy {
  let snap: unknown = snapshot;
  if (typeof snapshot === 'string') {
    try {
      snap = JSON.parse(snapshot);
    } catch (e) {
      throw new RangeError(`loadPolicy: the snapshot text is not valid JSON (${(e as Error).message}).`);
    }
  }
  if (typeof snap !== 'object' || snap === null || Array.isArray(snap)) {
    throw new TypeError('loadPolicy: a snapshot must be an object or the JSON text of one.');
  }
  const s = snap as Partial<PolicySnapshot>;
  if (s.format !== 'adaprivate.policySnapshot') {
    throw new RangeError(
      `loadPolicy: snapshot field 'format' is ${JSON.stringify(s.format)}, expected "adaprivate.policySnapshot".`,
    );
  }
  if (typeof s.id !== 'string' || !isPolicyId(s.id)) {
    throw new RangeError(
      `loadPolicy: snapshot field 'id' is ${JSON.stringify(s.id)}, not a known policy id.`,
    );
  }
  if (typeof s.config !== 'object' || s.config === null || Array.isArray(s.config)) {
    throw new RangeError("loadPolicy: snapshot field 'config' must be an object.");
  }
  // a configuration without `accountant` was written before the option existed: the paper's accountant
  const given = withStoredAccountant(s.id, s.config);
  const policy = createPolicy(s.id, given as unknown as PolicyOptions, runtime);
  policy.restore(s as PolicySnapshot, options);
  return policy;
}
