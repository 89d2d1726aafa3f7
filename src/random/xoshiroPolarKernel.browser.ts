// The browser bundle's twin of xoshiroPolarKernel.ts (scripts/build-browser.mjs): no WebAssembly
// kernel there, so Xoshiro256.fillNormal runs its JavaScript loop (the same numbers).
import type { PolarKernel } from './xoshiroPolarKernel.js';

export type { PolarKernel };

export function polarKernel(): PolarKernel | null {
  return null;
}

export function setPolarKernel(_on: boolean): boolean {
  return false;
}
