/**
 * Float64Arrays in the memory of the WebAssembly kernels (linalgKernel.ts), which can only reach
 * their own memory. The memory is 16 MiB, reserved once and never grown (growing would detach
 * every view handed out); blocks are handed out first-fit, 16-byte aligned, and a block returns to
 * the free list once every array of it has been garbage-collected (a FinalizationRegistry). When
 * the kernels are unavailable or the memory is full, {@link kernelArrays} returns null and the
 * caller uses plain arrays and the JavaScript kernels: the same numbers, only slower.
 *
 * Rule for callers: never keep a `subarray` of a returned array beyond the array itself (a
 * subarray does not keep its block alive).
 *
 * The collector alone reclaims too late for code that makes many short-lived factors: the memory is
 * outside the JavaScript heap, so nothing prompts a major collection, and a worker thread that runs
 * thousands of experiment cells filled the 16 MiB after ~3,600 cells and ran the rest on the slower
 * JavaScript kernels. {@link withKernelArenaScope} returns a block as soon as the code that made it
 * is done.
 */
import { linalgKernel } from './linalgKernel.js';

interface Block {
  readonly offset: number;
  readonly size: number;
  /** Arrays of the block not yet collected; 0 once the block is back on the free list. */
  live: number;
}

/** The blocks handed out inside the innermost {@link withKernelArenaScope}, or null outside one. */
let scope: Block[] | null = null;

/** Free ranges [offset, offset + size), sorted by offset, adjacent ones merged. */
let free: { offset: number; size: number }[] | null = null;
const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<Block>((block) => {
        if (block.live <= 0) return;
        block.live--;
        if (block.live === 0) release(block.offset, block.size);
      })
    : null;

/**
 * One block of arrays with the given lengths in the kernels' memory, or null (no kernels, no
 * FinalizationRegistry, or no room): the caller then allocates plain Float64Arrays.
 */
export function kernelArrays(lengths: readonly number[]): Float64Array[] | null {
  const k = linalgKernel();
  if (k === null || registry === null) return null;
  if (free === null) free = [{ offset: 0, size: k.buffer.byteLength }];
  let size = 0;
  for (const n of lengths) size += align(8 * n);
  if (size === 0) return null;
  const at = free.findIndex((r) => r.size >= size);
  if (at < 0) return null;
  const range = free[at]!;
  const offset = range.offset;
  if (range.size === size) free.splice(at, 1);
  else {
    range.offset += size;
    range.size -= size;
  }
  const block: Block = { offset, size, live: lengths.length };
  const out: Float64Array[] = [];
  let p = offset;
  for (const n of lengths) {
    const a = new Float64Array(k.buffer, p, n);
    a.fill(0);
    registry.register(a, block, block);
    out.push(a);
    p += align(8 * n);
  }
  scope?.push(block);
  return out;
}

/**
 * Runs `fn` and then returns to the free list every block handed out during it, without waiting
 * for the collector. Only for code after which nothing made inside `fn` is used again: an array
 * of a returned block kept beyond `fn` would share its memory with the next factor made (wrong
 * numbers, no error). The experiment runner wraps each cell in one (runCell: the policy, its
 * factors and scratch live only for the cell). Nested scopes return their own blocks.
 *
 * @example
 * withKernelArenaScope(() => kernelArrays([400])?.length ?? 0); // returns 1 (0 without the kernels); the block is free again after the call
 */
export function withKernelArenaScope<T>(fn: () => T): T {
  const outer = scope;
  const mine: Block[] = [];
  scope = mine;
  try {
    return fn();
  } finally {
    scope = outer;
    for (const block of mine) {
      if (block.live <= 0) continue;
      block.live = 0;
      registry?.unregister(block);
      release(block.offset, block.size);
    }
  }
}

/** Bytes of the kernels' memory not handed out (for tests and diagnostics). */
export function kernelArenaFreeBytes(): number | null {
  if (free === null) return linalgKernel() === null ? null : (linalgKernel()?.buffer.byteLength ?? null);
  return free.reduce((s, r) => s + r.size, 0);
}

function align(bytes: number): number {
  return (bytes + 15) & ~15;
}

function release(offset: number, size: number): void {
  const list = free!;
  let i = 0;
  while (i < list.length && list[i]!.offset < offset) i++;
  list.splice(i, 0, { offset, size });
  // merge with the next, then with the previous range
  const cur = list[i]!;
  const next = list[i + 1];
  if (next !== undefined && cur.offset + cur.size === next.offset) {
    cur.size += next.size;
    list.splice(i + 1, 1);
  }
  const prev = list[i - 1];
  if (prev !== undefined && prev.offset + prev.size === cur.offset) {
    prev.size += cur.size;
    list.splice(i, 1);
  }
}
