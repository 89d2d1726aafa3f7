/**
 * `adaprivate serve`: the decision service over HTTP (docs/serving.md). Heavy modules (Fastify,
 * SQLite) are loaded only when this command runs. SIGTERM or SIGINT: stop accepting requests, let
 * in-flight ones finish, close the database, exit 0.
 *
 * API keys: --api-key-file (one key per line) or the ADAPRIVATE_API_KEY environment variable
 * (comma-separated); with neither, a random key is created in `<db>.api-key` (mode 0600) and reused
 * (SQLite only: with a PostgreSQL --db every replica must be given the same keys). Keys are never
 * printed or logged.
 *
 * Snapshot key (the MAC on every stored policy snapshot; cli/snapshotKeyFile.ts): --snapshot-key-file,
 * else ADAPRIVATE_SNAPSHOT_KEY, else `<db>.snapshot-key` beside the database (created once, mode
 * 0600); with a PostgreSQL --db every replica must be given the same key. Never printed or logged.
 *
 * `--db postgres://...`: one of several replicas sharing a PostgreSQL database (docs/serving.md,
 * "Several replicas"); the schema must be current (`adaprivate migrate`), else serve refuses.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import type { Command } from 'commander';
import type { ReleaseCommitInfo } from '../../store/index.js';
import { isPostgresUrl } from '../../store/isPostgresUrl.js';
import { redactDbUrl } from '../../store/redactDbUrl.js';
import { parsePositiveInt } from '../output.js';
import { resolveSnapshotKey, SNAPSHOT_KEY_ENV } from '../snapshotKeyFile.js';
import { UsageError } from '../UsageError.js';

interface ServeFlags {
  readonly db: string;
  readonly port: number;
  readonly host: string;
  readonly apiKeyFile?: string;
  readonly snapshotKeyFile?: string;
  readonly synchronous: string;
  readonly maxBodyBytes?: number;
  readonly maxArms?: number;
  readonly maxFeatures?: number;
  readonly maxBatch?: number;
  readonly logLevel: string;
  readonly logRequests?: boolean;
  readonly groupCommit: boolean;
  readonly checkpoint: string;
  readonly versionCheckMs?: number;
  readonly json?: boolean;
  readonly openMetrics?: boolean;
  readonly retainDecisionsDays?: number;
}

/** Environment variable holding the API key(s), comma-separated. */
export const API_KEY_ENV = 'ADAPRIVATE_API_KEY';

/**
 * Test hook of the crash tests (unset: off): `<probability>:<seed>[:decision|:rewards]` makes the
 * process SIGKILL itself inside a transaction that commits a ledger row (after its writes, before
 * its commit) with that probability per such transaction. With `:decision` only decisions committed
 * with their release count (PostgreSQL's `decideSerialised`: DGS-LinUCB); with `:rewards` only
 * batches and serialised-learning steps. Before dying it writes one line to stderr naming the
 * transaction (`SIGKILL inside a release transaction (decision|rewards, version v, r rewards, n
 * releases)`; SQLite's hook has no details and writes `(release)`).
 */
export const KILL_IN_RELEASE_ENV = 'ADAPRIVATE_TEST_KILL_IN_RELEASE';

/**
 * The test-only switch: the test hooks above act only when this variable is `1`, and then `serve`
 * prints a warning at start. Without it a hook variable is ignored (with a warning): a production
 * server never kills itself because of a stray environment variable.
 */
export const TEST_HOOKS_ENV = 'ADAPRIVATE_TEST_HOOKS';

