/**
 * A served model's policy restored from a stored snapshot (`restoreFromStore`), with one refusal
 * made precise: a snapshot of a newer format than this version reads (a newer replica released the
 * model during a rolling upgrade, docs/serving.md "Rolling upgrades") is answered 503
 * replica_outdated for that model, naming both versions, instead of a 500. Every other model keeps
 * serving, and the newer replicas serve this one.
 */

import type { PolicyRuntime } from '../policies/BasePolicy.js';
import type { Policy, PolicyId, PolicySnapshot, SnapshotKey } from '../policies/index.js';
import { SNAPSHOT_FORMAT_VERSION } from '../policies/index.js';
import { restoreFromStore } from '../policies/restoreFromStore.js';
import { VERSION } from '../version.js';
import { ServiceError } from './ServiceError.js';

/** The snapshot format version of a stored snapshot (parsed JSON), or null when it has none. */
function formatVersion(snapshot: unknown): number | null {
  if (typeof snapshot !== 'object' || snapshot === null) return null;
  const v = (snapshot as { version?: unknown }).version;
  return typeof v === 'number' ? v : null;
}

/**
 * `restoreFromStore(id, options, JSON.parse(text), key, runtime)` for model `model`; a snapshot
 * of a newer format throws ServiceError 503 replica_outdated.
 *
 * @example
 * restoreServed('news', 'lints', row.options, state.snapshot, key).privacy().releases; // e.g. 3
 */
export function restoreServed(
  model: string,
  id: PolicyId,
  options: Readonly<Record<string, unknown>>,
  text: string,
  key: SnapshotKey,
  runtime?: PolicyRuntime,
): Policy {
  const snapshot = JSON.parse(text) as PolicySnapshot;
  const v = formatVersion(snapshot);
  if (v !== null && v > SNAPSHOT_FORMAT_VERSION) {
    throw new ServiceError(
      503,
      'replica_outdated',
      `model '${model}' was last released by a newer adaprivate (snapshot format ${v}); this replica (adaprivate ${VERSION}) reads snapshot formats up to ${SNAPSHOT_FORMAT_VERSION}: the upgraded replicas serve it, upgrade this one (docs/serving.md, "Rolling upgrades").`,
    );
  }
  return restoreFromStore(id, options as never, snapshot, key, runtime);
}
