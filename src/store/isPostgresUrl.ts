/**
 * True when a `--db` value names a PostgreSQL database (`postgres://` or `postgresql://`) rather
 * than a SQLite file.
 *
 * @example
 * isPostgresUrl('postgres://adaprivate@db:5432/adaprivate'); // returns true
 * isPostgresUrl('./adaprivate.db'); // returns false
 */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}
