/**
 * The database file of a {@link SqliteStore} before SQLite opens it: created empty with mode 0600
 * when missing (SQLite gives its WAL and shared-memory files the mode of the database file, so they
 * are 0600 too), and resolved to its identity: the real path (symbolic links and `..` resolved) and
 * the number of hard links. An existing file keeps its mode (docs/serving.md, "Data at rest").
 */
import { closeSync, constants, openSync, realpathSync, statSync } from 'node:fs';

/** What {@link prepareDatabaseFile} found. */
export interface DatabaseFile {
  /** The path with every symbolic link and `..` resolved. */
  readonly realPath: string;
  /** Hard links to the file (1: only this name). */
  readonly links: number;
  /** True when this call created the file. */
  readonly created: boolean;
}

/**
 * Creates `path` (mode 0600, never truncating an existing file) and returns its identity.
 *
 * @example
 * prepareDatabaseFile('./adaprivate.db').realPath; // '/srv/adaprivate.db'
 */
export function prepareDatabaseFile(path: string): DatabaseFile {
  let created = false;
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_RDWR, 0o600));
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const realPath = realpathSync(path);
  return { realPath, links: statSync(realPath).nlink, created };
}
