/**
 * Exact, JSON-safe encoding of Float64Array state for policy snapshots: the IEEE-754 bytes in
 * little-endian order as base64. Unlike a JSON number list it keeps -0, NaN and every bit, so a
 * restored policy continues bit for bit. Node uses its Buffer; a browser (no Buffer) uses btoa/atob,
 * so the module has no Node built-in.
 */

interface NodeBuffer {
  from(a: ArrayBuffer | string, encoding?: string): Uint8Array & { toString(encoding: string): string };
}
const NodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;

function toBase64(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined) return NodeBuffer.from(bytes.buffer as ArrayBuffer).toString('base64');
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode(...bytes.subarray(i, Math.min(i + 0x8000, bytes.length)));
  return btoa(bin);
}

function fromBase64(text: string): Uint8Array {
  if (NodeBuffer !== undefined) return NodeBuffer.from(text, 'base64');
  let bin: string;
  try {
    bin = atob(text);
  } catch {
    return new Uint8Array(0); // invalid base64: no values (the length check then names the field)
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Encodes the first `length` values of `a` (default all).
 *
 * @example
 * encodeFloat64(Float64Array.of(1)); // returns 'AAAAAAAA8D8='
 */
export function encodeFloat64(a: Float64Array, length: number = a.length): string {
  const view = new DataView(new ArrayBuffer(length * 8));
  for (let i = 0; i < length; i++) view.setFloat64(i * 8, a[i]!, true);
  return toBase64(new Uint8Array(view.buffer));
}

/**
 * Decodes `text` into `out` (which must have exactly the encoded length); `what` names the field in
 * error messages.
 *
 * @example
 * decodeFloat64('AAAAAAAA8D8=', new Float64Array(1), 'b'); // out = [1]
 */
export function decodeFloat64(text: unknown, out: Float64Array, what: string): Float64Array {
  if (typeof text !== 'string') throw new TypeError(`restore: ${what} must be a base64 string.`);
  const bytes = fromBase64(text);
  if (bytes.length !== out.length * 8) {
    throw new RangeError(`restore: ${what} holds ${bytes.length / 8} values, expected ${out.length}.`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true);
  return out;
}

/** Decodes `text` into a fresh array of its own length (for tests and tools). */
export function decodeFloat64Array(text: string): Float64Array {
  const bytes = fromBase64(text);
  return decodeFloat64(text, new Float64Array(bytes.length / 8), 'value');
}
