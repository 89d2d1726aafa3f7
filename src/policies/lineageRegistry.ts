/**
 * The process-wide registry of policy lineages that have been snapshotted (docs/privacy.md, "Threat
 * model"). A lineage is one policy's history of releases, carried from snapshot to snapshot (the
 * snapshot's `lineage` id). Two policies loaded from one snapshot would be two branches that both hold,
 * and would both release, the snapshot's unreleased raw sums, while neither ledger sees the other.
 * Within one process the registry makes that impossible: each lineage has one holder (the policy object
 * allowed to continue it); loading a snapshot hands the lineage over to the loaded policy (the previous
 * holder can no longer update, observe or finish, nor select where select releases: DGS-LinUCB), and a snapshot behind the releases the lineage has
 * already made in this process is refused. Across processes nothing here can see the other copies: a
 * store that serialises the lineage (the service's database) is the answer there.
 *
 * Entries live as long as the process (one small record and one ledger per snapshotted lineage), so a
 * holder that was dropped still counts: forgetting it would let a second load re-release its batch.
 */
import type { LedgerLike } from '../mechanisms/index.js';

/** The registry's record of one lineage. */
export interface LineageSlot {
  /** Instance id of the policy object allowed to continue the lineage. */
  holder: string;
  /** The holder's ledger (its release count is the lineage's newest). */
  ledger: LedgerLike;
  /** Most releases made in this process by earlier holders of the lineage. */
  releasesBefore: number;
}

const slots = new Map<string, LineageSlot>();

/** The record of `lineage`, or undefined when no policy of it has been snapshotted in this process. */
export function findLineage(lineage: string): LineageSlot | undefined {
  return slots.get(lineage);
}

/** The most releases the lineage of `slot` has made in this process, by any of its holders. */
export function lineageReleases(slot: LineageSlot): number {
  return Math.max(slot.releasesBefore, slot.ledger.spent().releases);
}

/**
 * Makes `holder` (with its ledger) the one policy that may continue `lineage`; any earlier holder is
 * superseded. Returns the lineage's record, which the holder keeps to check, each round, that it still
 * holds the lineage (a field comparison, no lookup).
 */
export function claimLineage(lineage: string, holder: string, ledger: LedgerLike): LineageSlot {
  const slot = slots.get(lineage);
  if (slot === undefined) {
    const fresh: LineageSlot = { holder, ledger, releasesBefore: 0 };
    slots.set(lineage, fresh);
    return fresh;
  }
  slot.releasesBefore = lineageReleases(slot);
  slot.holder = holder;
  slot.ledger = ledger;
  return slot;
}

/**
 * Restore option key of the service's store path (`restoreFromStore`, not part of the public API):
 * a fresh policy restored from the snapshot a database serialises (the service's model row) neither
 * claims the lineage in this registry nor is checked against it. The database is the lineage's one
 * holder there: a release commits only as the stored version + 1 under the model row lock, and a
 * computed release is used only after its commit, so an uncommitted computation (a rolled-back
 * transaction, another replica in this process) must not make the committed snapshot unloadable.
 */
export const STORE_SERIALISED: unique symbol = Symbol('adaprivate.storeSerialised');
