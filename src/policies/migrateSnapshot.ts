import { createPolicy } from './createPolicy.js';
import type { PolicyOptionsFor } from './PolicyOptions.js';
import { snapshotChecksum } from './snapshotChecksum.js';
import {
  FIRST_SIGNED_SNAPSHOT_VERSION,
  OLDEST_SNAPSHOT_VERSION,
  openSnapshot,
  SNAPSHOT_FORMAT_VERSION,
  signSnapshot,
  snapshotVersionOf,
} from './snapshotFormat.js';
import { type SnapshotKey, snapshotKeyBytes } from './snapshotKey.js';
import { migrateSnapshotContentTo } from './snapshotMigrations.js';

/** Options of {@link migrateSnapshot}. */
export interface MigrateSnapshotOptions {
  /**
   * The key the migrated snapshot is signed with (see `SnapshotKey`): a Uint8Array of >= 32 bytes
   * or a string of >= 32 characters. Default: this process's random key (the result then loads only
   * in this process).
   */
  readonly key?: SnapshotKey;
  /**
   * A signed snapshot's current key, when it differs from `key` (key rotation: verified under
   * `previousKey`, signed under `key`). Default: `key`.
   */
  readonly previousKey?: SnapshotKey;
  /**
   * Accept an UNSIGNED snapshot (format 2, written by adaprivate 0.1.0) and sign it (default false:
   * refused). Its checksum is checked (it catches corruption), but anyone can recompute it after
   * editing the ledger, the configuration or the noise mode: set this only for a file you know came
   * unaltered from your own 0.1.0 deployment. This is the one way an unsigned snapshot enters; loadPolicy and
   * restore never accept one.
   */
  readonly trustUnsigned?: boolean;
}

/**
 * Brings a snapshot of any format version this library reads to the current one
 * (SNAPSHOT_FORMAT_VERSION), signed under `options.key`, and returns its JSON text (what `save`
 * writes): the explicit, one-time operator step for snapshots written by an older adaprivate
 * (`adaprivate migrate snapshot FILE --key-file KEYFILE` on the command line; the service's store
 * migration calls it for every stored snapshot). A signed snapshot is verified under
 * `previousKey ?? key` first; an unsigned one (format 2, adaprivate 0.1.0) is accepted only with
 * `trustUnsigned: true` and an intact checksum. A newer format is refused naming both versions.
 * The package version that wrote the snapshot (`library`) is kept as information and never
 * decides anything. The state, ledger and lineage are carried over unchanged.
 *
 * @example
 * const text = migrateSnapshot(readFileSync('old.json', 'utf8'), { key, trustUnsigned: true });
 * const policy = loadPolicy(text, { key }); // the 0.1.0 policy, its ledger intact
 */
export function migrateSnapshot(snapshot: string | object, options: MigrateSnapshotOptions = {}): string {
  const who = 'migrateSnapshot';
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${who}: options must be an object such as { key, trustUnsigned: true }.`);
  }
  if (options.trustUnsigned !== undefined && typeof options.trustUnsigned !== 'boolean') {
    throw new TypeError(
      `${who}: option 'trustUnsigned' must be true or false. Got ${JSON.stringify(options.trustUnsigned)}.`,
    );
  }
  const key = snapshotKeyBytes(options.key, `${who}: option 'key'`);
  const previous =
    options.previousKey === undefined
      ? key
      : snapshotKeyBytes(options.previousKey, `${who}: option 'previousKey'`);
  let snap: unknown = snapshot;
  if (typeof snapshot === 'string') {
    try {
      snap = JSON.parse(snapshot);
    } catch (e) {
      throw new RangeError(`${who}: the snapshot text is not valid JSON (${(e as Error).message}).`);
    }
  }
  const version = snapshotVersionOf(snap, who);
  const s = snap as Record<string, unknown>;
  if (version >= FIRST_SIGNED_SNAPSHOT_VERSION) {
    return JSON.stringify(signSnapshot(openSnapshot(s, previous, who), key));
  }
  if (version < OLDEST_SNAPSHOT_VERSION) {
    throw new RangeError(
      `${who}: snapshot format version ${version} is older than this library reads (${OLDEST_SNAPSHOT_VERSION} to ${SNAPSHOT_FORMAT_VERSION}).`,
    );
  }
  if (options.trustUnsigned !== true) {
    throw new RangeError(
      `${who}: snapshot format version ${version} (written by adaprivate ${String(s.library)}) is unsigned: anyone who edits it can recompute its checksum. Pass { trustUnsigned: true } (command line: adaprivate migrate snapshot) only for a file you know came unaltered from your own deployment.`,
    );
  }
  const { checksum, ...content } = s;
  const sum = snapshotChecksum(content);
  if (checksum !== sum) {
    throw new RangeError(
      `${who}: snapshot field 'checksum' is ${JSON.stringify(checksum)}, the content gives ${JSON.stringify(sum)}: the snapshot is corrupted or was edited.`,
    );
  }
  const migrated = migrateSnapshotContentTo(s, version, SNAPSHOT_FORMAT_VERSION, who);
  return JSON.stringify(signSnapshot(migrated.id === 'jdp-linucb' ? jdpFromV2(migrated) : migrated, key));
}

/**
 * JDP-LinUCB from format 2: 0.1.0 recorded one ledger release per tree level (`levelsUsed`), format
 * 3 one per node (one per learned round, the nodes of a level composing in parallel), with the same
 * total rho. The ledger and the tree counters of format 3 are those of a policy of the same
 * configuration that learned the same number of rounds in one pass (they depend on nothing else);
 * the migration is refused unless that ledger's rho equals the 0.1.0 one (the same guarantee).
 */
function jdpFromV2(content: Record<string, unknown>): Record<string, unknown> {
  const who = 'migrateSnapshot';
  // biome-ignore lint/suspicious/noExplicitAny: the fields of an old snapshot, checked below
  const st = content.state as any;
  const rounds = st?.base?.rounds;
  const levelsUsed = st?.own?.levelsUsed;
  const oldLedger = st?.base?.ledger;
  if (
    !Number.isSafeInteger(rounds) ||
    !Number.isSafeInteger(levelsUsed) ||
    oldLedger?.releases !== levelsUsed
  ) {
    throw new RangeError(
      `${who}: JDP-LinUCB snapshot of format 2 is inconsistent (state.base.rounds, state.own.levelsUsed and the ledger's releases).`,
    );
  }
  const twin = createPolicy('jdp-linucb', content.config as PolicyOptionsFor<'jdp-linucb'>);
  const d = twin.config.dim;
  twin.observeMany(new Float64Array(rounds * d), new Float64Array(rounds));
  // biome-ignore lint/suspicious/noExplicitAny: reading the twin's own snapshot
  const ts = twin.snapshot().state as any;
  const rho = ts.base.ledger.rho as number;
  const oldRho = oldLedger.rho as number;
  if (!(Math.abs(rho - oldRho) <= 1e-12 * Math.max(rho, oldRho))) {
    throw new RangeError(
      `${who}: JDP-LinUCB snapshot of format 2: its ledger's rho ${oldRho} is not the ${rho} of ${rounds} rounds; not migrated.`,
    );
  }
  const { levelsUsed: _l, ...own } = st.own;
  return {
    ...content,
    state: {
      base: {
        ...st.base,
        ledger: ts.base.ledger,
        seededReleases: st.base.seededReleases > 0 ? ts.base.seededReleases : 0,
      },
      own: { ...own, levelCount: ts.own.levelCount, passes: ts.own.passes, passFrom: ts.own.passFrom },
    },
  };
}
