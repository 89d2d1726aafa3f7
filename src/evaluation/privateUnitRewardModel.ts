/**
 * The reward model of a user-level private DR (`evaluate --private --unit user`, neighbouring logs
 * differ by all the rows of one unit, contexts included): ridge regression of the logged reward on
 * z = [x~, 1] over the kept rows, where x~ is the chosen arm's features scaled to norm <= 1 (as the
 * policies do), so ||z||^2 <= 2. Here the Gram matrix is private too (removing a unit removes its
 * contexts), so both sufficient statistics are released in one Gaussian release:
 *
 *   (lower triangle of G = sum z z^T, b = sum r z)   over the kept rows.
 *
 * One row adds z z^T, whose lower triangle has L2 norm <= ||z z^T||_F = ||z||^2 <= 2, and r z with
 * norm <= sqrt(2): at most sqrt(4 + 2) = sqrt(6) in all. A unit has at most k kept rows
 * ({@link firstContributions}), so the L2 sensitivity is k sqrt(6).
 *
 * Post-processing (no further privacy cost): A = lambda I + the symmetric G~; if A is not positive
 * definite (the noise can make it indefinite), lambda is raised by the release's noise sd times
 * 2 sqrt(p), doubling until the Cholesky factorisation succeeds; beta = A^{-1} b~, and predictions
 * q(x, a) = [x~_a, 1]^T beta clamped to [0, 1] (this bounds DR's sensitivity). Cost O(n d^2 + d^3),
 * one release of p (p + 1) / 2 + p coordinates (p = d + 1).
 */
import { cholesky, cholSolve } from '../linalg/index.js';
import type { GaussianMechanism } from '../mechanisms/index.js';
import type { DecisionLog } from './DecisionLog.js';

export interface PrivateUnitRewardModelOptions {
  /** Rows kept per unit k (the bound `rounds` respects: at most k rows of any unit). */
  readonly contributions: number;
  /** Ridge regulariser lambda > 0 (every coefficient, intercept included); default 1. */
  readonly lambda?: number;
  readonly round: number;
  readonly label: string;
}

/** Coordinates of the release for dimension d: the packed lower triangle of G and b. */
export function unitRewardModelCoordinates(d: number): number {
  const p = d + 1;
  return (p * (p + 1)) / 2 + p;
}

/** Writes [x~, 1] of arm row `j` of the log into z (x scaled to norm <= 1). */
function scaledRow(log: DecisionLog, j: number, z: Float64Array): void {
  const d = log.dim;
  let n2 = 0;
  for (let i = 0; i < d; i++) n2 += log.features[j * d + i]! ** 2;
  const s = n2 > 1 ? 1 / Math.sqrt(n2) : 1;
  for (let i = 0; i < d; i++) z[i] = log.features[j * d + i]! * s;
  z[d] = 1;
}

/**
 * @param rounds - the kept rounds (at most `contributions` of any unit), each with a reward.
 * @returns q(x_t, a) in [0, 1] for every arm of the log (aligned with `log.features`).
 * @example
 * const kept = firstContributions(log, evaluableRounds(log), 2);
 * const q = privateUnitRewardModel(log, kept.rounds, mechanism, { contributions: 2, round: 0, label: 'model' });
 */
export function privateUnitRewardModel(
  log: DecisionLog,
  rounds: Int32Array,
  mechanism: GaussianMechanism,
  options: PrivateUnitRewardModelOptions,
): Float64Array {
  const k = options.contributions;
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new RangeError(`privateUnitRewardModel: contributions must be a positive integer. Got ${k}.`);
  }
  const lambda = options.lambda ?? 1;
  if (!(lambda > 0 && Number.isFinite(lambda))) {
    throw new RangeError(`privateUnitRewardModel: lambda must be a finite number > 0. Got ${lambda}.`);
  }
  const d = log.dim;
  const p = d + 1;
  const tri = (p * (p + 1)) / 2;
  const stat = new Float64Array(tri + p);
  const z = new Float64Array(p);
  for (const t of rounds) {
    scaledRow(log, log.armOffsets[t]! + log.chosen[t]!, z);
    const r = log.reward[t]!;
    let idx = 0;
    for (let i = 0; i < p; i++) {
      for (let j = 0; j <= i; j++, idx++) stat[idx] = stat[idx]! + z[i]! * z[j]!;
      stat[tri + i] = stat[tri + i]! + r * z[i]!;
    }
  }
  const sensitivity = k * Math.sqrt(6);
  const noisy = new Float64Array(tri + p);
  mechanism.release(stat, 0, tri + p, sensitivity, noisy, 0, options.round, 0, options.label);
  const sigma = mechanism.calibration.sigma(sensitivity);
  const a = new Float64Array(p * p);
  const l = new Float64Array(p * p);
  let shift = 0;
  for (let attempt = 0; ; attempt++) {
    let idx = 0;
    for (let i = 0; i < p; i++) {
      for (let j = 0; j <= i; j++) {
        const v = noisy[idx++]! + (i === j ? lambda + shift : 0);
        a[i * p + j] = v;
        a[j * p + i] = v;
      }
    }
    if (cholesky(a, p, l)) break;
    if (attempt > 60) {
      throw new Error(
        'privateUnitRewardModel: the released Gram matrix could not be made positive definite.',
      );
    }
    shift = shift === 0 ? Math.max(sigma, 1e-12) * 2 * Math.sqrt(p) : 2 * shift;
  }
  const beta = new Float64Array(p);
  cholSolve(l, p, noisy.subarray(tri, tri + p), beta);
  const q = new Float64Array(log.armOffsets[log.rounds]!);
  for (let j = 0; j < q.length; j++) {
    scaledRow(log, j, z);
    let s = 0;
    for (let i = 0; i < p; i++) s += beta[i]! * z[i]!;
    q[j] = Math.min(1, Math.max(0, s));
  }
  return q;
}
