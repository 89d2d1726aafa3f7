// The browser bundle's twin of kernelArena.ts (scripts/build-browser.mjs): no kernel memory there,
// so callers allocate plain arrays.
export function kernelArrays(_lengths: readonly number[]): Float64Array[] | null {
  return null;
}

export function kernelArenaFreeBytes(): number | null {
  return null;
}

export function withKernelArenaScope<T>(fn: () => T): T {
  return fn();
}
