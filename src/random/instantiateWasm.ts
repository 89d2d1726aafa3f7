/**
 * Compiles and instantiates a WebAssembly module given as base64 text, synchronously, without
 * imports; returns its exports, or null where WebAssembly is missing or refuses (no global
 * `WebAssembly`, a content-security policy, a browser's limit on synchronous compiles) or when
 * `source` is null (the browser bundle's twins of the generated modules). Callers then run their
 * JavaScript path, which gives the same numbers. Used by src/random and src/linalg.
 */
interface WasmGlobal {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

export function instantiateWasm(source: string | null): Record<string, unknown> | null {
  const wasm = (globalThis as { WebAssembly?: WasmGlobal }).WebAssembly;
  if (source === null || wasm === undefined) return null;
  try {
    const text = atob(source);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return new wasm.Instance(new wasm.Module(bytes), {}).exports;
  } catch {
    return null;
  }
}
