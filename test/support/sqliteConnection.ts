// The private better-sqlite3 connection of a SqliteStore, for tests that read its pragmas or its
// tables directly (one cast, here).
import type Database from 'better-sqlite3';

/** The store's own connection (private), to read its pragmas and tables. */
export function connection(store: unknown): Database.Database {
  return (store as { db: Database.Database }).db;
}
