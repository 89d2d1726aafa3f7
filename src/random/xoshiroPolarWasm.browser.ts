// The browser bundle's twin of xoshiroPolarWasm.ts (scripts/build-browser.mjs): no bytes, so the
// generator runs its JavaScript loop there (the same numbers).
export const XOSHIRO_POLAR_WASM: string | null = null;
