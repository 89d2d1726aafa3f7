/**
 * The design matrix A = lambda I + sum x x^T kept as its Cholesky factor L (A = L L^T, row-major
 * d x d, see src/linalg), updated by rank-one Cholesky updates: O(d^2) per round, never a
 * per-round factorisation. Also answers ridge solves, TS perturbations, UCB widths and log det.
 * With `keepGram`, it also keeps the running sum A itself (d^2 / 2 more per update), which the
 * certified sensitivity bound (inverseNormBound) then checks directly.
 *
 * Where the WebAssembly kernels are available (src/linalg/linalgKernel.ts), L and the scratch live
 * in their memory and the update and the solves run there (bit-identical to the JavaScript
 * kernels); vectors from {@link vectors} are then in that memory too, so the solves read and write
 * them without copies. Elsewhere everything runs in JavaScript.
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
  kernelArrays,
  type LinalgKernel,
  linalgKernel,
  logDetFromCholesky,
} from '../linalg/index.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';

export class RidgeFactor {
  readonly n: number;
  /** The Cholesky factor L of A (lower triangular, full n*n row-major). */
  readonly l: Float64Array;
  private readonly work: Float64Array;
  /** The WebAssembly kernels when L, work and the two scratch vectors are in their memory; else null. */
  private readonly kernel: LinalgKernel | null;
  /** Kernel-memory scratch for right-hand sides that are not in that memory (empty without kernels). */
  private readonly s1: Float64Array;
  private readonly s2: Float64Array;
  /** The last x of {@link add} and whether it is in the kernels' memory. */
  private lastX: Float64Array | null = null;
  private lastXInKernel = false;
  /** n x n scratch of {@link inverseNormBound}, allocated on its first call (not state). */
  private scratch: Float64Array | null = null;
  /** With `keepGram`: the running sum A (lower triangle, row-major) and how many x x^T it holds. */
  private readonly gram: { readonly a: Float64Array; terms: number } | null;

  /** Starts from A = lambda I (L = sqrt(lambda) I); `keepGram` also keeps A itself. */
  constructor(n: number, lambda: number, keepGram = false) {
    this.n = n;
    const arena = kernelArrays([n * n, n, n, n]);
    if (arena !== null) {
      [this.l, this.work, this.s1, this.s2] = arena as [
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
      ];
      this.kernel = linalgKernel();
    } else {
      this.l = new Float64Array(n * n);
      this.work = new Float64Array(n);
      this.s1 = this.s2 = new Float64Array(0);
      this.kernel = null;
    }
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
    const k = this.kernel;
    if (k === null) {
      cholUpdate(this.l, n, x, this.work);
      return;
    }
    const w = this.work;
    // whether x is in the kernels' memory, remembered for the last array seen (callers pass the same
    // vector every round; `buffer` is a builtin call, not a field read)
    if (x !== this.lastX) {
      this.lastX = x;
      this.lastXInKernel = x.buffer === k.buffer;
    }
    if (this.lastXInKernel) k.cholUpdate(this.l.byteOffset, n, x.byteOffset, w.byteOffset);
    else {
      for (let i = 0; i < n; i++) w[i] = x[i]!;
      k.cholUpdate(this.l.byteOffset, n, w.byteOffset, w.byteOffset);
    }
  }

  /**
   * n-vectors for the callers' right-hand sides and solutions: in the kernels' memory when this
   * factor uses the kernels (so {@link solve}, {@link perturbation} and {@link solveAndPerturb}
   * take them without copies), else plain. Zero-filled.
   */
  vectors(count: number): Float64Array[] {
    const lengths = new Array<number>(count).fill(this.n);
    const arena = this.kernel === null ? null : kernelArrays(lengths);
    return arena ?? lengths.map((n) => new Float64Array(n));
  }

  /**
   * An array of `length` values for the caller's data that {@link tsChooseAt} reads (the candidates'
   * features): in the kernels' memory when this factor uses the kernels, else plain. Zero-filled.
   */
  buffer(length: number): Float64Array {
    const arena = this.kernel === null ? null : kernelArrays([length]);
    return arena?.[0] ?? new Float64Array(length);
  }

  /**
   * True when this factor runs the kernels and every array is in their memory: then
   * {@link tsChooseAt} may take their byte offsets (checked once by the caller, not per round: a
   * typed array's `buffer` is a builtin call, not a field read).
   */
  holds(arrays: readonly Float64Array[]): boolean {
    const kn = this.kernel;
    return kn !== null && arrays.every((a) => a.buffer === kn.buffer);
  }

  /**
   * The Thompson-sampling choice in one call of the kernels, from normals already in z: when
   * `dirty`, out = A^{-1} b and pert = L^{-T} z as {@link solveAndPerturb}, else pert only as
   * {@link perturbation}; tilde = out + v pert; then the first argmax over the k rows of `f`
   * (k x n) of x_a^T tilde, each sum in the order i = 0..n-1 (BatchedRidgePolicy.choose's numbers).
   * Every argument but k, v and dirty is the byte offset of an array for which {@link holds} was
   * true. Returns the arm. Cost 1.5 d^2 (dirty) or d^2 / 2, plus k d.
   */
  tsChooseAt(
    b: number,
    out: number,
    z: number,
    pert: number,
    tilde: number,
    f: number,
    k: number,
    v: number,
    dirty: boolean,
  ): number {
    return this.kernel!.tsChoose(this.l.byteOffset, this.n, b, out, z, pert, tilde, f, k, v, dirty ? 1 : 0);
  }

  /**
   * out = L^{-1} b in the kernels (forwardSolve.ts's numbers), both arguments the byte offsets of
   * arrays of length n for which {@link holds} was true. Cost d^2 / 2.
   */
  forwardSolveAt(b: number, out: number): void {
    this.kernel!.forwardSolve(this.l.byteOffset, this.n, b, out);
  }

  /** out = A^{-1} b. Cost d^2. */
  solve(b: Float64Array, out: Float64Array): void {
    const k = this.kernel;
    if (k === null) {
      cholSolve(this.l, this.n, b, out);
      return;
    }
    const lo = this.l.byteOffset;
    if (b.buffer === k.buffer && out.buffer === k.buffer) {
      k.forwardSolve(lo, this.n, b.byteOffset, out.byteOffset);
      k.backSolveTransposed(lo, this.n, out.byteOffset, out.byteOffset);
      return;
    }
    const s = this.stage(this.s1, b);
    k.forwardSolve(lo, this.n, s, s);
    k.backSolveTransposed(lo, this.n, s, s);
    out.set(this.s1);
  }

  /** out = L^{-T} z (covariance A^{-1} when z ~ N(0, I)). Cost d^2 / 2. */
  perturbation(z: Float64Array, out: Float64Array): void {
    const k = this.kernel;
    if (k === null) {
      backSolveTransposed(this.l, this.n, z, out);
      return;
    }
    if (z.buffer === k.buffer && out.buffer === k.buffer) {
      k.backSolveTransposed(this.l.byteOffset, this.n, z.byteOffset, out.byteOffset);
      return;
    }
    const s = this.stage(this.s1, z);
    k.backSolveTransposed(this.l.byteOffset, this.n, s, s);
    out.set(this.s1);
  }

  /** Copies v (length n) into the kernel-memory scratch `s`; returns its byte offset. */
  private stage(s: Float64Array, v: Float64Array): number {
    for (let i = 0; i < this.n; i++) s[i] = v[i]!;
    return s.byteOffset;
  }

  /**
   * `solve(b, out)` and `perturbation(z, pert)` in one call, bit-identical to the two calls: the
   * forward solve of b, then both transposed back substitutions in one pass over L. `out` may be
   * `b`; `pert` must differ from `out`, `b` and (unless it is `z`) from z. Cost 1.5 d^2.
   */
  solveAndPerturb(b: Float64Array, out: Float64Array, z: Float64Array, pert: Float64Array): void {
    const k = this.kernel;
    if (k === null) {
      forwardSolve(this.l, this.n, b, out);
      backSolveTransposedPair(this.l, this.n, out, out, z, pert);
      return;
    }
    const n = this.n;
    const lo = this.l.byteOffset;
    const kb = k.buffer;
    if (b.buffer === kb && out.buffer === kb && z.buffer === kb && pert.buffer === kb) {
      k.forwardSolve(lo, n, b.byteOffset, out.byteOffset);
      k.backSolveTransposedPair(lo, n, out.byteOffset, out.byteOffset, z.byteOffset, pert.byteOffset);
      return;
    }
    const s1 = this.stage(this.s1, b);
    const s2 = this.stage(this.s2, z);
    k.forwardSolve(lo, n, s1, s1);
    k.backSolveTransposedPair(lo, n, s1, s1, s2, s2);
    out.set(this.s1);
    pert.set(this.s2);
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
