type NumericArray = Int32Array | Float32Array | Float64Array;
type ArrayCtor<T extends NumericArray> = new (length: number) => T;

/**
 * An append-only typed-array buffer that doubles its capacity when full, so that millions of
 * values can be collected while streaming without holding JavaScript numbers in an Array.
 *
 * Cost: amortised O(1) per push; peak memory about 3x the final size during the last doubling.
 * @example
 * const b = new GrowableTypedArray(Int32Array, 2);
 * b.push(7); b.push(8); b.push(9);
 * b.toArray(); // returns Int32Array [7, 8, 9]
 */
export class GrowableTypedArray<T extends NumericArray> {
  private data: T;
  private size = 0;

  /**
   * @param ctor - Int32Array, Float32Array or Float64Array.
   * @param initialCapacity - positive integer; default 1024.
   */
  constructor(
    private readonly ctor: ArrayCtor<T>,
    initialCapacity = 1024,
  ) {
    this.data = new ctor(Math.max(1, Math.floor(initialCapacity)));
  }

  /** Number of values pushed so far. */
  get length(): number {
    return this.size;
  }

  /** Appends one value. */
  push(value: number): void {
    if (this.size === this.data.length) this.grow();
    this.data[this.size++] = value;
  }

  /** The value at `index` (0 <= index < length). */
  get(index: number): number {
    return this.data[index] ?? Number.NaN;
  }

  /** Overwrites the value at `index` (0 <= index < length). */
  set(index: number, value: number): void {
    this.data[index] = value;
  }

  /** Removes the last `count` values (used to roll back a partially parsed record). */
  truncate(length: number): void {
    this.size = Math.max(0, Math.min(this.size, length));
  }

  /** A compact copy of the values (the buffer may keep growing afterwards). */
  toArray(): T {
    const out = new this.ctor(this.size);
    (out as unknown as { set(a: ArrayLike<number>): void }).set(this.data.subarray(0, this.size));
    return out;
  }

  private grow(): void {
    const next = new this.ctor(this.data.length * 2);
    (next as unknown as { set(a: ArrayLike<number>): void }).set(this.data);
    this.data = next;
  }
}
