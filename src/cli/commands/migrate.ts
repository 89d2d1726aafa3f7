/**
 * `adaprivate migrate --db <postgres://... | file.db>`: brings a database of the decision service to
 * the current store format (schema) version, step by step; a database of a newer version is refused.
 * PostgreSQL: run once before starting or upgrading replicas (safe to run from several places at
 * once). SQLite: the server also migrates a file when it opens it; `migrate` does it without
 * serving (it takes the file's lock: not while a server runs on it).
 *
 * Stored policy snapshots (SQLite; PostgreSQL when the replicas' key is given): their format belongs to the policies (src/policies); `migrate`
 * brings each stored row to the current snapshot format and signs it under the server's snapshot key
 * (the explicit operator step that accepts unsigned snapshots of adaprivate 0.1.0; a server never
 * accepts them by itself).
 */
import type { Command } from 'commander';
import type { SnapshotKey } from '../../policies/index.js';
import { migrateSnapshot } from '../../policies/index.js';
import { isPostgresUrl } from '../../store/isPostgresUrl.js';
import type { MigrationResult } from '../../store/PostgresStore.js';
import { schemaVersionOf } from '../../store/schema.js';
import { printJson } from '../output.js';
import { resolveSnapshotKey, SNAPSHOT_KEY_ENV } from '../snapshotKeyFile.js';
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

/**
 * `migrate` on PostgreSQL: the schema steps, then, when the replicas' snapshot key is given
 * (--snapshot-key-file or $ADAPRIVATE_SNAPSHOT_KEY), every stored snapshot brought to the current
 * format and signed under it (null: no key given, snapshots not checked).
 */
async function migratePostgresDb(
  url: string,
  keyFile: string | undefined,
): Promise<MigrationResult & { snapshots: number | null }> {
  // loaded here so that other commands do not load the PostgreSQL driver
  const { migratePostgres, PostgresStore } = await import('../../store/PostgresStore.js');
  const keyGiven = keyFile !== undefined || (process.env[SNAPSHOT_KEY_ENV]?.trim() ?? '') !== '';
  const key = keyGiven ? resolveSnapshotKey(url, true, keyFile, process.env).key : undefined;
  let result: MigrationResult;
  try {
    result = await migratePostgres(url);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
  if (!keyGiven) return { ...result, snapshots: null };
  const store = await PostgresStore.open(url, { migrate: false, poolSize: 1 });
  try {
    return { ...result, snapshots: await store.migrateSnapshots(migrateStoredSnapshots(key)) };
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
        `Bring a database of the decision service (PostgreSQL or a SQLite file) to the store format (schema) version this adaprivate reads (${schemaVersionOf('sqlite')} for a SQLite file, ${schemaVersionOf('postgres')} for PostgreSQL), step by step. A database of a newer version is refused. PostgreSQL: concurrent runs serialise on a lock. SQLite: not while a server runs on the file (the server also migrates a file's schema when it opens it). Stored policy snapshots are brought to the current snapshot format and signed under the server's snapshot key (SQLite: <db>.snapshot-key, --snapshot-key-file or $ADAPRIVATE_SNAPSHOT_KEY; PostgreSQL: the replicas' key from --snapshot-key-file or $ADAPRIVATE_SNAPSHOT_KEY, skipped without one), the one step that lets snapshots of adaprivate 0.1.0 in.`,
      )
      // not a required option: `migrate snapshot FILE` (a subcommand) has no --db
      .option(
        '--db <url|path>',
        'PostgreSQL connection string (postgres://user:password@host:port/database) or SQLite database file',
      )
      .option(
        '--snapshot-key-file <path>',
        "the file holding the snapshot key (SQLite default: <db>.snapshot-key; PostgreSQL: the replicas' key, else $ADAPRIVATE_SNAPSHOT_KEY; without one the stored snapshots are not checked)",
      )
      .option('--json', 'print {"from": n, "to": n} as JSON')
      .action(async (opts: { db?: string; snapshotKeyFile?: string; json?: boolean }) => {
        if (opts.db === undefined) {
          throw new UsageError(
            'migrate needs --db <url|path> (or: adaprivate migrate snapshot FILE --key-file KEYFILE).',
          );
        }
        let result: MigrationResult & { snapshots?: number | null };
        if (!isPostgresUrl(opts.db)) {
          result = await migrateSqliteFile(opts.db, opts.snapshotKeyFile);
        } else {
          const r = await migratePostgresDb(opts.db, opts.snapshotKeyFile);
          // without a key: {from, to} as before, and a note on stderr
          result = r.snapshots === null ? { from: r.from, to: r.to } : r;
          if (r.snapshots === null) {
            process.stderr.write(
              `stored policy snapshots not checked: give the replicas' snapshot key (--snapshot-key-file or $${SNAPSHOT_KEY_ENV}) to bring them to the current format and sign them\n`,
            );
          }
        }
        if (opts.json) printJson(result);
        else {
          process.stdout.write(
            result.from === result.to
              ? `schema is at version ${result.to}; nothing to do\n`
              : `schema migrated from version ${result.from} to ${result.to}\n`,
          );
          if (typeof result.snapshots === 'number' && result.snapshots > 0)
            process.stdout.write(`${result.snapshots} stored policy snapshots migrated and signed\n`);
        }
      })
  );
}
