/**
 * The service's snapshot key (docs/serving.md, "The snapshot key"): the secret of the MAC on every
 * policy snapshot the database stores. Where `adaprivate serve` and `adaprivate migrate` take it
 * from, in this order: `--snapshot-key-file PATH` (the first line that is not blank or a # comment),
 * the environment variable ADAPRIVATE_SNAPSHOT_KEY, else, for a SQLite file, `<db>.snapshot-key`
 * beside the database and its `<db>.api-key`, created once with 32 random bytes as 64 hex digits,
 * mode 0600 (written to a temporary file, fsynced, then linked into place, so that two servers
 * starting at once end up with the same key). A PostgreSQL database has no file beside it: every
 * replica must be given the same key (file or environment). An in-memory SQLite database uses a
 * per-process key (nothing it stores outlives the process).
 *
 * Never printed or logged; losing it makes the stored snapshots unloadable (the ledger rows stay).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { MIN_SNAPSHOT_KEY_LENGTH } from '../policies/snapshotKey.js';
import { UsageError } from './UsageError.js';

/** Environment variable holding the snapshot key. */
export const SNAPSHOT_KEY_ENV = 'ADAPRIVATE_SNAPSHOT_KEY';

/** Where a snapshot key came from (for the startup line: never the key itself). */
export interface SnapshotKeySource {
  /** The key, or undefined for the per-process key (in-memory database). */
  readonly key: string | undefined;
  /** E.g. 'keys/snap.key', '$ADAPRIVATE_SNAPSHOT_KEY', 'db.sqlite.snapshot-key (created)', 'per-process'. */
  readonly source: string;
}

/** The key held in `path`: its first line that is not blank or a # comment, at least 32 characters. */
export function readSnapshotKeyFile(path: string): string {
  const key = tryReadSnapshotKeyFile(path);
  if (key === null) throw new UsageError(`cannot read the snapshot key file ${path} (it does not exist).`);
  return key;
}

/** As {@link readSnapshotKeyFile}, or null when `path` does not exist. */
export function tryReadSnapshotKeyFile(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UsageError(`cannot read the snapshot key file ${path} (${(e as Error).message}).`);
  }
  const key = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  if (key === undefined) throw new UsageError(`the snapshot key file ${path} holds no key.`);
  if (key.length < MIN_SNAPSHOT_KEY_LENGTH) {
    throw new UsageError(
      `the snapshot key in ${path} must be at least ${MIN_SNAPSHOT_KEY_LENGTH} characters (e.g. 64 hex digits from \`openssl rand -hex 32\`); its value is not shown.`,
    );
  }
  return key;
}

/**
 * Writes `key` to the new file `path` (mode 0600) atomically: a temporary file is written and
 * fsynced, then hard-linked to `path`. Returns false, writing nothing, when `path` exists already
 * (another process was first).
 */
export function writeNewSnapshotKeyFile(path: string, key: string): boolean {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${key}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return false;
  } finally {
    unlinkSync(tmp);
  }
}

/** The key in `path`, creating the file with 64 random hex digits (mode 0600) when it does not exist. */
export function readOrCreateSnapshotKeyFile(path: string): { key: string; created: boolean } {
  const existing = tryReadSnapshotKeyFile(path);
  if (existing !== null) return { key: existing, created: false };
  const key = randomBytes(32).toString('hex');
  if (writeNewSnapshotKeyFile(path, key)) return { key, created: true };
  return { key: readSnapshotKeyFile(path), created: false }; // another process was first
}

/**
 * The snapshot key for database `db` (see the file comment): `file` (--snapshot-key-file), else
 * `env[ADAPRIVATE_SNAPSHOT_KEY]`, else `<db>.snapshot-key` (created if missing) for a SQLite file,
 * the per-process key for ':memory:'; a PostgreSQL database without a file or variable is refused.
 */
export function resolveSnapshotKey(
  db: string,
  postgres: boolean,
  file: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): SnapshotKeySource {
  if (file !== undefined) return { key: readSnapshotKeyFile(file), source: file };
  const fromEnv = env[SNAPSHOT_KEY_ENV]?.trim();
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.length < MIN_SNAPSHOT_KEY_LENGTH) {
      throw new UsageError(
        `$${SNAPSHOT_KEY_ENV} must be at least ${MIN_SNAPSHOT_KEY_LENGTH} characters; its value is not shown.`,
      );
    }
    return { key: fromEnv, source: `$${SNAPSHOT_KEY_ENV}` };
  }
  if (postgres) {
    throw new UsageError(
      `with a PostgreSQL --db, give the snapshot key with --snapshot-key-file or $${SNAPSHOT_KEY_ENV} (every replica needs the same key; e.g. 64 hex digits from \`openssl rand -hex 32\`, kept like the API keys).`,
    );
  }
  if (db === ':memory:') return { key: undefined, source: 'per-process (in-memory database)' };
  const path = `${db}.snapshot-key`;
  const r = readOrCreateSnapshotKeyFile(path);
  return { key: r.key, source: `${path}${r.created ? ' (created)' : ''}` };
}
