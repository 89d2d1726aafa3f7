/**
 * The user-level ledger: how many releases each epoch made. With releases that never span an epoch
 * boundary, and a unit taking part in at most m releases per epoch with at most c rewards in each,
 * one unit's rewards enter at most min(m, R_e) releases of epoch e (R_e: the epoch's releases), so
 * - per epoch, the unit's privacy loss is that of max_e min(m, R_e) compositions of one release;
 * - over the epochs so far, of sum_e min(m, R_e) compositions (composition across epochs: a budget
 *   per epoch is never "renewed" for free).
 * The accountant turns these counts into (epsilon, delta) (see `unitPlanEpsilon` in the policies).
 * Memory: one pair per epoch that released.
 */

export interface UnitCompositions {
  /** max over epochs of min(m, releases of the epoch): compositions in the worst epoch so far. */
  readonly perEpoch: number;
  /** sum over epochs of min(m, releases of the epoch): compositions over the whole run so far. */
  readonly cumulative: number;
  /** Epochs that made at least one release. */
  readonly epochs: number;
  /** Releases in all (a release composes for a unit only if the unit took part). */
  readonly releases: number;
}

export class UnitLedger {
  /** releases per epoch, by epoch index (increasing). */
  private readonly perEpoch = new Map<number, number>();
  private total = 0;

  constructor(private readonly releasesPerEpoch: number) {
    if (!Number.isSafeInteger(releasesPerEpoch) || releasesPerEpoch < 1) {
      throw new RangeError(
        `UnitLedger: releasesPerEpoch must be a positive integer. Got ${releasesPerEpoch}.`,
      );
    }
  }

  /** Records one release of epoch `epoch` (the epoch of the data it holds). */
  record(epoch: number): void {
    if (!Number.isSafeInteger(epoch) || epoch < 0) {
      throw new RangeError(`UnitLedger.record: epoch must be a non-negative integer. Got ${epoch}.`);
    }
    this.perEpoch.set(epoch, (this.perEpoch.get(epoch) ?? 0) + 1);
    this.total++;
  }

  /**
   * The epoch of the latest release and how many releases it has made so far (null before the
   * first release): the epoch whose budget the latest release spent.
   */
  latest(): { readonly epoch: number; readonly releases: number } | null {
    let last = -1;
    for (const e of this.perEpoch.keys()) last = Math.max(last, e);
    return last < 0 ? null : { epoch: last, releases: this.perEpoch.get(last)! };
  }

  /** The compositions one unit can have taken part in, per epoch (worst) and over all epochs. */
  compositions(): UnitCompositions {
    const m = this.releasesPerEpoch;
    let worst = 0;
    let sum = 0;
    for (const r of this.perEpoch.values()) {
      const k = Math.min(m, r);
      worst = Math.max(worst, k);
      sum += k;
    }
    return { perEpoch: worst, cumulative: sum, epochs: this.perEpoch.size, releases: this.total };
  }

  toJSON(): readonly (readonly [number, number])[] {
    return [...this.perEpoch.entries()].sort((a, b) => a[0] - b[0]);
  }

  /** Replaces the counts with `toJSON` output (validated; throws RangeError naming the entry). */
  load(json: unknown): void {
    if (!Array.isArray(json))
      throw new RangeError('UnitLedger: snapshot field must be an array of [epoch, releases].');
    const next = new Map<number, number>();
    let total = 0;
    for (const e of json as unknown[]) {
      const ok =
        Array.isArray(e) &&
        e.length === 2 &&
        Number.isSafeInteger(e[0]) &&
        e[0] >= 0 &&
        Number.isSafeInteger(e[1]) &&
        e[1] >= 1 &&
        !next.has(e[0]);
      if (!ok)
        throw new RangeError(
          `UnitLedger: snapshot entry ${JSON.stringify(e)} is not an [epoch, releases] pair.`,
        );
      next.set(e[0] as number, e[1] as number);
      total += e[1] as number;
    }
    this.perEpoch.clear();
    for (const [k, v] of next) this.perEpoch.set(k, v);
    this.total = total;
  }
}
