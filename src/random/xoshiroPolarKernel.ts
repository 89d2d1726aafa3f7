/**
 * The WebAssembly kernel of {@link Xoshiro256.fillNormal} (source: xoshiroPolar.wat): xoshiro256**
 * steps and the polar method's rejection loop on native 64-bit integers, returning accepted
 * (u, v, q) triples; the caller finishes each pair with Math.log and Math.sqrt, so the normals are
 * bit-identical to the JavaScript loop (tested in test/random/xoshiroPolarKernel.test.ts).
 *
 * One instance per JavaScript realm, made on first use with a synchronous compile of ~0.5 KB. Where
 * WebAssembly is missing or refuses (a browser's main thread, a content-security policy, the
 * browser bundle, whose twin module has no bytes), `polarKernel()` returns null and the JavaScript
 * loop runs instead: the same numbers, only slower.
 */
import { instantiateWasm } from './instantiateWasm.js';
import { XOSHIRO_POLAR_WASM } from './xoshiroPolarWasm.js';

/** The kernel's memory views and its one function (see xoshiroPolar.wat for the layout). */
export interface PolarKernel {
  /** Writes `pairs` accepted triples at f64 index 8 onward; state at i32 0..7, `lo` at i32 8. */
  readonly polar: (pairs: number) => void;
  readonly i32: Int32Array;
  readonly f64: Float64Array;
  /** How many triples one call may write. */
  readonly maxPairs: number;
}

let kernel: PolarKernel | null | undefined;
let enabled = true;

/** The kernel, or null when WebAssembly is unavailable or switched off by {@link setPolarKernel}. */
export function polarKernel(): PolarKernel | null {
  if (!enabled) return null;
  if (kernel === undefined) kernel = instantiate();
  return kernel;
}

/**
 * Switches the kernel on or off for this realm (default on); returns the previous setting. Both
 * paths give the same numbers: this exists for tests and benchmarks that compare them.
 */
export function setPolarKernel(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

function instantiate(): PolarKernel | null {
  const exports = instantiateWasm(XOSHIRO_POLAR_WASM);
  if (exports === null) return null;
  try {
    const buffer = (exports.memory as { buffer: ArrayBuffer }).buffer;
    return {
      polar: exports.polar as (pairs: number) => void,
      i32: new Int32Array(buffer, 0, 16),
      f64: new Float64Array(buffer),
      maxPairs: Math.floor((buffer.byteLength - 64) / 24),
    };
  } catch {
    return null;
  }
}
