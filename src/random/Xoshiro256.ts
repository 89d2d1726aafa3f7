import type { Rng, RngState } from './Rng.js';
import { type PolarKernel, polarKernel } from './xoshiroPolarKernel.js';

const TWO32 = 4294967296;
const TWO_M53 = 1 / 9007199254740992;
const HEX_WORD = /^[0-9a-f]{16}$/;

/** The `algorithm` tag written by {@link Xoshiro256.saveState}. */
export const XOSHIRO256_ALGORITHM = 'xoshiro256**/polar';

/**
 * xoshiro256** (Blackman & Vigna 2021, "Scrambled linear pseudorandom number generators", ACM TOMS
 * 47(4)): 256-bit state, period 2^256 - 1, passes BigCrush and PractRand. Implemented with 32-bit
 * integer arithmetic on pairs of words (no BigInt, no floating-point in the bit stream), so every
 * platform produces the same bits.
 *
 * Normals use Marsaglia's polar method (Marsaglia & Bray 1964), exact in distribution up to the
 * 53-bit resolution of the uniforms: rejection to the unit disc, then sqrt(-2 ln s / s). The second
 * normal of each pair is cached and is part of the saved state.
 *
 * Cost: one 64-bit step is ~20 32-bit operations; a uniform takes one step, a normal on average
 * 4/pi ~ 1.27 steps plus a log and a sqrt.
 *
 * Not a cryptographic generator; see docs/numerics.md.
 *
 * @example
 * const rng = createRng(1, 'env'); // use createRng rather than the constructor
 * rng.uniform(); // returns a double in [0, 1)
 */
export class Xoshiro256 implements Rng {
  /** State words as signed 32-bit halves: [s0hi, s0lo, s1hi, s1lo, s2hi, s2lo, s3hi, s3lo]. */
  private readonly s = new Int32Array(8);
  /** Low half of the last 64-bit output (the high half is returned by `step`). */
  private lo = 0;
  private spare = 0;
  private hasSpare = false;
  /** Scratch of `normal` (one polar pair). */
  private readonly pair = new Float64Array(2);

  /**
   * @param words - four 64-bit state words as BigInt, not all zero (use `createRng`, which derives
   * them from a seed and a stream name).
   */
  constructor(words: readonly [bigint, bigint, bigint, bigint]) {
    this.setWords(words);
  }

  private setWords(words: readonly bigint[]): void {
    let any = false;
    for (let i = 0; i < 4; i++) {
      const w = BigInt.asUintN(64, words[i] ?? 0n);
      if (w !== 0n) any = true;
      this.s[2 * i] = Number(w >> 32n) | 0;
      this.s[2 * i + 1] = Number(w & 0xffffffffn) | 0;
    }
    if (!any) throw new RangeError('Xoshiro256: the state must not be all zero.');
  }

  /** Advances the state; returns the high 32 bits of the output (signed) and leaves the low ones in `lo`. */
  private step(): number {
    const s = this.s;
    const s0h = s[0]!;
    const s0l = s[1]!;
    const s1h = s[2]!;
    const s1l = s[3]!;
    const s2h = s[4]!;
    const s2l = s[5]!;
    const s3h = s[6]!;
    const s3l = s[7]!;
    // result = rotl(s1 * 5, 7) * 9
    let p = (s1l >>> 0) * 5;
    let ml = p | 0;
    let mh = (Math.imul(s1h, 5) + ((p / TWO32) | 0)) | 0;
    const rh = (mh << 7) | (ml >>> 25);
    const rl = (ml << 7) | (mh >>> 25);
    p = (rl >>> 0) * 9;
    ml = p | 0;
    mh = (Math.imul(rh, 9) + ((p / TWO32) | 0)) | 0;
    this.lo = ml;
    // t = s1 << 17
    const th = (s1h << 17) | (s1l >>> 15);
    const tl = s1l << 17;
    // s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)
    const n2h = s2h ^ s0h;
    const n2l = s2l ^ s0l;
    const n3h = s3h ^ s1h;
    const n3l = s3l ^ s1l;
    s[2] = s1h ^ n2h;
    s[3] = s1l ^ n2l;
    s[0] = s0h ^ n3h;
    s[1] = s0l ^ n3l;
    s[4] = n2h ^ th;
    s[5] = n2l ^ tl;
    s[6] = (n3l << 13) | (n3h >>> 19);
    s[7] = (n3h << 13) | (n3l >>> 19);
    return mh;
  }

