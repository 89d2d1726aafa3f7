/**
 * The design matrix A = lambda I + sum x x^T kept as its Cholesky factor L (A = L L^T, row-major
 * d x d, see src/linalg), updated by rank-one Cholesky updates: O(d^2) per round, never a
 * per-round factorisation. Also answers ridge solves, TS perturbations, UCB widths and log det.
 */
import {
  backSolveTransposed,
  certifiedMinEigenvalue,
  cholesky,
  cholSolve,
  cholUpdate,
  invQuadForm,
  logDetFromCholesky,
} from '../linalg/index.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';

export class RidgeFactor {
  readonly n: number;
  /** The Cholesky factor L of A (lower triangular, full n*n row-major). */
  readonly l: Float64Array;
  private readonly work: Float64Array;
  /** n x n scratch of {@link inverseNormBound}, allocated on its first call (not state). */
  private scratch: Float64Array | null = null;

  /** Starts from A = lambda I (L = sqrt(lambda) I). */
  constructor(n: number, lambda: number) {
    this.n = n;
    this.l = new Float64Array(n * n);
    this.work = new Float64Array(n);
    this.reset(lambda);
  }

  /** A <- lambda I. */
  reset(lambda: number): void {
    const n = this.n;
    this.l.fill(0);
    const s = Math.sqrt(lambda);
    for (let i = 0; i < n; i++) this.l[i * n + i] = s;
  }

  /** A <- A + x x^T. Cost 2 d^2. */
  add(x: Float64Array): void {
    cholUpdate(this.l, this.n, x, this.work);
  }

  /** out = A^{-1} b. Cost d^2. */
  solve(b: Float64Array, out: Float64Array): void {
    cholSolve(this.l, this.n, b, out);
  }

  /** out = L^{-T} z (covariance A^{-1} when z ~ N(0, I)). Cost d^2 / 2. */
  perturbation(z: Float64Array, out: Float64Array): void {
    backSolveTransposed(this.l, this.n, z, out);
  }

  /** x^T A^{-1} x. Cost d^2 / 2. */
  invQuad(x: Float64Array): number {
    return invQuadForm(this.l, this.n, x, this.work);
  }

  /**
   * A certified upper bound on ||A^{-1}||_2, at most `cap`: min(1 / ell, cap) with ell the certified
   * lower bound on lambda_min(A) of `certifiedMinEigenvalue` (cap when it gives none). `work`
   * (length 2d) carries that iteration's warm start between calls. Cost O(d^3 / 2) plus the iteration.
   */
  inverseNormBound(work: Float64Array, cap: number): number {
    if (this.scratch === null) this.scratch = new Float64Array(this.n * this.n);
    const ell = certifiedMinEigenvalue(this.l, this.n, work, this.scratch);
    return ell > 0 ? Math.min(1 / ell, cap) : cap;
  }

  /** ln det A. Cost d. */
  logDet(): number {
    return logDetFromCholesky(this.l, this.n);
  }

  /** Copies the factor of `other` (same n). Cost d^2. */
  copyFrom(other: RidgeFactor): void {
    this.l.set(other.l);
  }

  /** Factorises the symmetric matrix `a` (lower triangle read); false if it is not numerically SPD. Cost d^3/3. */
  factor(a: Float64Array): boolean {
    return cholesky(a, this.n, this.l);
  }

  toJSON(): string {
    return encodeFloat64(this.l);
  }

  load(text: unknown, what: string): void {
    decodeFloat64(text, this.l, what);
  }
}
