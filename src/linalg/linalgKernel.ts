/**
 * The WebAssembly SIMD kernels of src/linalg (source: kernels.wat): rank-one Cholesky update,
 * forward solve and the transposed back substitutions, bit-identical to cholUpdate.ts,
 * forwardSolve.ts, backSolveTransposed.ts and backSolveTransposedPair.ts (the same operations on
 * every entry in the same order; tested against them on random inputs in
 * test/linalg/linalgKernel.test.ts). They work on byte offsets into the kernel's own memory, so
 * only arrays handed out by {@link kernelArrays} (kernelArena.ts) can take them; RidgeFactor
 * keeps its factor there and dispatches, and every other caller uses the JavaScript kernels.
 *
 * One instance per JavaScript realm, made on first use (a synchronous compile of ~2 KB). Where
 * WebAssembly or its SIMD is unavailable (old engines, a content-security policy, the browser
 * bundle, whose twin of kernelsWasm.ts has no bytes), `linalgKernel()` returns null and
 * everything runs in JavaScript: the same numbers, only slower.
 */
import { instantiateWasm } from '../random/instantiateWasm.js';
import { LINALG_KERNELS_WASM } from './kernelsWasm.js';

/** The kernels; every address is a byte offset into `buffer`, n the dimension. */
export interface LinalgKernel {
  readonly buffer: ArrayBuffer;
  /** cholUpdate(l, n, x, work); x may be work (then it is not copied first). */
  readonly cholUpdate: (l: number, n: number, x: number, work: number) => void;
  /** forwardSolve(l, n, b, out); out may be b. */
  readonly forwardSolve: (l: number, n: number, b: number, out: number) => void;
  /** backSolveTransposed(l, n, y, out); out may be y. */
  readonly backSolveTransposed: (l: number, n: number, y: number, out: number) => void;
  /** backSolveTransposedPair(l, n, y1, out1, y2, out2). */
  readonly backSolveTransposedPair: (
    l: number,
    n: number,
    y1: number,
    out1: number,
    y2: number,
    out2: number,
  ) => void;
  /**
   * tsChoose(l, n, b, theta, z, pert, tilde, f, k, v, dirty): AdaPrivate-TS's choice from its drawn
   * normals z (kernels.wat): the solves (forward and both back substitutions when dirty, else
   * pert only), tilde = theta + v pert and the first argmax of the k rows of f (k x n) against tilde.
   */
  readonly tsChoose: (
    l: number,
    n: number,
    b: number,
    theta: number,
    z: number,
    pert: number,
    tilde: number,
    f: number,
    k: number,
    v: number,
    dirty: number,
  ) => number;
}

let kernel: LinalgKernel | null | undefined;
let enabled = true;

/** The kernels, or null when unavailable or switched off by {@link setLinalgKernel}. */
export function linalgKernel(): LinalgKernel | null {
  if (!enabled) return null;
  if (kernel === undefined) kernel = instantiate();
  return kernel;
}

/**
 * Switches the kernels on or off for factors made from now on in this realm (default on); returns
 * the previous setting. Both paths give the same numbers: this exists for tests and benchmarks.
 */
export function setLinalgKernel(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

function instantiate(): LinalgKernel | null {
  const ex = instantiateWasm(LINALG_KERNELS_WASM);
  if (ex === null) return null;
  return {
    buffer: (ex.memory as { buffer: ArrayBuffer }).buffer,
    cholUpdate: ex.cholUpdate as LinalgKernel['cholUpdate'],
    forwardSolve: ex.forwardSolve as LinalgKernel['forwardSolve'],
    backSolveTransposed: ex.backSolveTransposed as LinalgKernel['backSolveTransposed'],
    backSolveTransposedPair: ex.backSolveTransposedPair as LinalgKernel['backSolveTransposedPair'],
    tsChoose: ex.tsChoose as LinalgKernel['tsChoose'],
  };
}
