/**
 * The unit counts of a user-level model served by {@link ModelRuntime}, kept in the store: a
 * synchronous view (what the policy's contribution-bound rule reads and writes) over the one row of
 * the reward's unit, read from the store before the policy learns the reward; what the rule wrote
 * is taken back by the runtime and committed in the reward's own transaction (`Store.recordReward`
 * with a `UnitWrite`). Nothing of it is in the policy's snapshot.
 *
 * While the runtime replays the pending rewards at load (all of them in the open release, each
 * kept when it arrived), the view counts in memory instead: the stored rows already include those
 * rewards and must not count them twice. A subsampled model (q < 1) drew each unit into or out of
 * the open release when the unit joined it, and that draw is in the unit's stored row (written in
 * the reward's transaction): during the replay `drawn` answers it from the rows the runtime read
 * before the replay (`recallDraws`), so a restart never draws a unit again for that release.
 * Replicas ({@link ReplicaRuntime}) use only the replay mode: a release replays rewards the store
 * has already admitted under the bounds (units sampled at q < 1 are refused there).
 */
import type { UnitCount, UnitCounterStore } from '../privacy/index.js';
import type { UnitCountRow } from '../store/index.js';

export class StoreUnitCounters implements UnitCounterStore {
  private unit: string | null = null;
  private row: UnitCount | undefined = undefined;
  private written: UnitCount | null = null;
  private expiry: number | null = null;
  private replay: Map<string, UnitCount> | null = new Map();

  private recalled: ReadonlyMap<string, UnitCountRow> = new Map();

  /** Before the replay at load: the stored rows of the pending rewards' units (their draws). */
  recallDraws(rows: ReadonlyMap<string, UnitCountRow>): void {
    this.recalled = rows;
  }

  /** Ends the replay at load: from now on the counts come from the store. */
  endReplay(): void {
    this.replay = null;
    this.recalled = new Map();
  }

  /**
   * During the replay, the draw stored for `unit` in `release` (undefined: none). Outside it a unit
   * joins a release only with a fresh reward, whose draw is new and is stored with that reward.
   */
  drawn(unit: string, release: number): boolean | undefined {
    if (this.replay === null) return undefined;
    const r = this.recalled.get(unit);
    return r !== undefined && r.release === release && r.sampled !== null ? r.sampled : undefined;
  }

  /** The count of a stored row without its subsampling draw: epoch, release, inRelease, releases. */
  static countOf(row: UnitCountRow): UnitCount {
    return { epoch: row.epoch, release: row.release, inRelease: row.inRelease, releases: row.releases };
  }

  /** Sets the stored row of `unit` (null: none) before the policy learns a reward of it. */
  prime(unit: string, row: UnitCountRow | null): void {
    this.unit = unit;
    this.row =
      row === null
        ? undefined
        : {
            ...StoreUnitCounters.countOf(row),
            ...(row.sampled !== null ? { sampled: row.sampled } : {}),
          };
    this.written = null;
    this.expiry = null;
  }

  /** What the rule wrote since `prime`: the unit's new count (null: none, the reward was dropped) and the expiry. */
  take(): { readonly count: UnitCountRow | null; readonly expireBefore: number | null } {
    const c = this.written;
    const out = {
      count:
        c === null
          ? null
          : {
              epoch: c.epoch,
              release: c.release,
              inRelease: c.inRelease,
              releases: c.releases,
              sampled: c.sampled ?? null,
            },
      expireBefore: this.expiry,
    };
    this.unit = null;
    this.row = undefined;
    this.written = null;
    this.expiry = null;
    return out;
  }

  get(unit: string): UnitCount | undefined {
    if (this.replay !== null) return this.replay.get(unit);
    if (unit !== this.unit) {
      throw new Error(`StoreUnitCounters: the count of unit '${unit}' was not read from the store first.`);
    }
    return this.written ?? this.row;
  }

  set(unit: string, count: UnitCount): void {
    if (this.replay !== null) {
      this.replay.set(unit, count);
      return;
    }
    if (unit !== this.unit) throw new Error(`StoreUnitCounters: unit '${unit}' was not primed.`);
    this.written = count;
  }

  expireBefore(epoch: number): void {
    if (this.replay !== null) return;
    this.expiry = this.expiry === null ? epoch : Math.max(this.expiry, epoch);
  }

  toJSON(): unknown {
    return null;
  }

  load(_json: unknown): void {}
}
