/**
 * The design matrix A = lambda I + sum x x^T kept as its Cholesky factor L (A = L L^T, row-major
 * d x d, see src/linalg), updated by rank-one Cholesky updates: O(d^2) per round, never a
 * per-round factorisation. Also answers ridge solves, TS perturbations, UCB widths and log det.
 * With `keepGram`, it also keeps the running sum A itself (d^2 / 2 more per update), which the
 * certified sensitivity bound (inverseNormBound) then checks directly.
 */
import {
  backSolveTransposed,
  backSolveTransposedPair,
  certifiedMinEigenvalue,
  cholesky,
  cholSolve,
  cholUpdate,
  forwardSolve,
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
  /** With `keepGram`: the running sum A (lower triangle, row-major) and how many x x^T it holds. */
  private readonly gram: { readonly a: Float64Array; terms: number } | null;

  /** Starts from A = lambda I (L = sqrt(lambda) I); `keepGram` also keeps A itself. */
  constructor(n: number, lambda: number, keepGram = false) {
    this.n = n;
    this.l = new Float64Array(n * n);
    this.work = new Float64Array(n);
    this.gram = keepGram ? { a: new Float64Array(n * n), terms: 0 } : null;
    this.reset(lambda);
  }

  /** A <- lambda I. */
  reset(lambda: number): void {
    const n = this.n;
    this.l.fill(0);
    const s = Math.sqrt(lambda);
    for (let i = 0; i < n; i++) this.l[i * n + i] = s;
    if (this.gram !== null) {
      this.gram.a.fill(0);
      for (let i = 0; i < n; i++) this.gram.a[i * n + i] = lambda;
      this.gram.terms = 0;
    }
  }

  /** A <- A + x x^T. Cost 2 d^2 (plus d^2 / 2 with `keepGram`). */
  add(x: Float64Array): void {
    const n = this.n;
    if (this.gram !== null) {
      const a = this.gram.a;
      for (let i = 0; i < n; i++) {
        const ri = i * n;
        const xi = x[i]!;
        for (let j = 0; j <= i; j++) a[ri + j] = a[ri + j]! + xi * x[j]!;
      }
      this.gram.terms++;
    }
    cholUpdate(this.l, n, x, this.work);
  }

  /** out = A^{-1} b. Cost d^2. */
  solve(b: Float64Array, out: Float64Array): void {
    cholSolve(this.l, this.n, b, out);
  }

  /** out = L^{-T} z (covariance A^{-1} when z ~ N(0, I)). Cost d^2 / 2. */
  perturbation(z: Float64Array, out: Float64Array): void {
    backSolveTransposed(this.l, this.n, z, out);
  }

  /**
   * `solve(b, out)` and `perturbation(z, pert)` in one call, bit-identical to the two calls: the
   * forward solve of b, then both transposed back substitutions in one pass over L. `out` may be
   * `b`; `pert` must differ from `out`, `b` and (unless it is `z`) from z. Cost 1.5 d^2.
   */
  solveAndPerturb(b: Float64Array, out: Float64Array, z: Float64Array, pert: Float64Array): void {
    forwardSolve(this.l, this.n, b, out);
    backSolveTransposedPair(this.l, this.n, out, out, z, pert);
  }

  /** x^T A^{-1} x. Cost d^2 / 2. */
  invQuad(x: Float64Array): number {
    return invQuadForm(this.l, this.n, x, this.work);
  }

  /**
   * A certified upper bound on ||A^{-1}||_2, at most `cap`: min(1 / ell, cap) with ell the certified
   * lower bound on lambda_min of the running sum A from `certifiedMinEigenvalue` (cap when it gives
   * none); needs `keepGram`. `work` (length 2d) carries that iteration's warm start between calls.
   * With fewer than d vectors added since A was lambda I, sum x x^T has a null direction, so
   * lambda_min(A) = lambda exactly and the caller's cap (1 / lambda, or a smaller bound proved
   * earlier) is returned without computing. Cost d^3 / 6 multiply-adds plus the iteration.
   */
  inverseNormBound(work: Float64Array, cap: number): number {
    if (this.gram === null) throw new Error('RidgeFactor.inverseNormBound: needs keepGram.');
    if (this.gram.terms < this.n) return cap;
    if (this.scratch === null) this.scratch = new Float64Array(this.n * this.n);
    const ell = certifiedMinEigenvalue(this.l, this.n, work, this.scratch, 1e-3, 100, this.gram);
    return ell > 0 ? Math.min(1 / ell, cap) : cap;
  }

  /** trace(A) = sum of the squared entries of L. Cost d^2. */
  trace(): number {
    let t = 0;
    for (let i = 0; i < this.l.length; i++) t += this.l[i]! * this.l[i]!;
    return t;
  }

  /** With `keepGram`: how many x x^T the running sum holds since the last reset; else null. */
  get terms(): number | null {
    return this.gram === null ? null : this.gram.terms;
  }

  /** ln det A. Cost d. */
  logDet(): number {
    return logDetFromCholesky(this.l, this.n);
  }

  /** Copies the factor of `other` (same n), and its running sum when both keep one. Cost d^2. */
  copyFrom(other: RidgeFactor): void {
    this.l.set(other.l);
    if (this.gram !== null) {
      if (other.gram === null) throw new Error('RidgeFactor.copyFrom: the source keeps no Gram sum.');
      this.gram.a.set(other.gram.a);
      this.gram.terms = other.gram.terms;
    }
  }

  /** Factorises the symmetric matrix `a` (lower triangle read); false if it is not numerically SPD. Cost d^3/6. */
  factor(a: Float64Array): boolean {
    if (this.gram !== null) throw new Error('RidgeFactor.factor: not available with keepGram.');
    return cholesky(a, this.n, this.l);
  }

  /** The state: L as base64 text, or { l, gram, terms } with `keepGram`. */
  toJSON(): string | { l: string; gram: string; terms: number } {
    if (this.gram === null) return encodeFloat64(this.l);
    return { l: encodeFloat64(this.l), gram: encodeFloat64(this.gram.a), terms: this.gram.terms };
  }

  load(state: unknown, what: string): void {
    if (this.gram === null) {
      decodeFloat64(state, this.l, what);
      return;
    }
    if (typeof state !== 'object' || state === null) {
      throw new TypeError(`restore: ${what} must be an object { l, gram, terms }.`);
    }
    const st = state as Record<string, unknown>;
    if (!Number.isInteger(st.terms) || (st.terms as number) < 0) {
      throw new TypeError(`restore: ${what}.terms must be a non-negative integer. Got ${String(st.terms)}.`);
    }
    decodeFloat64(st.l, this.l, `${what}.l`);
    decodeFloat64(st.gram, this.gram.a, `${what}.gram`);
    this.gram.terms = st.terms as number;
  }
}
