/**
 * The one contribution-bound rule of user-level privacy (docs/privacy.md "Privacy units"): at most
 * c rewards of one unit enter one release, and a unit takes part in at most m releases per epoch.
 * Pure: the caller reads the unit's count (from memory or from its store), asks this function, and
 * writes back `next` when the reward is kept, in the same step (or transaction) as the reward.
 *
 * First come, first kept: the decision reads only the unit's count, the epoch and the open release,
 * never the reward's value.
 */

/** A unit's contribution count, as kept by a counter store (one record per unit). */
export interface UnitCount {
  /** The epoch the count belongs to (a count of an earlier epoch reads as zero). */
  readonly epoch: number;
  /** The open release the unit last contributed to (its per-release count is for that release only). */
  readonly release: number;
  /** Rewards of the unit kept in `release`, 1..c. */
  readonly inRelease: number;
  /** Releases of `epoch` the unit takes part in (the open one included), 1..m. */
  readonly releases: number;
  /**
   * Subsampled releases (AdaPrivate-TS-Amp): whether the unit was drawn into `release` (one draw per
   * unit and release: all of its rewards there are in or all are out). Absent elsewhere.
   */
  readonly sampled?: boolean;
}

/** The bounds: c = `contributionsPerRelease`, m = `releasesPerEpoch`. */
export interface ContributionBounds {
  readonly contributionsPerRelease: number;
  readonly releasesPerEpoch: number;
}

/** What the rule decided: 'kept', or the bound that dropped the reward. */
export type Admission = 'kept' | 'perRelease' | 'perEpoch';

/** The decision on one reward and, when kept, the unit's count after it (null when dropped). */
export interface AdmissionResult {
  readonly admission: Admission;
  readonly next: UnitCount | null;
  /** True when the kept reward is the unit's first in the open release (it joins the release). */
  readonly joins: boolean;
}

/**
 * Decides whether one reward of a unit enters the open release `release` of epoch `epoch`, given
 * the unit's count `prev` (undefined: none yet). Releases are numbered increasingly over the life of
 * the model and an epoch never goes back.
 *
 * @example
 * const b = { contributionsPerRelease: 1, releasesPerEpoch: 10 };
 * const first = admitContribution(undefined, 0, 1, b); // { admission: 'kept', joins: true, ... }
 * admitContribution(first.next!, 0, 1, b).admission; // returns 'perRelease'
 */
export function admitContribution(
  prev: UnitCount | undefined,
  epoch: number,
  release: number,
  bounds: ContributionBounds,
): AdmissionResult {
  const current = prev !== undefined && prev.epoch === epoch ? prev : undefined;
  const releases = current?.releases ?? 0;
  // a count kept in an earlier epoch is for a release that epoch closed (releases never span epochs)
  const inRelease = current !== undefined && current.release === release ? current.inRelease : 0;
  if (inRelease >= bounds.contributionsPerRelease)
    return { admission: 'perRelease', next: null, joins: false };
  const joins = inRelease === 0;
  if (joins && releases >= bounds.releasesPerEpoch)
    return { admission: 'perEpoch', next: null, joins: false };
  const next: UnitCount = {
    epoch,
    release,
    inRelease: inRelease + 1,
    releases: joins ? releases + 1 : releases,
    ...(!joins && current?.sampled !== undefined ? { sampled: current.sampled } : {}),
  };
  return { admission: 'kept', next, joins };
}
