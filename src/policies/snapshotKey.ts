/**
 * The secret key of the snapshot MAC (docs/privacy.md, "Snapshots and keys").
 *
 * A key is a `Uint8Array` of at least 32 bytes, or a string of at least 32 characters (its UTF-8
 * bytes; e.g. the 64 hex digits of {@link createSnapshotKey} or of `openssl rand -hex 32`). Whoever
 * holds it can write snapshots that `loadPolicy` and `restore` accept, so it is a secret like the
 * raw data a snapshot holds: keep it out of the snapshot's storage.
 *
 * Without a key, `snapshot()`/`save()`/`restore()`/`loadPolicy()` use a random key made once per
 * process (32 bytes from the secure source, never written anywhere): a snapshot saved under it can
 * be restored only by the same process. Pass a key to keep snapshots across processes.
 */

/** A snapshot MAC key: at least 32 bytes, or a string of at least 32 characters. */
export type SnapshotKey = Uint8Array | string;

/** The shortest key accepted (bytes of a Uint8Array, characters of a string). */
export const MIN_SNAPSHOT_KEY_LENGTH = 32;

let processKey: Uint8Array | null = null;
const encoder = new TextEncoder();

/** This process's random key (made at first use). */
function perProcessKey(): Uint8Array {
  if (processKey === null) {
    processKey = new Uint8Array(32);
    globalThis.crypto.getRandomValues(processKey);
  }
  return processKey;
}

/**
 * The bytes of `key` (validated), or of the per-process key when `key` is undefined; `where` names
 * the caller and option in the message, e.g. "loadPolicy: option 'key'".
 */
export function snapshotKeyBytes(key: unknown, where: string): Uint8Array {
  if (key === undefined) return perProcessKey();
  if (typeof key === 'string') {
    if (key.length < MIN_SNAPSHOT_KEY_LENGTH) {
      throw new RangeError(
        `${where} must be a string of at least ${MIN_SNAPSHOT_KEY_LENGTH} characters or a Uint8Array of at least ${MIN_SNAPSHOT_KEY_LENGTH} bytes. Got a string of ${key.length} characters.`,
      );
    }
    return encoder.encode(key);
  }
  if (key instanceof Uint8Array) {
    if (key.length < MIN_SNAPSHOT_KEY_LENGTH) {
      throw new RangeError(
        `${where} must be a Uint8Array of at least ${MIN_SNAPSHOT_KEY_LENGTH} bytes or a string of at least ${MIN_SNAPSHOT_KEY_LENGTH} characters. Got ${key.length} bytes.`,
      );
    }
    return key;
  }
  throw new TypeError(
    `${where} must be a Uint8Array of at least ${MIN_SNAPSHOT_KEY_LENGTH} bytes or a string of at least ${MIN_SNAPSHOT_KEY_LENGTH} characters (omit it for this process's random key). Got ${key === null ? 'null' : typeof key}.`,
  );
}

/**
 * A new random snapshot key: 64 hex digits (32 bytes from the secure source). Store it like a
 * password (a file of mode 0600, a secret manager), apart from the snapshots.
 *
 * @example
 * const key = createSnapshotKey(); // e.g. '3f1c...' (64 hex digits)
 * loadPolicy(policy.save({ key }), { key });
 */
export function createSnapshotKey(): string {
  const b = new Uint8Array(32);
  globalThis.crypto.getRandomValues(b);
  let out = '';
  for (let i = 0; i < b.length; i++) out += b[i]!.toString(16).padStart(2, '0');
  return out;
}