  /** Uniform double in [0, 1): the top 53 bits of one 64-bit output times 2^-53. */
  uniform(): number {
    const hi = this.step();
    return ((hi >>> 0) * 2097152 + (this.lo >>> 11)) * TWO_M53;
  }

  /**
   * Standard normal by Marsaglia's polar method (pairs; the second is cached). The pair is drawn by
   * `fillNormal` (no boxed uniforms): u f is returned, v f cached, as the loop of the method says.
   */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    const pair = this.pair;
    this.fillNormal(pair, 0, 2);
    this.spare = pair[1]!;
    this.hasSpare = true;
    return pair[0]!;
  }

  /** true with probability p (p <= 0 never, p >= 1 always); `uniform() < p`. */
  bernoulli(p: number): boolean {
    return this.uniform() < p;
  }

  /**
   * Uniform integer in [0, n) by rejection on the high 32 bits of one output (unbiased).
   * Throws a RangeError unless n is an integer with 1 <= n <= 2^32.
   */
  integer(n: number): number {
    if (!(n >= 1 && n <= TWO32 && Number.isInteger(n))) {
      throw new RangeError(`Rng.integer: n must be an integer in [1, 2^32]. Got ${String(n)}.`);
    }
    const limit = TWO32 - (TWO32 % n);
    let x: number;
    do {
      x = this.step() >>> 0;
    } while (x >= limit);
    return x % n;
  }

  /**
   * k distinct indices uniform over the k-subsets of [0, n), in uniformly random order, into
   * out[0..k), by a partial Fisher-Yates shuffle of scratch[0..n) (which is overwritten).
   * Throws a RangeError on bad sizes.
   */
  sampleWithoutReplacement(n: number, k: number, out: Int32Array, scratch: Int32Array): void {
    if (!(Number.isInteger(n) && n >= 0 && n <= 2147483647)) {
      throw new RangeError(
        `Rng.sampleWithoutReplacement: n must be a non-negative integer. Got ${String(n)}.`,
      );
    }
    if (!(Number.isInteger(k) && k >= 0 && k <= n)) {
      throw new RangeError(
        `Rng.sampleWithoutReplacement: k must be an integer in [0, n=${n}]. Got ${String(k)}.`,
      );
    }
    if (out.length < k) {
      throw new RangeError(
        `Rng.sampleWithoutReplacement: out must have length >= k=${k}. Got ${out.length}.`,
      );
    }
    if (scratch.length < n) {
      throw new RangeError(
        `Rng.sampleWithoutReplacement: scratch must have length >= n=${n}. Got ${scratch.length}.`,
      );
    }
    for (let i = 0; i < n; i++) scratch[i] = i;
    for (let j = 0; j < k; j++) {
      const r = j + this.integer(n - j);
      const t = scratch[r]!;
      scratch[r] = scratch[j]!;
      scratch[j] = t;
      out[j] = t;
    }
  }

  /**
   * Fills out[start..end) with standard normals. Produces exactly the values that (end - start)
   * successive `normal()` calls would, and leaves the generator in the same state.
   *
   * The generator step is written out here on local copies of the state words (loaded once, stored
   * once): a call of `uniform()` that the optimiser does not inline returns a boxed double, so the
   * hot loop of the policies would allocate about two heap numbers per normal. The integer steps and
   * the uniforms are the same as `step` and `uniform` compute (bit-identical streams).
   */
  fillNormal(out: Float64Array, start = 0, end: number = out.length): void {
    let i = start;
    if (i < end && this.hasSpare) {
      this.hasSpare = false;
      out[i++] = this.spare;
    }
    const wasm = i + 1 < end ? polarKernel() : null;
    if (wasm !== null) {
      i = this.fillPairsWasm(wasm, out, i, (end - i) >> 1);
    } else if (i + 1 < end) {
      const st = this.s;
      let s0h = st[0]!;
      let s0l = st[1]!;
      let s1h = st[2]!;
      let s1l = st[3]!;
      let s2h = st[4]!;
      let s2l = st[5]!;
      let s3h = st[6]!;
      let s3l = st[7]!;
      let ml = 0;
      while (i + 1 < end) {
        let u = 0;
        let v = 0;
        let q: number;
        do {
          for (let h = 0; h < 2; h++) {
            // one step of xoshiro256** (as `step`): result = rotl(s1 * 5, 7) * 9
            let p = (s1l >>> 0) * 5;
            ml = p | 0;
            let mh = (Math.imul(s1h, 5) + ((p / TWO32) | 0)) | 0;
            const rh = (mh << 7) | (ml >>> 25);
            const rl = (ml << 7) | (mh >>> 25);
            p = (rl >>> 0) * 9;
            ml = p | 0;
            mh = (Math.imul(rh, 9) + ((p / TWO32) | 0)) | 0;
            const th = (s1h << 17) | (s1l >>> 15);
            const tl = s1l << 17;
            const n2h = s2h ^ s0h;
            const n2l = s2l ^ s0l;
            const n3h = s3h ^ s1h;
            const n3l = s3l ^ s1l;
            s1h ^= n2h;
            s1l ^= n2l;
            s0h ^= n3h;
            s0l ^= n3l;
            s2h = n2h ^ th;
            s2l = n2l ^ tl;
            s3h = (n3l << 13) | (n3h >>> 19);
            s3l = (n3h << 13) | (n3l >>> 19);
            // the uniform of `uniform()`, mapped to [-1, 1)
            const w = 2 * (((mh >>> 0) * 2097152 + (ml >>> 11)) * TWO_M53) - 1;
            if (h === 0) u = w;
            else v = w;
          }
          q = u * u + v * v;
        } while (q >= 1 || q === 0);
        const f = Math.sqrt((-2 * Math.log(q)) / q);
        out[i] = u * f;
        out[i + 1] = v * f;
        i += 2;
      }
      st[0] = s0h;
      st[1] = s0l;
      st[2] = s1h;
      st[3] = s1l;
      st[4] = s2h;
      st[5] = s2l;
      st[6] = s3h;
      st[7] = s3l;
      this.lo = ml;
    }
    if (i < end) out[i] = this.normal();
  }

  /**
   * `pairs` normal pairs into out[i..), the integer steps and the rejection in WebAssembly (native
   * 64-bit words), the logarithm here: the values of the JavaScript loop of `fillNormal`, bit for
   * bit. The state words are (hi, lo) here and little-endian i64 (lo, hi) there. Returns the next i.
   */
  private fillPairsWasm(wasm: PolarKernel, out: Float64Array, start: number, pairs: number): number {
    const st = this.s;
    const m = wasm.i32;
    for (let w = 0; w < 4; w++) {
      m[2 * w] = st[2 * w + 1]!;
      m[2 * w + 1] = st[2 * w]!;
    }
    const f64 = wasm.f64;
    let i = start;
    let left = pairs;
    while (left > 0) {
      const n = Math.min(left, wasm.maxPairs);
      wasm.polar(n);
      for (let p = 8, e = 8 + 3 * n; p < e; p += 3) {
        const q = f64[p + 2]!;
        const f = Math.sqrt((-2 * Math.log(q)) / q);
        out[i] = f64[p]! * f;
        out[i + 1] = f64[p + 1]! * f;
        i += 2;
      }
      left -= n;
    }
    for (let w = 0; w < 4; w++) {
      st[2 * w + 1] = m[2 * w]!;
      st[2 * w] = m[2 * w + 1]!;
    }
    this.lo = m[8]!;
    return i;
  }

  saveState(): RngState {
    const words: string[] = [];
    for (let i = 0; i < 4; i++) {
      const h = (this.s[2 * i]! >>> 0).toString(16).padStart(8, '0');
      const l = (this.s[2 * i + 1]! >>> 0).toString(16).padStart(8, '0');
      words.push(h + l);
    }
    return { algorithm: XOSHIRO256_ALGORITHM, words, spareNormal: this.hasSpare ? this.spare : null };
  }

  restoreState(state: RngState): void {
    if (state === null || typeof state !== 'object') {
      throw new TypeError(
        `Rng.restoreState: state must be an object from saveState(). Got ${String(state)}.`,
      );
    }
    if (state.algorithm !== XOSHIRO256_ALGORITHM) {
      throw new RangeError(
        `Rng.restoreState: algorithm must be '${XOSHIRO256_ALGORITHM}'. Got ${JSON.stringify(state.algorithm)}.`,
      );
    }
    const w = state.words;
    if (!Array.isArray(w) || w.length !== 4 || !w.every((x) => typeof x === 'string' && HEX_WORD.test(x))) {
      throw new RangeError(
        `Rng.restoreState: words must be 4 strings of 16 lowercase hex digits. Got ${JSON.stringify(w)}.`,
      );
    }
    const sp = state.spareNormal;
    if (!(sp === null || (typeof sp === 'number' && Number.isFinite(sp)))) {
      throw new RangeError(
        `Rng.restoreState: spareNormal must be a finite number or null. Got ${String(sp)}.`,
      );
    }
    this.setWords(w.map((x) => BigInt(`0x${x}`)));
    this.hasSpare = sp !== null;
    this.spare = sp ?? 0;
  }
}
