/**
 * Rényi DP of the Poisson-subsampled Gaussian mechanism (sampling rate q, sensitivity 1, noise
 * multiplier sigma): eps(alpha) = ln(A_alpha) / (alpha - 1) with A_alpha = E_{z ~ mu0}[(mu(z)/mu0(z))^alpha],
 * mu0 = N(0, sigma^2), mu = (1 - q) mu0 + q N(1, sigma^2) (Mironov, Talwar & Zhang 2019, Sec. 3).
 *
 * - Integer alpha >= 2 (MTZ 2019, Sec. 3.2; SPEC section 2), exact:
 *   A_alpha = sum_{j=0}^{alpha} C(alpha,j) (1-q)^{alpha-j} q^j exp((j^2 - j)/(2 sigma^2)).
 *   Because the binomial weights sum to 1, A_alpha - 1 = sum_{j>=2} C(alpha,j) (1-q)^{alpha-j} q^j expm1((j^2-j)/(2 sigma^2)),
 *   a sum of positive terms; we sum it in log space (log-sum-exp) and take ln A = log1p(A - 1),
 *   so tiny q (A close to 1) loses no precision.
 * - Fractional alpha (MTZ 2019, Sec. 3.3), exact series with signed terms: split the integral at
 *   z1 = sigma^2 ln(1/q - 1) + 1/2, where (1 - q) mu0 = q mu1, and expand the binomial on each side:
 *   A_alpha = sum_{i>=0} C(alpha,i) q^i (1-q)^{alpha-i} e^{(i^2-i)/(2 sigma^2)} Phi((z1 - i)/sigma)
 *           + sum_{i>=0} C(alpha,i) q^{alpha-i} (1-q)^i e^{((alpha-i)^2-(alpha-i))/(2 sigma^2)} Phi((alpha - i - z1)/sigma).
 *   C(alpha, i) changes sign for i > alpha + 1, so positive and negative terms are summed apart in
 *   log space. For q < 1/2 we subtract sum_i C(alpha,i) q^i (1-q)^{alpha-i} = 1 term by term
 *   (each first-series term becomes C(alpha,i) q^i (1-q)^{alpha-i} expm1((i^2-i)/(2 sigma^2) + ln Phi(.))),
 *   which again yields A - 1 without cancellation. The alternating tail is summed until its terms
 *   fall below 1e-18 of the running total, or after 400 alternating terms the rest is summed by
 *   Euler's iterated averaging of the last 13 partial sums (see logAFractional).
 * - q = 1: eps(alpha) = alpha / (2 sigma^2) exactly.
 *
 * Cost: O(alpha) for integer orders, O(terms) (typically 20-200) for fractional ones; no allocation.
 */
import { logHalfErfc } from './logNormalTail.js';

const MAX_TERMS = 20000;

/** ln(e^a + e^b) for a, b possibly -Infinity. */
function logAdd(a: number, b: number): number {
  if (a === Number.NEGATIVE_INFINITY) return b;
  if (b === Number.NEGATIVE_INFINITY) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
}

/** ln(expm1(x)) for x > 0. */
function logExpm1(x: number): number {
  return x < 0.5 ? Math.log(Math.expm1(x)) : x + Math.log1p(-Math.exp(-x));
}

/** ln(1 + e^x), stable for every x. */
function log1pExp(x: number): number {
  return x > 35 ? x + Math.exp(-x) : Math.log1p(Math.exp(x));
}

/** ln A_alpha for integer alpha >= 2 and 0 < q < 1 (returns ln(1 + (A - 1)) accurately). */
function logAInteger(q: number, sigma: number, alpha: number): number {
  const logQ = Math.log(q);
  const log1mQ = Math.log1p(-q);
  const inv2s2 = 1 / (2 * sigma * sigma);
  // ln C(alpha, j) by recurrence; start at j = 2: C(alpha,2) = alpha(alpha-1)/2
  let logC = Math.log(alpha) + Math.log(alpha - 1) - Math.LN2;
  let m = Number.NEGATIVE_INFINITY;
  let s = 0;
  for (let j = 2; j <= alpha; j++) {
    if (j > 2) logC += Math.log(alpha - j + 1) - Math.log(j);
    const v = logC + (alpha - j) * log1mQ + j * logQ + logExpm1(j * (j - 1) * inv2s2);
    if (v > m) {
      s = s * Math.exp(m - v) + 1;
      m = v;
    } else {
      s += Math.exp(v - m);
    }
  }
  const logAm1 = m + Math.log(s);
  return log1pExp(logAm1);
}

