/**
 * The exact discrete Gaussian sampler of Canonne, Kamath & Steinke (2020, "The discrete Gaussian for
 * differential privacy", NeurIPS; Algorithms 1-3): returns an integer Y with
 * P(Y = y) proportional to exp(-y^2 / (2 sigma^2)), using only integer (BigInt) arithmetic on the
 * rational sigma^2 = num / den and uniformly random 32-bit words. No floating-point operation touches
 * the value, so the output distribution is exactly the discrete Gaussian (no Mironov-2012 leak).
 *
 * Structure: a discrete Laplace proposal of scale t = floor(sigma) + 1 (Algorithm 2), accepted with
 * probability exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2)) (Algorithm 3); Bernoulli(exp(-gamma)) for
 * rational gamma by von Neumann's series trick (Algorithm 1). Expected cost: a few dozen BigInt
 * operations and about 10 to 20 words per sample, independent of sigma (figures in docs/numerics.md).
 */

/** A source of independent uniform 32-bit words (SecureRng in production; a seeded one in tests). */
export interface UniformWords {
  /** A uniformly random integer in [0, 2^32). */
  word(): number;
}

/** Uniform integer in [0, m), m >= 1, by rejection on the bit length of m - 1 (exact). */
export function uniformBigInt(m: bigint, src: UniformWords): bigint {
  if (m <= 1n) return 0n;
  const bits = (m - 1n).toString(2).length;
  const words = Math.ceil(bits / 32);
  const excess = BigInt(words * 32 - bits);
  for (;;) {
    let x = 0n;
    for (let i = 0; i < words; i++) x = (x << 32n) | BigInt(src.word());
    x >>= excess;
    if (x < m) return x;
  }
}

/** true with probability num / den (0 <= num <= den, den >= 1), exactly. */
function bernoulliRational(num: bigint, den: bigint, src: UniformWords): boolean {
  return uniformBigInt(den, src) < num;
}

/** true with probability exp(-num / den) for num / den in [0, 1] (CKS Algorithm 1, first case). */
function bernoulliExpSmall(num: bigint, den: bigint, src: UniformWords): boolean {
  let k = 1n;
  while (bernoulliRational(num, den * k, src)) k++;
  return k % 2n === 1n;
}

/** true with probability exp(-num / den) for any num / den >= 0 (CKS Algorithm 1). */
export function bernoulliExp(num: bigint, den: bigint, src: UniformWords): boolean {
  if (num <= den) return bernoulliExpSmall(num, den, src);
  const whole = num / den;
  for (let i = 0n; i < whole; i++) if (!bernoulliExpSmall(1n, 1n, src)) return false;
  return bernoulliExpSmall(num - whole * den, den, src);
}

/** Integer square root floor(sqrt(n)), n >= 0 (Newton's method). */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n)))) + 1n; // above the root (within rounding)
  while (x * x > n) x = (x + n / x) >> 1n;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}

/** Discrete Laplace of integer scale t >= 1: P(Y = y) proportional to exp(-|y| / t) (CKS Algorithm 2). */
function discreteLaplace(t: bigint, src: UniformWords): bigint {
  for (;;) {
    const u = uniformBigInt(t, src);
    if (!bernoulliExp(u, t, src)) continue;
    let v = 0n;
    while (bernoulliExpSmall(1n, 1n, src)) v++;
    const y = u + t * v;
    const negative = (src.word() & 1) === 1;
    if (negative && y === 0n) continue;
    return negative ? -y : y;
  }
}

/**
 * One sample of the discrete Gaussian N_Z(0, sigma^2) with sigma^2 = num / den (both positive).
 *
 * @example
 * sampleDiscreteGaussian(4n, 1n, new SecureRng()); // returns an integer (bigint) of scale 2
 */
export function sampleDiscreteGaussian(num: bigint, den: bigint, src: UniformWords): bigint {
  if (num <= 0n || den <= 0n) throw new RangeError('sampleDiscreteGaussian: sigma^2 must be positive.');
  const t = isqrt(num / den) + 1n;
  // accept with exp(-(|y| - sigma^2/t)^2 / (2 sigma^2)) = exp(-(|y| den t - num)^2 / (2 num den t^2))
  const accDen = 2n * num * den * t * t;
  for (;;) {
    const y = discreteLaplace(t, src);
    const ay = y < 0n ? -y : y;
    const diff = ay * den * t - num;
    if (bernoulliExp(diff * diff, accDen, src)) return y;
  }
}

/**
 * sigma^2 of a positive finite double sigma as an exact rational [num, den] (den a power of two).
 *
 * @example
 * sigmaSquaredRational(1.5); // returns [9n, 4n]
 */
export function sigmaSquaredRational(sigma: number): [bigint, bigint] {
  if (!(sigma > 0 && Number.isFinite(sigma))) {
    throw new RangeError(`sigmaSquaredRational: sigma must be positive and finite. Got ${sigma}.`);
  }
  let k = 0;
  let m = sigma;
  while (!Number.isInteger(m)) {
    m *= 2; // exact: doubling a double
    k++;
  }
  const mm = BigInt(m);
  return [mm * mm, 1n << BigInt(2 * k)];
}
