/**
 * Privacy loss distributions (PLD) for adaptive compositions of Poisson-subsampled Gaussian releases
 * (and one Gaussian part of total mu^2), after Koskela, Jalko & Honkela (2020, "Computing tight
 * differential privacy guarantees using FFT") and the design of dp_accounting's PLD accountant (read
 * for ideas; this code is ours).
 *
 * For each direction of the add/remove dominating pair (remove: P = mixture against Q = N(0, s^2); add:
 * Q against P) the privacy loss L = ln(P(X)/Q(X)), X ~ first distribution, is a monotone function of X,
 * so its distribution function is a closed form. It is discretised on the grid h Z twice:
 * - pessimistic: each loss rounded UP to the grid (mass above the range becomes "infinite loss", mass
 *   below goes to the lowest grid point). Rounding up makes the loss stochastically larger, the
 *   composed loss (a sum of independent losses) stays stochastically larger, and
 *   delta(eps) = P(L = inf) + E[(1 - e^(eps - L))_+] is increasing in L: an upper bound on delta;
 * - optimistic: each loss rounded DOWN (mass below the range dropped): a lower bound.
 * Compositions multiply the discrete Fourier transforms (count-th powers of each part's DFT), on a
 * circular window [t_lo, t_hi] that holds all but tau = 1e-15 of the composed mass by a Chernoff bound
 * computed from the discretised parts' moment generating functions; the mass outside the window, which
 * the circular convolution aliases into it, is bounded by the same Chernoff bounds and ADDED to the
 * pessimistic delta (subtracted from the optimistic one). The true curve lies between the two; since
 * every part is rounded by less than h, the upper and lower epsilon differ by at most about F h
 * (F = number of composed parts), which is the stated discretisation error (`gap`).
 * Not covered by the bound: the floating-point error of the FFT (about log2(N) machine epsilons
 * relative to the largest mass). Cost: building O(range / h) closed-form evaluations per part;
 * composing one forward FFT per part and one inverse per direction, N <= 2^17 points by default
 * (about 0.17 s of CPU per composition on the shared development machine).
 */
import { Fft } from './fft.js';
import { logNormalCdf, smallestEpsilon } from './gaussianDp.js';

/** `count` releases of a subsampled Gaussian with rate q < 1 and noise multiplier sigma / Delta. */
export interface SubsampledPart {
  readonly q: number;
  readonly noiseMultiplier: number;
  readonly count: number;
}

/** Options of {@link subsampledCompositionPld}. */
export interface PldOptions {
  /**
   * Target gap between the upper and lower epsilon, in loss units: the grid step is gap / F for F
   * composed parts, coarsened when the window would need more than `maxPoints`. Default 1e-3.
   */
  readonly targetGap?: number;
  /** Most grid points of the composition window (a power of two, 2^10..2^22). Default 2^17. */
  readonly maxPoints?: number;
}

/** Bounds from a composed PLD. */
export interface PldBounds {
  /** The guarantee (pessimistic). */
  readonly upper: number;
  /** The optimistic value: the true value is at least this. */
  readonly lower: number;
}

const TAU = 1e-15;
const Z = 10; // normal quantile of the ranges (mass beyond: < 1e-23)
const LAMBDAS = [0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32];

/** Closed-form survival S(l) = P(L > l) and distribution F(l) = P(L <= l) of one part's loss. */
interface LossLaw {
  readonly lMin: number;
  readonly lMax: number;
  survival(l: number): number;
  cdf(l: number): number;
}

const phi = (z: number): number => Math.exp(logNormalCdf(z)); // P(N(0,1) <= z)
const phic = (z: number): number => Math.exp(logNormalCdf(-z)); // P(N(0,1) > z)

/** x at which the remove-direction loss equals l (l > ln(1-q)); -Infinity below. */
function xOfLoss(l: number, q: number, s: number): number {
  const arg = Math.expm1(l) / q; // (e^l - 1)/q; x = s^2 ln(1 + arg) + 1/2
  if (!(arg > -1)) return Number.NEGATIVE_INFINITY;
  return s * s * Math.log1p(arg) + 0.5;
}

function lossOfX(x: number, q: number, s: number): number {
  // ln(1 - q + q e^{(2x-1)/(2 s^2)}) computed stably
  const t = (2 * x - 1) / (2 * s * s);
  const a = Math.log1p(-q);
  const b = Math.log(q) + t;
  const hi = Math.max(a, b);
  return hi + Math.log1p(Math.exp(Math.min(a, b) - hi));
}

