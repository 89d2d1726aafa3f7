// The browser bundle's twin of kernelsWasm.ts (scripts/build-browser.mjs): no bytes, so the
// factors there use the JavaScript kernels (the same numbers).
export const LINALG_KERNELS_WASM: string | null = null;
