import type { PolicyRuntime } from './BasePolicy.js';
import { createPolicy } from './createPolicy.js';
import type { Policy, PolicySnapshot, RestoreOptions } from './Policy.js';
import { parsePolicySpec } from './parsePolicySpec.js';
import { isPolicyId } from './policyInfo.js';
import { openSnapshot } from './snapshotFormat.js';
import { snapshotKeyBytes } from './snapshotKey.js';
import { withStoredAccountant } from './withStoredAccountant.js';

/**
 * Rebuilds a policy from a snapshot alone (object or the JSON text of `policy.save()`): the snapshot
 * carries the policy id and its configuration. The snapshot's MAC must verify under `options.key`
 * (the key it was saved with; default: this process's random key, so a snapshot saved by another
 * process needs a key passed to both): nothing of a snapshot that does not verify is read. The new
 * policy continues the lineage's privacy ledger; its noise is fresh from the secure source unless
 * the snapshot was taken in research mode (`noiseSeed`), in which case the seeded stream continues
 * and `privacy().noise` says 'seeded'. A snapshot of a newer format version is refused naming both
 * versions; an unsigned one (format 2, adaprivate 0.1.0) is refused with the migration step to take
 * (`migrateSnapshot`); one whose ledger disagrees with its state is refused naming the field.
 *
 * Within one process a lineage has one holder (lineageRegistry.ts): the loaded policy takes the
 * lineage over (the policy the snapshot came from, or an earlier load, can no longer select, update or
 * finish), and a snapshot with fewer releases than the lineage has already made in this process is
 * refused. Across processes nothing can see another copy: load a snapshot once (docs/privacy.md).
 *
 * @param options - `key`: the snapshot key; `rewind` is meaningless for a fresh policy and ignored;
 * `branch` (research mode only) loads a new branch with its own lineage, reported by
 * `privacy().branched`.
 * @example
 * const key = createSnapshotKey(); // keep it apart from the snapshots
 * const copy = loadPolicy(policy.save({ key }), { key });
 * copy.privacy().releases === policy.privacy().releases; // returns true
 */
export function loadPolicy(
  snapshot: PolicySnapshot | string,
  options: RestoreOptions = {},
  runtime?: PolicyRuntime,
): Policy {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`loadPolicy: options must be an object such as { key }. Got ${String(options)}.`);
  }
  let snap: unknown = snapshot;
  if (typeof snapshot === 'string') {
    try {
      snap = JSON.parse(snapshot);
    } catch (e) {
      throw new RangeError(`loadPolicy: the snapshot text is not valid JSON (${(e as Error).message}).`);
    }
  }
  // the MAC first: the id and configuration that build the policy are read only from a verified snapshot
  const key = snapshotKeyBytes(options.key, "loadPolicy: option 'key'");
  const s = openSnapshot(snap, key, 'loadPolicy');
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
  const spec = parsePolicySpec(s.id, given, 'loadPolicy: snapshot config');
  const policy = createPolicy(spec.id, spec.options, runtime);
  policy.restore(snap as PolicySnapshot, options);
  return policy;
}
