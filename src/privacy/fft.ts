/**
 * A small in-place radix-2 complex FFT on interleaved Float64Arrays ([re0, im0, re1, im1, ...]),
 * for the PLD accountant's compositions. Iterative Cooley-Tukey with bit-reversal permutation; the
 * twiddle factors are computed directly (cos/sin of 2 pi k / N, no recurrence) and cached per size,
 * so the rounding error grows like log2(N) machine epsilons. Kernel: no validation, no allocation
 * after the plan is built. (fft.js, a well-kept npm library, was considered; the light
 * adaprivate-core package keeps its single runtime dependency instead, for 40 lines of code.)
 * Cost: N log2(N) / 2 butterflies; N = 2^17 takes about 10 ms.
 */
export class Fft {
  /** Transform size, a power of two >= 2. */
  readonly size: number;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly rev: Uint32Array;

  constructor(size: number) {
    if (!Number.isSafeInteger(size) || size < 2 || (size & (size - 1)) !== 0) {
      throw new RangeError(`Fft: size must be a power of two >= 2. Got ${String(size)}.`);
    }
    this.size = size;
    const half = size / 2;
    this.cos = new Float64Array(half);
    this.sin = new Float64Array(half);
    for (let k = 0; k < half; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / size);
      this.sin[k] = Math.sin((2 * Math.PI * k) / size);
    }
    this.rev = new Uint32Array(size);
    const bits = Math.log2(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0, x = i; b < bits; b++, x >>= 1) r = (r << 1) | (x & 1);
      this.rev[i] = r;
    }
  }

  /** In place: x <- DFT(x) (sign -1), or the inverse DFT divided by N when `inverse`. */
  transform(x: Float64Array, inverse = false): void {
    const n = this.size;
    for (let i = 0; i < n; i++) {
      const j = this.rev[i]!;
      if (j > i) {
        let t = x[2 * i]!;
        x[2 * i] = x[2 * j]!;
        x[2 * j] = t;
        t = x[2 * i + 1]!;
        x[2 * i + 1] = x[2 * j + 1]!;
        x[2 * j + 1] = t;
      }
    }
    const sign = inverse ? 1 : -1;
    for (let len = 2; len <= n; len *= 2) {
      const half = len / 2;
      const step = n / len;
      for (let start = 0; start < n; start += len) {
        for (let k = 0; k < half; k++) {
          const wr = this.cos[k * step]!;
          const wi = sign * this.sin[k * step]!;
          const a = 2 * (start + k);
          const b = 2 * (start + k + half);
          const br = x[b]! * wr - x[b + 1]! * wi;
          const bi = x[b]! * wi + x[b + 1]! * wr;
          x[b] = x[a]! - br;
          x[b + 1] = x[a + 1]! - bi;
          x[a]! += br;
          x[a + 1]! += bi;
        }
      }
    }
    if (inverse) for (let i = 0; i < 2 * n; i++) x[i]! /= n;
  }
}