/**
 * ln A_alpha for fractional alpha > 1 and 0 < q < 1, by the MTZ 2019 series (see file comment).
 *
 * Truncation: past i = alpha + 1 the terms alternate in sign. Before z1 the first series can rise
 * again, but its terms are bounded by |C(alpha, i)| e^{g(i)} with g convex, g(z1) = alpha ln(1-q) - z1^2/(2 sigma^2),
 * so we may stop before z1 when that bound is negligible. Past z1 both series decay only like
 * i^{-alpha-2} (slow for alpha near 1), so after TAIL_TERMS alternating terms the remaining tail is
 * summed by iterated averaging of the last partial sums (Euler's transform for alternating series).
 */
const TAIL_TERMS = 400;
const EULER_LEVELS = 12;

function logAFractional(q: number, sigma: number, alpha: number, partial: Float64Array): number {
  const logQ = Math.log(q);
  const log1mQ = Math.log1p(-q);
  const s2 = sigma * sigma;
  const inv2s2 = 1 / (2 * s2);
  const invSqrt2Sigma = 1 / (Math.SQRT2 * sigma);
  const z1 = s2 * (log1mQ - logQ) + 0.5;
  const riseBound = alpha * log1mQ - z1 * z1 * inv2s2 + Math.LN2; // log bound of terms up to z1 (times |C|)
  const minusOne = q < 0.5; // compute A - 1 (q < 1/2: the binomial series of the weights converges to 1)
  const firstAlternating = Math.ceil(alpha) + 1;
  let pos = Number.NEGATIVE_INFINITY; // ln of the sum of positive terms
  let neg = Number.NEGATIVE_INFINITY; // ln of the sum of |negative terms|
  let logAbsC = 0; // ln |C(alpha, i)|, i = 0
  let signC = 1;
  let ref = Number.NaN; // scale of the linear partial sums in the tail
  let nPartial = 0;
  let tailStart = -1;
  for (let i = 0; i < MAX_TERMS; i++) {
    if (i > 0) {
      const f = alpha - i + 1; // C(alpha,i) = C(alpha,i-1) (alpha - i + 1)/i
      logAbsC += Math.log(Math.abs(f)) - Math.log(i);
      if (f < 0) signC = -signC;
    }
    // first series: region z < z1, expansion in powers of q mu1/mu0
    const lw = logAbsC + i * logQ + (alpha - i) * log1mQ;
    const x = (i * i - i) * inv2s2 + logHalfErfc((i - z1) * invSqrt2Sigma);
    let t1: number;
    let t1Sign: number;
    if (!minusOne) {
      t1 = lw + x;
      t1Sign = signC;
    } else if (x > 0) {
      t1 = lw + logExpm1(x);
      t1Sign = signC;
    } else if (x < 0) {
      t1 = lw + Math.log(-Math.expm1(x));
      t1Sign = -signC;
    } else {
      t1 = Number.NEGATIVE_INFINITY;
      t1Sign = 1;
    }
    // second series: region z > z1, expansion in powers of (1 - q) mu0/(q mu1)
    const j = alpha - i;
    const t2 = logAbsC + j * logQ + i * log1mQ + (j * j - j) * inv2s2 + logHalfErfc((z1 - j) * invSqrt2Sigma);
    if (t1Sign > 0) pos = logAdd(pos, t1);
    else neg = logAdd(neg, t1);
    if (signC > 0) pos = logAdd(pos, t2);
    else neg = logAdd(neg, t2);
    if (i < firstAlternating) continue;
    const total = neg >= pos ? Number.NEGATIVE_INFINITY : pos + Math.log1p(-Math.exp(neg - pos));
    const termMax = Math.max(t1, t2);
    const pastRise = i > z1 || logAbsC + riseBound < total - 41.5;
    if (pastRise && termMax < total - 41.5) return finish(total, minusOne);
    if (!pastRise) continue;
    // alternating tail: record partial sums (linear, scaled by e^{-ref})
    if (tailStart < 0) {
      tailStart = i;
      ref = pos;
    }
    partial[nPartial % partial.length] = Math.exp(pos - ref) - Math.exp(neg - ref);
    nPartial++;
    if (i - tailStart >= TAIL_TERMS && nPartial >= partial.length) {
      // iterated averaging of the last partial sums (oldest first)
      const n = partial.length;
      const start = nPartial % n;
      for (let k = 0; k < n; k++) scratchEuler[k] = partial[(start + k) % n]!;
      for (let level = n - 1; level > 0; level--) {
        for (let k = 0; k < level; k++) scratchEuler[k] = 0.5 * (scratchEuler[k]! + scratchEuler[k + 1]!);
      }
      const value = scratchEuler[0]!;
      return finish(value > 0 ? ref + Math.log(value) : Number.NEGATIVE_INFINITY, minusOne);
    }
  }
  const total = neg >= pos ? Number.NEGATIVE_INFINITY : pos + Math.log1p(-Math.exp(neg - pos));
  return finish(total, minusOne);
}

