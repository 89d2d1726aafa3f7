/**
 * The envelope of a policy snapshot and its MAC (docs/privacy.md, "Snapshots and keys").
 *
 * A snapshot is JSON: `format` ('adaprivate.policySnapshot'), `version` (the snapshot FORMAT version,
 * {@link SNAPSHOT_FORMAT_VERSION}, independent of the package version), `library` (the package
 * version that wrote it: information only, it never decides whether a snapshot loads), `id`,
 * `config`, `lineage`, `instance`, `state`, and `mac`: HMAC-SHA256 under the caller's key of the
 * canonical JSON ({@link canonicalJson}) of everything else, so of the whole snapshot: the
 * configuration, the ledger, the lineage and the noise mode (`config.noiseSeed`, the seeded stream's
 * state, the ledger's seeded-release count) included. A snapshot whose MAC does not verify under the
 * key is refused before anything of it is read.
 *
 * Versions: format 3 is the first signed one; format 4 stores only the occupied rows of the
 * pending-round table. Older signed formats (3) are read through the steps of snapshotMigrations.ts
 * after their MAC is checked; the unsigned format 2 of adaprivate 0.1.0 is refused here and loads
 * only after the explicit operator step `migrateSnapshot(text, { key, trustUnsigned: true })`
 * (`adaprivate migrate snapshot`); a newer format is refused with a message naming both versions.
 */
import { VERSION } from '../version.js';
import { canonicalJson } from './canonicalJson.js';
import { hmacSha256Hex } from './hmacSha256.js';
import { migrateSnapshotContentTo } from './snapshotMigrations.js';

/** The `format` tag of a policy snapshot. */
export const SNAPSHOT_FORMAT = 'adaprivate.policySnapshot';
/** The snapshot format version this library writes (and the newest it reads). */
export const SNAPSHOT_FORMAT_VERSION = 4;
/** The first signed snapshot format version; older ones are unsigned (adaprivate 0.1.0 wrote 2). */
export const FIRST_SIGNED_SNAPSHOT_VERSION = 3;
/** The oldest snapshot format version `migrateSnapshot` reads (adaprivate 0.1.0's). */
export const OLDEST_SNAPSHOT_VERSION = 2;

/** The `mac` field of a snapshot. */
export interface SnapshotMac {
  /** Always 'HMAC-SHA256'. */
  readonly alg: string;
  /** A 16-hex-digit fingerprint of the key (HMAC of a fixed label; reveals nothing of the key). */
  readonly keyId: string;
  /** HMAC-SHA256 of the canonical JSON of every other field, 64 hex digits. */
  readonly value: string;
}

const MAC_LABEL = 'adaprivate.policySnapshot.mac\n';
const KEY_ID_LABEL = 'adaprivate.policySnapshot.keyId';

/** The fingerprint of a key in the `mac.keyId` field and in messages. */
export function snapshotKeyId(key: Uint8Array): string {
  return hmacSha256Hex(key, KEY_ID_LABEL).slice(0, 16);
}

/** The MAC of `content` (a snapshot without its `mac`) under `key`. */
function macOf(content: object, key: Uint8Array): string {
  return hmacSha256Hex(key, MAC_LABEL + canonicalJson(content));
}

/** `content` with its `mac` field under `key`. */
export function signSnapshot<T extends object>(
  content: T,
  key: Uint8Array,
): T & { readonly mac: SnapshotMac } {
  return { ...content, mac: { alg: 'HMAC-SHA256', keyId: snapshotKeyId(key), value: macOf(content, key) } };
}

/** Equality of two strings in time independent of where they differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks the format and version of `snapshot` (parsed JSON), refusing an unsigned or newer one, and
 * returns its format version. `who` prefixes messages.
 */
export function snapshotVersionOf(snapshot: unknown, who: string): number {
  if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot)) {
    throw new TypeError(`${who}: a snapshot must be an object or the JSON text of one.`);
  }
  const s = snapshot as Record<string, unknown>;
  if (s.format !== SNAPSHOT_FORMAT) {
    throw new RangeError(
      `${who}: snapshot field 'format' is ${JSON.stringify(s.format)}, expected ${JSON.stringify(SNAPSHOT_FORMAT)} (not a policy snapshot).`,
    );
  }
  const v = s.version;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) {
    throw new RangeError(
      `${who}: snapshot field 'version' (the snapshot format version) is ${JSON.stringify(v)}, not a positive integer.`,
    );
  }
  if (v > SNAPSHOT_FORMAT_VERSION) {
    throw new RangeError(
      `${who}: snapshot format version ${v} (written by adaprivate ${String(s.library)}) is newer than this library reads: adaprivate ${VERSION} reads snapshot format versions up to ${SNAPSHOT_FORMAT_VERSION}. Load it with a newer adaprivate.`,
    );
  }
  return v;
}

/**
 * The verified content of a signed snapshot (parsed JSON) at the current format version, without its
 * `mac`: checks format and version, refuses unsigned formats (with the migration step to take),
 * verifies the MAC under `key` and applies the migration steps of an older signed format. Throws a
 * RangeError naming the field otherwise. `who` prefixes messages (e.g. 'AdaPrivate-TS', 'loadPolicy').
 */
export function openSnapshot(snapshot: unknown, key: Uint8Array, who: string): Record<string, unknown> {
  const version = snapshotVersionOf(snapshot, who);
  const s = snapshot as Record<string, unknown>;
  if (version < FIRST_SIGNED_SNAPSHOT_VERSION) {
    throw new RangeError(
      `${who}: snapshot format version ${version} (written by adaprivate ${String(s.library)}) is unsigned: its checksum can be recomputed by anyone who edits it, so it is not loaded as it is. If you trust the file, migrate it once with your snapshot key: \`adaprivate migrate snapshot FILE --key-file KEYFILE\`, or migrateSnapshot(text, { key, trustUnsigned: true }); then load the result with the same key.`,
    );
  }
  const { mac, ...content } = s;
  const m = mac as Partial<SnapshotMac> | undefined;
  if (typeof m !== 'object' || m === null || typeof m.value !== 'string' || m.alg !== 'HMAC-SHA256') {
    throw new RangeError(
      `${who}: snapshot field 'mac' is missing or malformed (expected { alg: 'HMAC-SHA256', keyId, value }): the snapshot was edited or is not one this library wrote.`,
    );
  }
  const want = macOf(content, key);
  if (!sameText(m.value, want)) {
    const mine = snapshotKeyId(key);
    const why =
      m.keyId === mine
        ? 'the snapshot was edited or corrupted after it was saved'
        : `it was saved under another key (key id ${JSON.stringify(m.keyId)}, the key given has id ${JSON.stringify(mine)}), or edited`;
    throw new RangeError(
      `${who}: snapshot field 'mac' does not match the snapshot under this key: ${why}. A snapshot loads only with the key it was saved with; without a 'key' option both use this process's random key, so a snapshot saved by another process needs that process's key (pass the same 'key' to save and load).`,
    );
  }
  return migrateSnapshotContentTo(content, version, SNAPSHOT_FORMAT_VERSION, who);
}