/** The kill hook's spec when the test-only switch is on (warning printed), else undefined. */
function testHookSpec(env: NodeJS.ProcessEnv): string | undefined {
  const spec = env[KILL_IN_RELEASE_ENV];
  if (spec === undefined || spec === '') return undefined;
  if (env[TEST_HOOKS_ENV] !== '1') {
    process.stderr.write(
      `adaprivate serve: warning: ${KILL_IN_RELEASE_ENV} is ignored (test hooks act only with ${TEST_HOOKS_ENV}=1, in tests).\n`,
    );
    return undefined;
  }
  process.stderr.write(
    `adaprivate serve: WARNING: test hooks are on (${TEST_HOOKS_ENV}=1, ${KILL_IN_RELEASE_ENV}=${spec}): this server kills itself inside release transactions. For crash tests only, never in production.\n`,
  );
  return spec;
}

function parsePort(raw: string): number {
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v < 0 || v > 65535) {
    throw new UsageError(`--port must be an integer in [0, 65535]. Got ${JSON.stringify(raw)}.`);
  }
  return v;
}

function killInReleaseHook(spec: string | undefined): ((info?: ReleaseCommitInfo) => void) | undefined {
  if (spec === undefined || spec === '') return undefined;
  const [p, s, where, ...rest] = spec.split(':');
  const prob = Number(p);
  let state = Number(s ?? 1) >>> 0 || 1;
  if (
    !(prob >= 0 && prob <= 1) ||
    rest.length > 0 ||
    (where !== undefined && where !== 'decision' && where !== 'rewards')
  )
    throw new UsageError(
      `${KILL_IN_RELEASE_ENV} must be <probability>:<seed>[:decision|:rewards]. Got ${spec}.`,
    );
  return (info) => {
    // SQLite's hook has no details: it counts as a rewards transaction
    if (where !== undefined && (info?.kind ?? 'rewards') !== where) return;
    // xorshift32: a small seeded stream, independent of the policy's
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    if (state / 4294967296 < prob) {
      const what =
        info === undefined
          ? 'release'
          : `${info.kind}, version ${info.version}, ${info.rewards} rewards, ${info.releases} releases`;
      writeSync(2, `adaprivate: test hook: SIGKILL inside a release transaction (${what})\n`);
      process.kill(process.pid, 'SIGKILL');
    }
  };
}

/**
 * A server outlives whoever reads its output: when stdout or stderr is closed (the reader exited, a
 * pipe was cut), writes fail with EPIPE, emitted as an 'error' event that would end the process.
 * Such errors are ignored (the output is lost, the service goes on and shuts down cleanly); other
 * stream errors are rethrown.
 */
function survivePipeLoss(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET' && err.code !== 'ERR_STREAM_DESTROYED') {
        throw err;
      }
    });
  }
}

/** Random bytes of a generated API key (256 bits; 43 base64url characters). */
export const GENERATED_KEY_BYTES = 32;

/**
 * The key file next to the database: its keys when it exists, else a new random key, written (mode
 * 0600) by `save` only once the server has started, so a refused server writes no key file.
 */