function removeLaw(q: number, s: number): LossLaw {
  return {
    lMin: lossOfX(-Z * s, q, s),
    lMax: lossOfX(1 + Z * s, q, s),
    survival: (l) => {
      const x = xOfLoss(l, q, s);
      if (x === Number.NEGATIVE_INFINITY) return 1;
      return (1 - q) * phic(x / s) + q * phic((x - 1) / s);
    },
    cdf: (l) => {
      const x = xOfLoss(l, q, s);
      if (x === Number.NEGATIVE_INFINITY) return 0;
      return (1 - q) * phi(x / s) + q * phi((x - 1) / s);
    },
  };
}

function addLaw(q: number, s: number): LossLaw {
  // X ~ N(0, s^2), loss -L(X), decreasing in X: loss > l iff X < x(-l)
  return {
    lMin: -lossOfX(Z * s, q, s),
    lMax: -lossOfX(-Z * s, q, s),
    survival: (l) => {
      const x = xOfLoss(-l, q, s);
      return x === Number.NEGATIVE_INFINITY ? 0 : phi(x / s);
    },
    cdf: (l) => {
      const x = xOfLoss(-l, q, s);
      return x === Number.NEGATIVE_INFINITY ? 1 : phic(x / s);
    },
  };
}

function gaussianLaw(muSquared: number): LossLaw {
  const mu = Math.sqrt(muSquared);
  const mean = muSquared / 2;
  return {
    lMin: mean - Z * mu,
    lMax: mean + Z * mu,
    survival: (l) => phic((l - mean) / mu),
    cdf: (l) => phi((l - mean) / mu),
  };
}

/** One part discretised: masses at losses (start + i) h, plus the pessimistic infinite mass. */
interface Discretised {
  readonly start: number;
  readonly pess: Float64Array;
  readonly infinity: number;
  readonly count: number;
}

function discretise(law: LossLaw, h: number, count: number): Discretised {
  const iMin = Math.floor(law.lMin / h);
  const iMax = Math.max(iMin + 1, Math.ceil(law.lMax / h));
  const n = iMax - iMin + 1;
  // P(L > l_i) and P(L <= l_i) at every grid point, each accurate in its own tail
  const S = new Float64Array(n);
  const F = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const l = (iMin + i) * h;
    S[i] = law.survival(l);
    F[i] = law.cdf(l);
  }
  const mass = (i: number): number => {
    // P(l_{i-1} < L <= l_i), i >= 1, from whichever tail is smaller (no cancellation)
    const v = F[i]! < 0.5 ? F[i]! - F[i - 1]! : S[i - 1]! - S[i]!;
    return Math.max(0, v);
  };
  const pess = new Float64Array(n);
  pess[0] = F[0]!; // everything at or below the lowest point rounds up to it
  for (let i = 1; i < n; i++) pess[i] = mass(i); // (l_{i-1}, l_i] -> l_i
  return { start: iMin, pess, infinity: S[n - 1]!, count };
}

/** ln sum_i w_i e^{lambda l_i} over the finite masses (shifted by the largest exponent). */
function logMgf(start: number, w: Float64Array, h: number, lambda: number): number {
  let first = -1;
  let last = -1;
  for (let i = 0; i < w.length; i++) {
    if (w[i]! > 0) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) return Number.NEGATIVE_INFINITY;
  const c = lambda * (start + (lambda > 0 ? last : first)) * h; // the largest exponent
  let s = 0;
  for (let i = first; i <= last; i++) if (w[i]! > 0) s += w[i]! * Math.exp(lambda * (start + i) * h - c);
  return c + Math.log(s);
}

/** Composed curve of one direction, pessimistic or optimistic: suffix sums over losses > 0. */
interface Curve {
  readonly losses: Float64Array; // ascending, all > 0
  readonly sufMass: Float64Array; // sum_{j >= i} c_j
  readonly sufWeighted: Float64Array; // sum_{j >= i} c_j e^{-l_j}
  readonly infinite: number; // probability of an infinite loss (some part above its range)
  readonly alias: number; // Chernoff bound on the composed mass outside the window
}

function deltaOfCurve(c: Curve, epsilon: number): number {
  // first index with loss > epsilon
  let lo = 0;
  let hi = c.losses.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c.losses[mid]! > epsilon) hi = mid;
    else lo = mid + 1;
  }
  const tail = lo < c.losses.length ? c.sufMass[lo]! - Math.exp(epsilon) * c.sufWeighted[lo]! : 0;
  return Math.max(0, tail);
}

/** A composed PLD: delta(eps) and eps(delta) bounds, from cached curves. */
export class PldComposition {
  /** Grid step h of the loss discretisation. */
  readonly discretisation: number;
  /** Number of composed parts F (the upper and lower epsilon differ by about F h at most). */
  readonly factors: number;
  /** Grid points of the composition window. */
  readonly points: number;
  private readonly curves: readonly Curve[];
  /** Probability of the events where a part's loss is outside its discretised range (both bounds pay it). */
  private readonly outside: number;

