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

import type { RankBatchRequest, RankBinaryHeader, RankRequest } from './contract.js';

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

/** A rank/batch body as the route takes it: JSON, or a decoded binary body (each event packed). */
export type RankBatchInput = RankBatchRequest | { readonly events: readonly PackedRankRequest[] };

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

/** The header object of one packed rank request (its arms by id only). */
function headerOf(req: PackedRank): object {
  return {
    ...(req.eventId === undefined ? {} : { eventId: req.eventId }),
    ...(req.unit === undefined ? {} : { unit: req.unit }),
    ...(req.withProbabilities === undefined ? {} : { withProbabilities: req.withProbabilities }),
    arms: req.armIds.map((id) => ({ id })),
  };
}

/** d of one packed rank request (features = armIds.length x d, d >= 1), checked for `what`. */
function dimOf(req: PackedRank, what: string): number {
  const k = req.armIds.length;
  if (k === 0 || req.features.length === 0 || req.features.length % k !== 0) {
    throw new RangeError(
      `${what}: features must hold armIds.length (${k}) x dim values, dim >= 1. Got ${req.features.length}.`,
    );
  }
  return req.features.length / k;
}

/** The frame: magic, header length, the header's JSON, zero padding to 8, then every block in order. */
function encodeFrame(header: object, blocks: readonly Float64Array[]): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(header));
  const start = pad8(8 + text.length);
  let values = 0;
  for (const b of blocks) values += b.length;
  const out = new Uint8Array(start + 8 * values);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, text.length, true);
  out.set(text, 8);
  let at = start;
  for (const f of blocks) {
    if (LITTLE_ENDIAN) out.set(new Uint8Array(f.buffer, f.byteOffset, f.byteLength), at);
    else for (let i = 0; i < f.length; i++) view.setFloat64(at + 8 * i, f[i]!, true);
    at += 8 * f.length;
  }
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
  dimOf(req, 'encodeBinaryRank');
  return encodeFrame(headerOf(req), [req.features]);
}

/**
 * Encodes a batch of rank requests as one binary body for rank/batch: the header is
 * `{"events": [<each request's header>]}` and the Float64 block holds every event's K_e x d features
 * in event order (one d for all events).
 *
 * @example
 * const body = encodeBinaryRankBatch([{ armIds: ['a'], features: new Float64Array([0.1, 0.2]) }]);
 * // POST it to /v1/models/<name>/rank/batch with Content-Type: application/x-adaprivate-rank
 */
export function encodeBinaryRankBatch(events: readonly PackedRank[]): Uint8Array {
  if (events.length === 0) throw new RangeError('encodeBinaryRankBatch: at least one event is required.');
  const d = dimOf(events[0]!, 'encodeBinaryRankBatch: event 0');
  events.forEach((e, i) => {
    if (dimOf(e, `encodeBinaryRankBatch: event ${i}`) !== d) {
      throw new RangeError(
        `encodeBinaryRankBatch: every event must have the same dim; event 0 has ${d}, event ${i} ${e.features.length / e.armIds.length}.`,
      );
    }
  });
  return encodeFrame(
    { events: events.map(headerOf) },
    events.map((e) => e.features),
  );
}

/** A decoded frame: its header (a JSON object) and its Float64 block (finite values not yet checked). */
function decodeFrame(
  body: Uint8Array,
  parseJson: (text: string) => unknown,
): { header: object; all: Float64Array } {
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
  if ((body.length - start) % 8 !== 0) {
    throw new BinaryRankError(
      `the features block must be whole Float64 values. Got ${body.length - start} bytes.`,
    );
  }
  return { header, all: float64sLE(body, start, (body.length - start) / 8) };
}

/**
 * The arms of one rank request's header (`where` names it in messages): an array of at least one,
 * none with "features" (an arm that is not an object is left for the schema to refuse, as in JSON).
 */
function armsOf(req: unknown, where: string): readonly unknown[] {
  const arms = typeof req === 'object' && req !== null ? (req as { arms?: unknown }).arms : undefined;
  if (!Array.isArray(arms) || arms.length === 0) {
    throw new BinaryRankError(`${where} must hold "arms", an array of at least one { "id": ... }.`);
  }
  arms.forEach((arm: unknown, a) => {
    if (typeof arm === 'object' && arm !== null && Object.hasOwn(arm, 'features')) {
      throw new BinaryRankError(
        `${where === 'the header' ? '' : `${where}.`}arms[${a}] has "features" in the header; they belong in the Float64 block.`,
      );
    }
  });
  return arms;
}

/** d from the block's length and the header's K in all, or why not. */
function dimFor(values: number, k: number): number {
  if (values === 0 || values % k !== 0) {
    throw new BinaryRankError(
      `the features block must hold K x d Float64 values for the header's K = ${k} arms. Got ${8 * values} bytes.`,
    );
  }
  return values / k;
}

/** Throws for the first value of `block` that is not finite, named as arms[a].features[i] of `prefix`. */
function finite(block: Float64Array, d: number, prefix: string): void {
  for (let i = 0; i < block.length; i++) {
    if (!Number.isFinite(block[i]!)) {
      throw new BinaryRankError(
        `${prefix}arms[${Math.floor(i / d)}].features[${i % d}] is ${block[i]}; features must be finite numbers.`,
      );
    }
  }
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
  const { header, all } = decodeFrame(body, parseJson);
  const d = dimFor(all.length, armsOf(header, 'the header').length);
  finite(all, d, '');
  return { ...header, [PACKED_FEATURES]: all };
}

/**
 * Decodes a binary rank/batch body (see {@link encodeBinaryRankBatch}): `{ events: [...] }` with each
 * event's K_e x d features under {@link PACKED_FEATURES} (views of one copy of the block), for the
 * route to check against `rankBatchBinaryHeader`. The same refusals as {@link decodeBinaryRank}, per
 * event, and a header without an `events` array of at least one element.
 */
export function decodeBinaryRankBatch(body: Uint8Array, parseJson: (text: string) => unknown): unknown {
  const { header, all } = decodeFrame(body, parseJson);
  const events = (header as { events?: unknown }).events;
  if (!Array.isArray(events) || events.length === 0) {
    throw new BinaryRankError('the header must hold "events", an array of at least one rank request.');
  }
  const ks = events.map((e: unknown, i) => armsOf(e, `events[${i}]`).length);
  const d = dimFor(
    all.length,
    ks.reduce((a, b) => a + b, 0),
  );
  let at = 0;
  const packed = events.map((e: object, i) => {
    const block = all.subarray(at, at + ks[i]! * d);
    at += block.length;
    finite(block, d, `events[${i}].`);
    return { ...e, [PACKED_FEATURES]: block };
  });
  return { ...header, events: packed };
}
