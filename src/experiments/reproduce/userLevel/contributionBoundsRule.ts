/**
 * The documented rule that chooses a user-level policy's contribution bounds (c rewards of one user
 * per release, m releases per epoch) for a ratings log, from the TRAINING split only (public in the
 * study's privacy model, like the features and the warm start), never from the protected held-out
 * ratings:
 *
 * 1. A user's share of arrivals is its share of training ratings (the log draws users in proportion
 *    to their held-out ratings, `userArrivals: 'activity'`; the split gives each user the same
 *    fraction of its ratings on both sides, so the training counts stand in for the held-out ones).
 * 2. A run learns about N = round(steps / K) rewards (uniform logging over K candidates: a policy
 *    picks the logged arm one step in K), released in batches of B: R = ceil(N / B) releases, one
 *    epoch (the run's lifetime).
 * 3. One such run is simulated on the training shares (stream 'contribution-bounds' of `seed`): N
 *    arrivals, the i-th in release floor(i / B).
 * 4. c = the `quantile` (default 0.9) of a user's rewards within one release, over the (user,
 *    release) pairs where the user took part; m = the same quantile of the number of releases a user
 *    takes part in, over the users who took part at all.
 *
 * The rule caps the typical user at no loss and the heaviest users hard: the share of rewards past
 * the bounds that the simulation predicts is returned, and the runs measure the actual share.
 *
 * Cost: O(N + users) time and memory.
 */
import { createRng } from '../../../random/index.js';

/** Options of {@link contributionBoundsRule}. */
export interface ContributionBoundsOptions {
  /** Logged steps of a run. Positive integer. */
  readonly steps: number;
  /** Candidates per step, K. Integer >= 1. */
  readonly armsPerRound: number;
  /** Rewards per release of the policy, B. Positive integer. */
  readonly batchSize: number;
  /** Quantile in (0, 1] that the bounds cover. Default 0.9. */
  readonly quantile?: number;
  /** Seed of the simulation. Default 1. */
  readonly seed?: number;
}

/** The chosen bounds and what the simulation predicts for them. */
export interface ContributionBounds {
  /** Rewards of one user per release, c. */
  readonly contributionsPerRelease: number;
  /** Releases one user takes part in per epoch, m. */
  readonly releasesPerEpoch: number;
  readonly quantile: number;
  /** Rewards a run learns, N, and its releases, R. */
  readonly rewards: number;
  readonly releases: number;
  /** Share of the simulated rewards within both bounds (first come, first kept). */
  readonly keptShare: number;
  /** Users with a training rating (the population of the simulation). */
  readonly users: number;
}

function quantileOf(values: Int32Array | number[], q: number): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Bounds (c, m) for a log whose users arrive in proportion to `trainCounts` (training ratings per
 * user; zeros allowed).
 *
 * @example
 * const b = contributionBoundsRule(Int32Array.of(1, 1, 1, 1, 100), { steps: 5000, armsPerRound: 5, batchSize: 100 });
 * b.releases; // returns 10
 * b.contributionsPerRelease; // returns the 90% quantile of per-release counts, e.g. 96 here (one user dominates)
 */
export function contributionBoundsRule(
  trainCounts: ArrayLike<number>,
  options: ContributionBoundsOptions,
): ContributionBounds {
  const { steps, armsPerRound: k, batchSize: b } = options;
  const q = options.quantile ?? 0.9;
  for (const [name, v] of [
    ['steps', steps],
    ['armsPerRound', k],
    ['batchSize', b],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 1)
      throw new RangeError(`contributionBoundsRule: ${name} must be a positive integer. Got ${v}.`);
  }
  if (!(q > 0 && q <= 1))
    throw new RangeError(`contributionBoundsRule: quantile must be in (0, 1]. Got ${q}.`);
  // one slot per training rating, holding its user: a uniform slot is a user drawn by activity
  let total = 0;
  let users = 0;
  for (let u = 0; u < trainCounts.length; u++) {
    const c = trainCounts[u]!;
    if (!Number.isSafeInteger(c) || c < 0)
      throw new RangeError(`contributionBoundsRule: trainCounts[${u}] must be an integer >= 0. Got ${c}.`);
    total += c;
    if (c > 0) users++;
  }
  if (total === 0) throw new RangeError('contributionBoundsRule: no user has a training rating.');
  const slots = new Int32Array(total);
  let s = 0;
  for (let u = 0; u < trainCounts.length; u++) {
    const c = trainCounts[u]!;
    slots.fill(u, s, s + c);
    s += c;
  }
  const n = Math.max(1, Math.round(steps / k));
  const releases = Math.ceil(n / b);
  const rng = createRng(options.seed ?? 1, 'contribution-bounds');
  const arrivals = new Int32Array(n);
  for (let i = 0; i < n; i++) arrivals[i] = slots[rng.integer(total)]!;
  // per (user, release) counts, release by release; per-user number of releases
  const inRelease = new Int32Array(trainCounts.length);
  const releasesOf = new Int32Array(trainCounts.length);
  const pairCounts: number[] = [];
  for (let r = 0; r < releases; r++) {
    const lo = r * b;
    const hi = Math.min(n, lo + b);
    for (let i = lo; i < hi; i++) inRelease[arrivals[i]!]!++;
    for (let i = lo; i < hi; i++) {
      const u = arrivals[i]!;
      if (inRelease[u]! > 0) {
        pairCounts.push(inRelease[u]!);
        releasesOf[u]!++;
        inRelease[u] = 0;
      }
    }
  }
  const c = quantileOf(pairCounts, q);
  const m = quantileOf(
    Array.from(releasesOf).filter((x) => x > 0),
    q,
  );
  // simulated share kept: first come, first kept, per release (c) and per epoch (m)
  const taken = new Int32Array(trainCounts.length);
  const seenRelease = new Int32Array(trainCounts.length).fill(-1);
  let kept = 0;
  for (let r = 0; r < releases; r++) {
    const lo = r * b;
    const hi = Math.min(n, lo + b);
    for (let i = lo; i < hi; i++) inRelease[arrivals[i]!] = 0;
    for (let i = lo; i < hi; i++) {
      const u = arrivals[i]!;
      if (seenRelease[u] !== r) {
        if (taken[u]! >= m) continue;
        seenRelease[u] = r;
        taken[u]!++;
      }
      if (inRelease[u]! < c) {
        inRelease[u]!++;
        kept++;
      }
    }
  }
  return {
    contributionsPerRelease: c,
    releasesPerEpoch: m,
    quantile: q,
    rewards: n,
    releases,
    keptShare: kept / n,
    users,
  };
}
