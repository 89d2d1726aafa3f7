/** Exact byte copies between Float64Array values and database blobs (little-endian host order). */

/** The bytes of `values` (a view, not a copy). */
export function float64ToBlob(values: Float64Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

/** A new, aligned Float64Array holding the bytes of `blob` (length must be a multiple of 8). */
export function blobToFloat64(blob: Uint8Array): Float64Array {
  if (blob.byteLength % 8 !== 0) {
    throw new RangeError(`float64 blob: byte length must be a multiple of 8. Got ${blob.byteLength}.`);
  }
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float64Array(copy.buffer);
}