  constructor(h: number, factors: number, points: number, curves: readonly Curve[], outside: number) {
    this.discretisation = h;
    this.factors = factors;
    this.points = points;
    this.curves = curves;
    this.outside = outside;
  }

  /**
   * delta(epsilon): upper = the pessimistic curve (max over directions); lower = the pessimistic
   * curve's finite part shifted down by F h (each part's loss is rounded up by less than h) minus the
   * probability that some part's loss left its range and the window's aliasing bound.
   */
  delta(epsilon: number): PldBounds {
    let upper = 0;
    let lower = 0;
    const shifted = epsilon + this.factors * this.discretisation;
    for (const c of this.curves) {
      upper = Math.max(upper, deltaOfCurve(c, epsilon) + c.infinite + c.alias);
      lower = Math.max(lower, deltaOfCurve(c, shifted) - this.outside - c.alias);
    }
    return { upper: Math.min(1, upper), lower: Math.max(0, Math.min(1, lower)) };
  }

  /**
   * epsilon(delta): upper = smallest epsilon whose pessimistic delta is <= delta; lower = smallest
   * epsilon whose optimistic delta is <= delta.
   */
  epsilon(delta: number): PldBounds {
    const upper = smallestEpsilon((e) => this.delta(e).upper <= delta);
    const lower = smallestEpsilon((e) => this.delta(e).lower <= delta);
    return { upper, lower: Math.min(lower, upper) };
  }
}

function nextPow2(n: number): number {
  let p = 1024;
  while (p < n) p *= 2;
  return p;
}

/** Multiplies `acc` (interleaved complex) by the count-th power of the DFT of w placed at absolute indices mod N. */
function multiplyPower(
  fft: Fft,
  acc: Float64Array,
  start: number,
  w: Float64Array,
  count: number,
  out: Float64Array,
): void {
  const N = acc.length / 2;
  out.fill(0);
  let k = ((start % N) + N) % N;
  for (let i = 0; i < w.length; i++) {
    out[2 * k]! += w[i]!;
    k = k + 1 === N ? 0 : k + 1;
  }
  fft.transform(out);
  for (let j = 0; j < N; j++) {
    // (br + i bi)^count by binary exponentiation (log2(count) complex products, no transcendental calls)
    let br = out[2 * j]!;
    let bi = out[2 * j + 1]!;
    let pr = 1;
    let pi = 0;
    for (let e = count; ; ) {
      if (e & 1) {
        const t = pr * br - pi * bi;
        pi = pr * bi + pi * br;
        pr = t;
      }
      e = Math.floor(e / 2);
      if (e === 0) break;
      const t = br * br - bi * bi;
      bi = 2 * br * bi;
      br = t;
    }
    const ar = acc[2 * j]!;
    const ai = acc[2 * j + 1]!;
    acc[2 * j] = ar * pr - ai * pi;
    acc[2 * j + 1] = ar * pi + ai * pr;
  }
}

const fftCache = new Map<number, Fft>();

/** An FFT plan for size N (plans are cached: building one costs as much as a transform). */
function fftOf(N: number): Fft {
  let f = fftCache.get(N);
  if (f === undefined) {
    if (fftCache.size >= 8) fftCache.clear();
    f = new Fft(N);
    fftCache.set(N, f);
  }
  return f;
}

/** Composes the parts of one direction; returns the curve over losses > 0. */
function composeDirection(
  parts: readonly Discretised[],
  h: number,
  kLo: number,
  N: number,
  fft: Fft,
  aliasBound: number,
): Curve {
  const acc = new Float64Array(2 * N);
  for (let k = 0; k < N; k++) acc[2 * k] = 1;
  const out = new Float64Array(2 * N);
  for (const p of parts) multiplyPower(fft, acc, p.start, p.pess, p.count, out);
  fft.transform(acc, true);
  const result = acc;
  // out[2r] / N is the mass at the unique loss index k in [kLo, kLo + N) with k = r mod N
  let infinite = 1;
  for (const p of parts) infinite *= (1 - p.infinity) ** p.count;
  const firstPositive = Math.max(kLo, 1);
  const n = kLo + N - firstPositive;
  const losses = new Float64Array(Math.max(0, n));
  const masses = new Float64Array(Math.max(0, n));
  let r = ((firstPositive % N) + N) % N;
  for (let i = 0; i < n; i++) {
    const v = result[2 * r]!; // the inverse transform divides by N
    losses[i] = (firstPositive + i) * h;
    masses[i] = Math.max(0, v);
    r = r + 1 === N ? 0 : r + 1;
  }
  const sufMass = new Float64Array(n + 1);
  const sufWeighted = new Float64Array(n + 1);
  for (let i = n - 1; i >= 0; i--) {
    sufMass[i] = sufMass[i + 1]! + masses[i]!;
    sufWeighted[i] = sufWeighted[i + 1]! + masses[i]! * Math.exp(-losses[i]!);
  }
  return { losses, sufMass, sufWeighted, infinite: 1 - infinite, alias: aliasBound };
}

