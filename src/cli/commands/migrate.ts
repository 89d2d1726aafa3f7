/**
 * `adaprivate migrate --db <postgres://... | file.db>`: brings a database of the decision service to
 * the current store format (schema) version, step by step; a database of a newer version is refused.
 * PostgreSQL: run once before starting or upgrading replicas (safe to run from several places at
 * once). SQLite: the server also migrates a file when it opens it; `migrate` does it without
 * serving (it takes the file's lock: not while a server runs on it).
 *
 * Stored policy snapshots (SQLite): their format belongs to the policies (src/policies); `migrate`
 * brings each stored row to the current snapshot format and signs it under the server's snapshot key
 * (the explicit operator step that accepts unsigned snapshots of adaprivate 0.1.0; a server never
 * accepts them by itself).
 */
import type { Command } from 'commander';
import type { SnapshotKey } from '../../policies/index.js';
import { migrateSnapshot } from '../../policies/index.js';
import { isPostgresUrl } from '../../store/isPostgresUrl.js';
import type { MigrationResult } from '../../store/PostgresStore.js';
import { SCHEMA_VERSION } from '../../store/schema.js';
import { printJson } from '../output.js';
import { resolveSnapshotKey } from '../snapshotKeyFile.js';
import { UsageError } from '../UsageError.js';

/**
 * The snapshot-format step of `migrate` for a SQLite file: every stored policy snapshot is brought to
 * the current snapshot format and signed under the server's snapshot key (the operator's explicit
 * step that lets unsigned snapshots of adaprivate 0.1.0 in: `migrateSnapshot(..., { trustUnsigned:
 * true })`, src/policies/migrateSnapshot.ts; snapshots already signed under the key are verified).
 */
function migrateStoredSnapshots(key: SnapshotKey | undefined): (snapshot: string, model: string) => string {
  return (snapshot, model) => {
    try {
      return migrateSnapshot(snapshot, { ...(key === undefined ? {} : { key }), trustUnsigned: true });
    } catch (e) {
      throw new UsageError(`model '${model}': ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}

async function migrateSqliteFile(
  path: string,
  keyFile: string | undefined,
): Promise<MigrationResult & { snapshots: number }> {
  const { existsSync } = await import('node:fs');
  if (!existsSync(path)) throw new UsageError(`--db ${path}: no such file.`);
  const { SqliteStore } = await import('../../store/SqliteStore.js');
  const { key } = resolveSnapshotKey(path, false, keyFile, process.env);
  let store: ReturnType<typeof SqliteStore.open>;
  try {
    store = SqliteStore.open(path, { lock: true });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  try {
    const snapshots = store.migrateSnapshots(migrateStoredSnapshots(key));
    return { from: store.formatFound, to: store.formatVersion, snapshots };
  } finally {
    await store.close();
  }
}

/** Registers `migrate` and returns it (`registerMigrateSnapshot` adds `migrate snapshot`). */
export function registerMigrate(program: Command): Command {
  return (
    program
      .command('migrate')
      .description(
        `Bring a database of the decision service (PostgreSQL or a SQLite file) to store format (schema) version ${SCHEMA_VERSION}, the version this adaprivate reads, step by step. A database of a newer version is refused. PostgreSQL: concurrent runs serialise on a lock. SQLite: not while a server runs on the file (the server also migrates a file's schema when it opens it); its stored policy snapshots are brought to the current snapshot format and signed under the server's snapshot key (<db>.snapshot-key, --snapshot-key-file or $ADAPRIVATE_SNAPSHOT_KEY), the one step that lets snapshots of adaprivate 0.1.0 in.`,
      )
      // not a required option: `migrate snapshot FILE` (a subcommand) has no --db
      .option(
        '--db <url|path>',
        'PostgreSQL connection string (postgres://user:password@host:port/database) or SQLite database file',
      )
      .option(
        '--snapshot-key-file <path>',
        'SQLite: the file holding the snapshot key (default <db>.snapshot-key)',
      )
      .option('--json', 'print {"from": n, "to": n} as JSON')
      .action(async (opts: { db?: string; snapshotKeyFile?: string; json?: boolean }) => {
        if (opts.db === undefined) {
          throw new UsageError(
            'migrate needs --db <url|path> (or: adaprivate migrate snapshot FILE --key-file KEYFILE).',
          );
        }
        let result: MigrationResult;
        if (!isPostgresUrl(opts.db)) {
          result = await migrateSqliteFile(opts.db, opts.snapshotKeyFile);
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
      })
  );
}
