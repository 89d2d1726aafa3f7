/**
 * One server per SQLite database file: an exclusive SQLite lock on `<real path>.lock`, where the real
 * path has every symbolic link and `..` resolved, so every path to the file names the same lock; a
 * file with more than one hard link (whose other names would escape the lock) is refused. Taken
 * before the database is opened: a refused server writes nothing. Held until closed, released by
 * the kernel when the process dies (a crashed server's lock never blocks a restart).
 */
import { closeSync, constants, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { DatabaseFile } from './prepareDatabaseFile.js';

/** Reads the holder's description (`meta.owner`) without writing, for the error message. */
function ownerOf(realPath: string): string {
  try {
    const db = new Database(realPath, { readonly: true, fileMustExist: true, timeout: 0 });
    try {
      const r = db.prepare("SELECT value FROM meta WHERE key = 'owner'").get() as
        | { value: string }
        | undefined;
      return r?.value ?? 'owner unknown';
    } finally {
      db.close();
    }
  } catch {
    return 'owner unknown';
  }
}

/**
 * Takes the lock of the database `file` (opened by the caller at `path`); throws naming the holder
 * when another server holds it, or when the file has several hard links.
 *
 * @example
 * const lock = takeDatabaseLock('./a.db', prepareDatabaseFile('./a.db')); // ... lock.close()
 */
export function takeDatabaseLock(path: string, file: DatabaseFile): Database.Database {
  if (file.links > 1) {
    throw new Error(
      `SqliteStore: ${path} has ${file.links} hard links; a served database file must have one name (its lock is named from the file's real path: another name would escape it). Copy it or remove the other links.`,
    );
  }
  const lockPath = `${file.realPath}.lock`;
  try {
    closeSync(openSync(lockPath, constants.O_CREAT | constants.O_EXCL | constants.O_RDWR, 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const lock = new Database(lockPath, { timeout: 0 }); // fail at once when held
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS lock (x INTEGER) STRICT; COMMIT');
  } catch (err) {
    lock.close();
    const code = (err as { code?: string }).code;
    if (code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') throw err;
    const shown = file.realPath === path ? path : `${path} (${file.realPath})`;
    throw new Error(
      `SqliteStore: ${shown} is in use by another server (${ownerOf(file.realPath)}); one server per database file. Stop it first (a crashed server's lock is released by the system).`,
    );
  }
  return lock;
}