const scratchEuler = new Float64Array(EULER_LEVELS + 1);
const partialSums = new Float64Array(EULER_LEVELS + 1);

/** ln A from ln(A - 1) (minusOne) or ln A itself. */
function finish(logTotal: number, minusOne: boolean): number {
  if (!minusOne) return Math.max(0, logTotal);
  if (!(logTotal > Number.NEGATIVE_INFINITY)) return 0;
  return log1pExp(logTotal);
}

/**
 * RDP epsilon of one Poisson-subsampled Gaussian release at order `alpha`. Kernel: expects
 * 0 < q <= 1, sigma > 0, alpha > 1 (validated by the public entry points); never throws.
 * @example subsampledGaussianRdp(1, 2, 8) // 8 / (2 * 4) = 1
 * @example subsampledGaussianRdp(0.1, 1, 2) // ln(1 + 0.01 (e - 1)) = 0.017035...
 */
export function subsampledGaussianRdp(q: number, sigma: number, alpha: number): number {
  if (q >= 1) return alpha / (2 * sigma * sigma);
  const logA = Number.isInteger(alpha)
    ? logAInteger(q, sigma, alpha)
    : logAFractional(q, sigma, alpha, partialSums);
  return Math.max(0, logA) / (alpha - 1);
}

/**
 * Per-step curves already computed in this realm, by frozen order grid (the named grids and every
 * grid `resolveOrders` returns), then by `q|sigma`: a pure function's values, so a hit gives the
 * same numbers. An experiment worker builds one ledger per cell and evaluated the same few (q,
 * sigma) pairs thousands of times (~3 CPU-s per worker thread in a full reproduction). At most
 * {@link CURVE_MEMO_LIMIT} pairs per grid are kept (the map is emptied when full).
 */
const curveMemo = new WeakMap<object, Map<string, Float64Array>>();
const CURVE_MEMO_LIMIT = 4096;

/**
 * Fills `out[i]` with steps x the RDP at `orders[i]` (composition of `steps` identical releases
 * on the same data adds RDP). Kernel: no validation; returns `out`. For a frozen grid the per-step
 * curve is computed once per (q, sigma) in this realm and kept (the same values).
 * @example subsampledGaussianRdpCurve(1, 1, [2, 4], 10, new Float64Array(2)) // [10, 20]
 */
export function subsampledGaussianRdpCurve(
  q: number,
  sigma: number,
  orders: ArrayLike<number>,
  steps: number,
  out: Float64Array,
): Float64Array {
  if (!Object.isFrozen(orders)) {
    for (let i = 0; i < orders.length; i++) out[i] = steps * subsampledGaussianRdp(q, sigma, orders[i]!);
    return out;
  }
  let memo = curveMemo.get(orders);
  if (memo === undefined) {
    memo = new Map();
    curveMemo.set(orders, memo);
  }
  const key = `${q}|${sigma}`;
  let perStep = memo.get(key);
  if (perStep === undefined) {
    perStep = new Float64Array(orders.length);
    for (let i = 0; i < orders.length; i++) perStep[i] = subsampledGaussianRdp(q, sigma, orders[i]!);
    if (memo.size >= CURVE_MEMO_LIMIT) memo.clear();
    memo.set(key, perStep);
  }
  for (let i = 0; i < orders.length; i++) out[i] = steps * perStep[i]!;
  return out;
}