function defaultKeyFile(db: string): { path: string; key: string | null; save: () => void } {
  const path = `${db === ':memory:' ? 'adaprivate-memory' : db}.api-key`;
  if (existsSync(path)) return { path, key: null, save: () => undefined };
  const key = randomBytes(GENERATED_KEY_BYTES).toString('base64url');
  const save = () => {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, `${key}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  return { path, key, save };
}

/** `--retain-decisions-days`: a positive number of days (fractions allowed). */
function parseRetentionDays(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(
      `--retain-decisions-days must be a positive number of days. Got ${JSON.stringify(v)}.`,
    );
  }
  return n;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'Run the decision service: models by name, rank and reward over HTTP, state and privacy ledger in SQLite (crash-safe), or in PostgreSQL shared by several replicas (--db postgres://...). See docs/serving.md.',
    )
    .option(
      '--db <path|url>',
      'SQLite database file (created if missing), or postgres://user:password@host:port/database shared by replicas (run adaprivate migrate first)',
      './adaprivate.db',
    )
    .option('--port <n>', 'TCP port (0: any free port)', parsePort, 8080)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option(
      '--api-key-file <path>',
      `file with the API key(s), one per line (default: $${API_KEY_ENV}, else <db>.api-key)`,
    )
    .option(
      '--snapshot-key-file <path>',
      `file with the key of the MAC on stored policy snapshots, >= 32 characters (default: $${SNAPSHOT_KEY_ENV}, else <db>.snapshot-key, created once with mode 0600; PostgreSQL: required, the same for every replica)`,
    )
    .option(
      '--synchronous <mode>',
      "'normal' (survives a process crash) or 'full' (fsync per commit: survives power loss)",
      'normal',
    )
    .option(
      '--max-body-bytes <n>',
      'largest request body (default 1048576)',
      parsePositiveInt('--max-body-bytes'),
    )
    .option('--max-arms <n>', 'most arms per rank request (default 1000)', parsePositiveInt('--max-arms'))
    .option('--max-features <n>', 'longest feature vector (default 1000)', parsePositiveInt('--max-features'))
    .option(
      '--max-batch <n>',
      'most events in one rank/batch or rewards/batch request (default 1000)',
      parsePositiveInt('--max-batch'),
    )
    .option(
      '--version-check-ms <n>',
      'PostgreSQL replicas: check the model version at most this many ms after the last check (default 100; release notifications usually come first)',
      parsePositiveInt('--version-check-ms'),
    )
    .option('--log-level <level>', 'pino log level: fatal, error, warn, info, debug', 'info')
    .option('--log-requests', 'log every request (default: errors and lifecycle only)')
    .option(
      '--no-group-commit',
      'one SQLite transaction per write (default: the writes of concurrent requests commit together, each answer after its commit)',
    )
    .option(
      '--checkpoint <mode>',
      "SQLite WAL checkpoints: 'background' (a worker thread copies the WAL into the database, so its fsync calls never hold up requests) or 'auto' (SQLite's own, inside the commit that crosses 1000 pages)",
      'background',
    )
    .option(
      '--retain-decisions-days <n>',
      'remove decisions (features, probabilities, logged rewards: the export) this many days old once their reward is settled, checked hourly (default: kept; docs/serving.md, "Retention")',
      parseRetentionDays,
    )
    .option('--json', 'print the startup line as one JSON object')
    .option(
      '--open-metrics',
      'serve GET /metrics without the API key (default: the key is required; the metrics carry no per-reward signal either way)',
    )
    .action(async (f: ServeFlags) => {
      survivePipeLoss();
      // every file this process creates (database, WAL, lock, key file, backups) is private to its user
      process.umask(0o077);
      if (f.synchronous !== 'normal' && f.synchronous !== 'full') {
        throw new UsageError(`--synchronous must be normal or full. Got ${JSON.stringify(f.synchronous)}.`);
      }
      if (f.checkpoint !== 'background' && f.checkpoint !== 'auto') {
        throw new UsageError(`--checkpoint must be background or auto. Got ${JSON.stringify(f.checkpoint)}.`);
      }
      if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(f.logLevel)) {
        throw new UsageError(
          `--log-level must be fatal, error, warn, info, debug, trace or silent. Got ${f.logLevel}.`,
        );
      }
      const postgres = isPostgresUrl(f.db);
      const dbShown = redactDbUrl(f.db);
      const { ApiKeys, createServer, ModelLoadError } = await import('../../service/index.js');
      let keys: InstanceType<typeof ApiKeys> | null;
      let keySource: string;
      let saveKey = (): void => undefined;
      try {
        if (f.apiKeyFile !== undefined) {
          keys = ApiKeys.load({ file: f.apiKeyFile, envName: API_KEY_ENV, env: {} });
          keySource = f.apiKeyFile;
        } else {
          keys = ApiKeys.load({ envName: API_KEY_ENV, env: process.env });
          keySource = `$${API_KEY_ENV}`;
          if (keys === null && postgres) {
            throw new Error(
              `with a PostgreSQL --db, give the API key(s) with --api-key-file or $${API_KEY_ENV} (every replica needs the same keys).`,
            );
          }
          if (keys === null) {
            const k = defaultKeyFile(f.db);
            keys =
              k.key === null
                ? ApiKeys.load({ file: k.path, envName: API_KEY_ENV, env: {} })
                : new ApiKeys([k.key]);
            keySource = `${k.path}${k.key === null ? '' : ' (created)'}`;
            saveKey = k.save;
          }
        }
      } catch (e) {
        throw new UsageError(e instanceof Error ? e.message : String(e));
      }
      if (keys === null) throw new UsageError('no API key.');
      const snapshotKey = resolveSnapshotKey(f.db, postgres, f.snapshotKeyFile, process.env);
      const hook = killInReleaseHook(testHookSpec(process.env));
      const limits = {
        ...(f.maxBodyBytes === undefined ? {} : { bodyBytes: f.maxBodyBytes }),
        ...(f.maxArms === undefined ? {} : { arms: f.maxArms }),
        ...(f.maxFeatures === undefined ? {} : { features: f.maxFeatures }),
        ...(f.maxBatch === undefined ? {} : { batch: f.maxBatch }),
      };
      let server: Awaited<ReturnType<typeof createServer>>;
      try {
        server = await createServer({
          db: f.db,
          apiKeys: keys,
          ...(snapshotKey.key === undefined ? {} : { snapshotKey: snapshotKey.key }),
          synchronous: f.synchronous,
          groupCommit: f.groupCommit,
          checkpoint: f.checkpoint,
          limits,
          logger: f.logLevel === 'silent' ? false : { level: f.logLevel },
          logRequests: f.logRequests === true,
          openMetrics: f.openMetrics === true,
          ...(hook === undefined ? {} : { beforeReleaseCommit: hook }),
          ...(f.versionCheckMs === undefined ? {} : { versionCheckMs: f.versionCheckMs }),
          ...(f.retainDecisionsDays === undefined ? {} : { retainDecisionsDays: f.retainDecisionsDays }),
        });
      } catch (e) {
        // a refused server leaves no new file behind: a snapshot key file it just created goes
        // (nothing was signed with it: the store was refused before any write)
        if (snapshotKey.source.endsWith(' (created)'))
          rmSync(snapshotKey.source.slice(0, -' (created)'.length), { force: true });
        // a stored model that this version cannot load (createServer closed the store): one line
        if (e instanceof ModelLoadError) throw new UsageError(e.message.replaceAll(f.db, dbShown));
        // a PostgreSQL schema that is not current, or a database that cannot be reached: one line
        const code = (e as { code?: unknown }).code;
        if (postgres && e instanceof Error && (e instanceof RangeError || typeof code === 'string')) {
          const msg = e.message.replaceAll(f.db, dbShown);
          throw new UsageError(e instanceof RangeError ? msg : `cannot open ${dbShown}: ${msg}`);
        }
        throw e;
      }
      try {
        saveKey(); // the database is ours (locked): only now is a new key file written
      } catch (e) {
        await server.close();
        throw new UsageError(`cannot write the API key file: ${e instanceof Error ? e.message : String(e)}`);
      }
      const url = await server.listen({ port: f.port, host: f.host });
      const info = {
        url,
        db: dbShown,
        engine: postgres ? 'postgres' : 'sqlite',
        apiKeys: keySource,
        snapshotKey: snapshotKey.source,
        ...(postgres ? {} : { synchronous: f.synchronous }),
        pid: process.pid,
      };
      process.stdout.write(
        f.json === true
          ? `${JSON.stringify(info)}\n`
          : `adaprivate serve: listening on ${url} (db ${dbShown}, API key from ${keySource}, pid ${process.pid})\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          process.stderr.write(`adaprivate serve: ${signal}: finishing in-flight requests\n`);
          server.close().then(resolve, (err: unknown) => {
            process.stderr.write(`adaprivate serve: close failed: ${String(err)}\n`);
            resolve();
          });
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      });
      process.stdout.write('adaprivate serve: stopped\n');
    });
}
