// The browser bundle's twin of linalgKernel.ts (scripts/build-browser.mjs): no WebAssembly kernels
// there, so every factor uses the JavaScript kernels (the same numbers) and the bundle carries
// neither the bytes nor the loader.
import type { LinalgKernel } from './linalgKernel.js';

export type { LinalgKernel };

export function linalgKernel(): LinalgKernel | null {
  return null;
}

export function setLinalgKernel(_on: boolean): boolean {
  return false;
}
