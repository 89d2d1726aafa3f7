/**
 * The binary rank body (`Content-Type: application/x-adaprivate-rank`): the rank request with its
 * K x d candidate features as raw little-endian Float64 values instead of JSON text, for large
 * candidate sets (at d = 50, K = 20 the JSON body is ~20 KB of number text, and parsing it was ~14% of
 * a server's busy time). Same route, same rules: the route's schema checks the header (the rank
 * request's fields with `arms: [{ id }]`, `rankBinaryHeader`), the features go to the model packed,
 * as sent, and the model's dimension is checked as for JSON (docs/serving.md, "Binary rank body").
 *
 * Layout, in order:
 * - 4 bytes: the ASCII magic `APR1`;
 * - 4 bytes: H, the byte length of the header, unsigned 32-bit little-endian;
 * - H bytes: the header, UTF-8 JSON: the rank request without features (`arms: [{ "id": ... }]`,
 *   plus `eventId`, `unit`, `withProbabilities` as in JSON);
 * - zero bytes up to the next multiple of 8 from the start of the body;
 * - K x d Float64 values, little-endian, arm by arm (d = the rest's length / 8 / K).
 *
 * Pure (DataView and TextEncoder/TextDecoder only): the clients and the browser use it as they are.
 */

import type { RankBinaryHeader, RankRequest } from './contract.js';

/** The media type of a binary rank body. */
export const BINARY_RANK_TYPE = 'application/x-adaprivate-rank';

/**
 * Where a decoded binary rank body keeps its K x d features, arm by arm: a symbol key, which the
 * schema check (`additionalProperties: false` looks at string keys) and JSON text do not see.
 */
export const PACKED_FEATURES: unique symbol = Symbol('adaprivate.packedFeatures');

/** A binary rank body once decoded and its header checked: the header and the features, packed. */
export type PackedRankRequest = RankBinaryHeader & { readonly [PACKED_FEATURES]: Float64Array };

/** A rank request as the service's runtimes take it: JSON, or a decoded binary body. */
export type RankInput = RankRequest | PackedRankRequest;

const MAGIC = 0x31525041; // 'APR1' read as a little-endian uint32

/** A rank request with its features packed: `features` holds arms.length x dim values, arm by arm. */
export interface PackedRank {
  readonly eventId?: string;
  readonly unit?: string;
  readonly withProbabilities?: boolean;
  readonly armIds: readonly string[];
  readonly features: Float64Array;
}

/** The body is not a binary rank body (the message says why, for a 400 answer). */
export class BinaryRankError extends Error {
  override readonly name = 'BinaryRankError';
}

const pad8 = (n: number): number => (n + 7) & ~7;

/** True on a little-endian machine (every platform Node and the browsers run on today). */
const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;

/**
 * `n` little-endian Float64 values of `body` from byte `start`: one copy into an aligned array on a
 * little-endian machine (a Buffer's bytes may sit at any offset of its pool), a DataView otherwise.
 */
function float64sLE(body: Uint8Array, start: number, n: number): Float64Array {
  const out = new Float64Array(n);
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer).set(body.subarray(start, start + 8 * n));
    return out;
  }
  const view = new DataView(body.buffer, body.byteOffset + start, 8 * n);
  for (let i = 0; i < n; i++) out[i] = view.getFloat64(8 * i, true);
  return out;
}

/**
 * Encodes a rank request as a binary rank body.
 *
 * @example
 * const body = encodeBinaryRank({ eventId: 'e-1', armIds: ['a', 'b'], features: new Float64Array([0.1, 0.2, 0.3, 0]) });
 * // POST it with Content-Type: application/x-adaprivate-rank
 */
export function encodeBinaryRank(req: PackedRank): Uint8Array {
  const k = req.armIds.length;
  if (k === 0 || req.features.length === 0 || req.features.length % k !== 0) {
    throw new RangeError(
      `encodeBinaryRank: features must hold armIds.length (${k}) x dim values, dim >= 1. Got ${req.features.length}.`,
    );
  }
  const header = new TextEncoder().encode(
    JSON.stringify({
      ...(req.eventId === undefined ? {} : { eventId: req.eventId }),
      ...(req.unit === undefined ? {} : { unit: req.unit }),
      ...(req.withProbabilities === undefined ? {} : { withProbabilities: req.withProbabilities }),
      arms: req.armIds.map((id) => ({ id })),
    }),
  );
  const start = pad8(8 + header.length);
  const out = new Uint8Array(start + 8 * req.features.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, header.length, true);
  out.set(header, 8);
  const f = req.features;
  if (LITTLE_ENDIAN) out.set(new Uint8Array(f.buffer, f.byteOffset, f.byteLength), start);
  else for (let i = 0; i < f.length; i++) view.setFloat64(start + 8 * i, f[i]!, true);
  return out;
}

/**
 * Decodes a binary rank body: its JSON header (parsed by `parseJson`; the server passes its JSON
 * parser, with its prototype-poisoning rules) with the K x d features, finite and packed in one
 * Float64Array under {@link PACKED_FEATURES}, for the route to check the header against
 * `rankBinaryHeader` (no number arrays are built or checked: the block is copied once). Throws
 * {@link BinaryRankError} for a body that is not one: bad magic, a header that does not fit or is not
 * a JSON object with an `arms` array of at least one element, an arm with "features" in the header,
 * a features block whose length is not a multiple of 8 x K, non-zero padding, or a feature that is
 * not finite.
 */
export function decodeBinaryRank(body: Uint8Array, parseJson: (text: string) => unknown): unknown {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  if (body.length < 8 || view.getUint32(0, true) !== MAGIC) {
    throw new BinaryRankError('a binary rank body starts with the 4 bytes APR1 and the header length.');
  }
  const h = view.getUint32(4, true);
  const start = pad8(8 + h);
  if (start > body.length) {
    throw new BinaryRankError(`the header length (${h} bytes) runs past the end of the body.`);
  }
  for (let i = 8 + h; i < start; i++) {
    if (body[i] !== 0) throw new BinaryRankError('the padding after the header must be zero bytes.');
  }
  const header = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(8, 8 + h)));
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw new BinaryRankError('the header must be a JSON object.');
  }
  const arms = (header as { arms?: unknown }).arms;
  if (!Array.isArray(arms) || arms.length === 0) {
    throw new BinaryRankError('the header must hold "arms", an array of at least one { "id": ... }.');
  }
  const k = arms.length;
  for (let a = 0; a < k; a++) {
    const arm: unknown = arms[a];
    // an arm that is not an object is left for the schema to refuse, as in a JSON body
    if (typeof arm === 'object' && arm !== null && Object.hasOwn(arm, 'features')) {
      throw new BinaryRankError(`arms[${a}] has "features" in the header; they belong in the Float64 block.`);
    }
  }
  const values = (body.length - start) / 8;
  if (!Number.isInteger(values) || values === 0 || values % k !== 0) {
    throw new BinaryRankError(
      `the features block must hold K x d Float64 values for the header's K = ${k} arms. Got ${body.length - start} bytes.`,
    );
  }
  const d = values / k;
  const all = float64sLE(body, start, values);
  for (let i = 0; i < values; i++) {
    if (!Number.isFinite(all[i]!)) {
      throw new BinaryRankError(
        `arms[${Math.floor(i / d)}].features[${i % d}] is ${all[i]}; features must be finite numbers.`,
      );
    }
  }
  return { ...header, [PACKED_FEATURES]: all };
}
