/**
 * `adaprivate migrate --db postgres://...`: brings a PostgreSQL database of the decision service to
 * the current schema version (run once before starting or upgrading replicas; safe to run from
 * several places at once). SQLite files need no step: the server migrates them when it opens them.
 */
import type { Command } from 'commander';
import { isPostgresUrl } from '../../store/isPostgresUrl.js';
import type { MigrationResult } from '../../store/PostgresStore.js';
import { redactDbUrl } from '../../store/redactDbUrl.js';
import { SCHEMA_VERSION } from '../../store/schema.js';
import { printJson } from '../output.js';
import { UsageError } from '../UsageError.js';

/** Registers `migrate` and returns it (`registerMigrateSnapshot` adds `migrate snapshot`). */
export function registerMigrate(program: Command): Command {
  return (
    program
      .command('migrate')
      .description(
        `Bring a PostgreSQL database of the decision service to schema version ${SCHEMA_VERSION} (the version this adaprivate reads). Concurrent runs serialise on a lock; a database of a newer version is refused. SQLite files are migrated when the server opens them.`,
      )
      // not a required option: `migrate snapshot FILE` (a subcommand) has no --db
      .option('--db <url>', 'PostgreSQL connection string, postgres://user:password@host:port/database')
      .option('--json', 'print {"from": n, "to": n} as JSON')
      .action(async (opts: { db?: string; json?: boolean }) => {
        if (opts.db === undefined) {
          throw new UsageError(
            'migrate needs --db <url> (or: adaprivate migrate snapshot FILE --key-file KEYFILE).',
          );
        }
        if (!isPostgresUrl(opts.db)) {
          throw new UsageError(
            `--db must be a postgres:// or postgresql:// connection string (SQLite files are migrated when the server opens them). Got ${JSON.stringify(redactDbUrl(opts.db))}.`,
          );
        }
        // loaded here so that other commands do not load the PostgreSQL driver
        const { migratePostgres } = await import('../../store/PostgresStore.js');
        let result: MigrationResult;
        try {
          result = await migratePostgres(opts.db);
        } catch (e) {
          if (e instanceof RangeError) throw new UsageError(e.message);
          throw e;
        }
        if (opts.json) printJson(result);
        else if (result.from === result.to)
          process.stdout.write(`schema is at version ${result.to}; nothing to do\n`);
        else process.stdout.write(`schema migrated from version ${result.from} to ${result.to}\n`);
      })
  );
}
