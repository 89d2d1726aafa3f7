import type { Rng, RngState } from './Rng.js';

const TWO32 = 4294967296;
const TWO_M53 = 1 / 9007199254740992;
/** 32-bit words fetched from the operating system per refill (4 KiB; Web Crypto allows 64 KiB). */
const BUFFER_WORDS = 1024;

/** The `algorithm` tag of a secure generator (its state is never saved; see {@link SecureRng.saveState}). */
export const SECURE_ALGORITHM = 'secure';

/** The platform's cryptographically secure source; throws when there is none. */
function cryptoSource(): { getRandomValues(a: Uint32Array): Uint32Array } {
  const c = (globalThis as { crypto?: { getRandomValues?: unknown } }).crypto;
  if (c === undefined || typeof c.getRandomValues !== 'function') {
    throw new Error(
      'SecureRng: globalThis.crypto.getRandomValues is not available (Node >= 20 and every current browser have it).',
    );
  }
  return c as { getRandomValues(a: Uint32Array): Uint32Array };
}

/**
 * A generator whose bits come from the platform's cryptographically secure source
 * (`globalThis.crypto.getRandomValues`: the operating system's CSPRNG in Node 20, Web Crypto in
 * browsers), read 4 KiB at a time into a reused buffer, so a draw allocates nothing.
 *
 * It is the source of privacy noise when a policy is built without `noiseSeed`: nobody, the caller
 * included, can reproduce or predict its stream, and it has no state to save. `saveState` throws, so
 * a snapshot can never carry it and a restored policy can never replay it.
 *
 * Same transformations as {@link Xoshiro256} on top of the bits (53-bit uniforms, Marsaglia's polar
 * normals, rejection for integers); the floating-point caveat of the polar method still applies to
 * `normal()` (see docs/numerics.md, "The floating-point caveat").
 *
 * Cost: a 4 KiB `getRandomValues` call every 1024 words of 32 bits, otherwise an array read.
 *
 * @example
 * const r = new SecureRng();
 * r.uniform(); // returns an unpredictable double in [0, 1)
 */
export class SecureRng implements Rng {
  private readonly buffer = new Uint32Array(BUFFER_WORDS);
  private next = BUFFER_WORDS;
  private readonly source = cryptoSource();
  private spare = 0;
  private hasSpare = false;

  /** One uniformly random 32-bit word (unsigned). */
  word(): number {
    if (this.next >= BUFFER_WORDS) {
      this.source.getRandomValues(this.buffer);
      this.next = 0;
    }
    return this.buffer[this.next++]!;
  }

  uniform(): number {
    const hi = this.word();
    const lo = this.word();
    return (hi * 2097152 + (lo >>> 11)) * TWO_M53;
  }

  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    let u: number;
    let v: number;
    let q: number;
    do {
      u = 2 * this.uniform() - 1;
      v = 2 * this.uniform() - 1;
      q = u * u + v * v;
    } while (q >= 1 || q === 0);
    const f = Math.sqrt((-2 * Math.log(q)) / q);
    this.spare = v * f;
    this.hasSpare = true;
    return u * f;
  }

  bernoulli(p: number): boolean {
    return this.uniform() < p;
  }

  integer(n: number): number {
    if (!(n >= 1 && n <= TWO32 && Number.isInteger(n))) {
      throw new RangeError(`Rng.integer: n must be an integer in [1, 2^32]. Got ${String(n)}.`);
    }
    const limit = TWO32 - (TWO32 % n);
    let x: number;
    do {
      x = this.word();
    } while (x >= limit);
    return x % n;
  }

  sampleWithoutReplacement(n: number, k: number, out: Int32Array, scratch: Int32Array): void {
    if (!(Number.isInteger(n) && n >= 0 && n <= 2147483647 && Number.isInteger(k) && k >= 0 && k <= n)) {
      throw new RangeError(
        `Rng.sampleWithoutReplacement: need integers 0 <= k <= n. Got n=${String(n)}, k=${String(k)}.`,
      );
    }
    if (out.length < k || scratch.length < n) {
      throw new RangeError('Rng.sampleWithoutReplacement: out must hold k values and scratch n values.');
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

  fillNormal(out: Float64Array, start = 0, end: number = out.length): void {
    for (let i = start; i < end; i++) out[i] = this.normal();
  }

  /**
   * Always throws: a secure stream has no state that could be saved, so nothing (snapshot, log,
   * result file) can ever let anyone replay it.
   */
  saveState(): RngState {
    throw new Error(
      'SecureRng: a secure random source has no state to save (its stream cannot be replayed).',
    );
  }

  /** Always throws (see {@link SecureRng.saveState}). */
  restoreState(_state: RngState): void {
    throw new Error('SecureRng: a secure random source cannot be restored to a saved state.');
  }
}
