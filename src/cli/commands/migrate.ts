/**
 * `adaprivate migrate --db <postgres://... | file.db>`: brings a database of the decision service to
 * the current store format (schema) version, step by step; a database of a newer version is refused.
 * PostgreSQL: run once before starting or upgrading replicas (safe to run from several places at
 * once). SQLite: the server also migrates a file when it opens it; `migrate` does it without
 * serving (it takes the file's lock: not while a server runs on it).
 *
 * Stored policy snapshots: their format belongs to the policies (src/policies); the hook
 * {@link migrateStoredSnapshot} below is where each stored snapshot row is brought to the current
 * snapshot format. It changes nothing until the snapshot migration lands on main.
 */
import type { Command } from 'commander';
import { isPostgresUrl } from '../../store/isPostgresUrl.js';
import type { MigrationResult } from '../../store/PostgresStore.js';
import { SCHEMA_VERSION } from '../../store/schema.js';
import { printJson } from '../output.js';
import { UsageError } from '../UsageError.js';

/**
 * The snapshot-format step of `migrate`: the current snapshot text of one stored row, or null when
 * this version has no snapshot migration (then the rows are left as they are).
 *
 * HOOK (helper snap, branch snapshot-format): once `migrateSnapshot(text, { key, trustUnsigned: true })`
 * (src/policies/migrateSnapshot.ts) is on main, return it here with the serve snapshot key.
 */
const migrateStoredSnapshot: ((snapshot: string, model: string) => string) | null = null;

async function migrateSqliteFile(path: string): Promise<MigrationResult & { snapshots: number | null }> {
  const { existsSync } = await import('node:fs');
  if (!existsSync(path)) throw new UsageError(`--db ${path}: no such file.`);
  const { SqliteStore } = await import('../../store/SqliteStore.js');
  let store: ReturnType<typeof SqliteStore.open>;
  try {
    store = SqliteStore.open(path, { lock: true });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  try {
    const snapshots = migrateStoredSnapshot === null ? null : store.migrateSnapshots(migrateStoredSnapshot);
    return { from: store.formatFound, to: store.formatVersion, snapshots };
  } finally {
    await store.close();
  }
}

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description(
      `Bring a database of the decision service (PostgreSQL or a SQLite file) to store format (schema) version ${SCHEMA_VERSION}, the version this adaprivate reads, step by step. A database of a newer version is refused. PostgreSQL: concurrent runs serialise on a lock. SQLite: not while a server runs on the file (the server also migrates a file when it opens it).`,
    )
    .requiredOption(
      '--db <url|path>',
      'PostgreSQL connection string (postgres://user:password@host:port/database) or SQLite database file',
    )
    .option('--json', 'print {"from": n, "to": n} as JSON')
    .action(async (opts: { db: string; json?: boolean }) => {
      let result: MigrationResult;
      if (!isPostgresUrl(opts.db)) {
        result = await migrateSqliteFile(opts.db);
      } else {
        // loaded here so that other commands do not load the PostgreSQL driver
        const { migratePostgres } = await import('../../store/PostgresStore.js');
        try {
          result = await migratePostgres(opts.db);
        } catch (e) {
          if (e instanceof RangeError) throw new UsageError(e.message);
          throw e;
        }
      }
      if (opts.json) printJson(result);
      else if (result.from === result.to)
        process.stdout.write(`schema is at version ${result.to}; nothing to do\n`);
      else process.stdout.write(`schema migrated from version ${result.from} to ${result.to}\n`);
    });
}