/**
 * The PLD of the adaptive composition of the subsampled parts (each q < 1) and one Gaussian part of
 * total mu^2 = `gaussianMuSquared` (0 for none), under add/remove neighbours.
 * @example subsampledCompositionPld([{ q: 0.3, noiseMultiplier: 2, count: 10 }], 0).epsilon(1e-5).upper // ~2.2
 */
export function subsampledCompositionPld(
  parts: readonly SubsampledPart[],
  gaussianMuSquared: number,
  options: PldOptions = {},
): PldComposition {
  const targetGap = options.targetGap ?? 1e-3;
  const maxPoints = options.maxPoints ?? 2 ** 17;
  let factors = gaussianMuSquared > 0 ? 1 : 0;
  for (const p of parts) factors += p.count;
  if (factors === 0) factors = 1;
  const laws: { remove: LossLaw; add: LossLaw; count: number }[] = parts.map((p) => ({
    remove: removeLaw(p.q, p.noiseMultiplier),
    add: addLaw(p.q, p.noiseMultiplier),
    count: p.count,
  }));
  if (gaussianMuSquared > 0) {
    const g = gaussianLaw(gaussianMuSquared);
    laws.push({ remove: g, add: g, count: 1 });
  }
  // a coarse probe (about 4096 points per part) finds the composed window, whose width hardly depends
  // on h; the step is then the target gap / F, or coarser when the window would exceed maxPoints
  let span = 0;
  for (const l of laws) span = Math.max(span, l.remove.lMax - l.remove.lMin, l.add.lMax - l.add.lMin);
  const hTarget = targetGap / factors;
  let h = Math.max(hTarget, span / 4096);
  let probing = h > hTarget;
  for (let attempt = 0; ; attempt++) {
    const directions = (['remove', 'add'] as const).map((d) => laws.map((l) => discretise(l[d], h, l.count)));
    // Chernoff window per direction: [t_lo, t_hi] holds all but TAU of the composed finite mass
    let tLo = Number.POSITIVE_INFINITY;
    let tHi = Number.NEGATIVE_INFINITY;
    const cache = new Map<string, number>();
    const sumK = (ds: readonly Discretised[], lambda: number): number => {
      let s = 0;
      ds.forEach((p, i) => {
        const key = `${i}|${lambda}|${ds === directions[0] ? 0 : 1}`;
        let k = cache.get(key);
        if (k === undefined) {
          k = logMgf(p.start, p.pess, h, lambda);
          cache.set(key, k);
        }
        s += p.count * k;
      });
      return s;
    };
    for (const ds of directions) {
      let hiBest = Number.POSITIVE_INFINITY;
      let loBest = Number.NEGATIVE_INFINITY;
      for (const lam of LAMBDAS) {
        hiBest = Math.min(hiBest, (sumK(ds, lam) - Math.log(TAU)) / lam);
        loBest = Math.max(loBest, (Math.log(TAU) - sumK(ds, -lam)) / lam);
      }
      tLo = Math.min(tLo, loBest);
      tHi = Math.max(tHi, hiBest);
    }
    const kLo = Math.floor(tLo / h) - 1;
    const kHi = Math.ceil(tHi / h) + 1;
    const N = nextPow2(kHi - kLo + 1);
    if (probing || (N > maxPoints && attempt < 4)) {
      const width = (kHi - kLo + 1) * h;
      const next = Math.max(hTarget, width / (maxPoints * 0.9));
      probing = false;
      if (next !== h) {
        h = next;
        continue;
      }
    }
    // mass outside the window actually used [kLo, kLo + N): Chernoff bounds at its edges
    const top = (kLo + N) * h;
    const bottom = kLo * h;
    let alias = 0;
    for (const ds of directions) {
      let above = Number.POSITIVE_INFINITY;
      let below = Number.POSITIVE_INFINITY;
      for (const lam of LAMBDAS) {
        above = Math.min(above, Math.exp(sumK(ds, lam) - lam * top));
        below = Math.min(below, Math.exp(sumK(ds, -lam) + lam * bottom));
      }
      alias = Math.max(alias, above + below);
    }
    const fft = fftOf(N);
    const curves = directions.map((ds) => composeDirection(ds, h, kLo, N, fft, alias));
    let outside = 0;
    for (const ds of directions) {
      let o = 0;
      for (const p of ds) o += p.count * (p.pess[0]! + p.infinity);
      outside = Math.max(outside, o);
    }
    return new PldComposition(h, factors, N, curves, outside);
  }
}
