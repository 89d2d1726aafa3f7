/**
 * A database location fit for messages and logs: a connection string without its password (a
 * SQLite path unchanged).
 *
 * @example
 * redactDbUrl('postgres://app:secret@db:5432/adaprivate'); // returns 'postgres://app:***@db:5432/adaprivate'
 */
export function redactDbUrl(db: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(db)) return db;
  try {
    const u = new URL(db);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'the database';
  }
}
