/**
 * The checksum of snapshot format 2 (adaprivate 0.1.0): two independent 32-bit FNV-1a lanes over
 * the UTF-16 code units of the JSON text of everything the snapshot carries except the checksum
 * itself, as 16 hex digits.
 *
 * It detects corruption, not forgery: anyone can recompute it. Snapshots of format 3 on carry a
 * keyed MAC instead (snapshotFormat.ts); this checksum is read only by `migrateSnapshot`, which
 * accepts an unsigned snapshot solely on the operator's explicit `trustUnsigned`.
 *
 * Cost: O(length of the JSON text).
 *
 * @example
 * snapshotChecksum({ a: 1 }); // returns a 16-digit hex string, the same for the same content
 */
export function snapshotChecksum(content: unknown): string {
  const text = JSON.stringify(content) ?? '';
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h2 >>> 15);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
