/**
 * The PostgreSQL engine of {@link Store} (node-postgres `pg`, a connection pool), for one server or
 * several replicas on one database (docs/serving-replicas.md). Same schema and migrations as the
 * SQLite engine (./schema.ts).
 *
 * Concurrency: every write is one transaction at READ COMMITTED. A reward locks its decision row
 * (`FOR UPDATE`), so two replicas never both record a reward for one event; a release locks the
 * model row (`FOR NO KEY UPDATE`), re-reads the version and the pending rewards under that lock, and
 * commits the new snapshot, the ledger row, and the deletion of exactly the raw rewards it consumed
 * together. A second replica racing for the same batch waits for the lock, then finds the batch
 * gone and writes nothing. A decision takes `FOR KEY SHARE` on its model row (which does not wait
 * for a release) and a deletion `FOR UPDATE`, so a decision either commits before the deletion
 * (and is erased by it) or finds the model gone.
 *
 * Durability: a reward is acknowledged after COMMIT returns, which with PostgreSQL's default
 * `synchronous_commit = on` means the commit record is flushed to the write-ahead log.
 */
import pg from 'pg';
import {
  DECISION_WITH_UNIT,
  type DecisionDb,
  decisionValues,
  type LedgerDb,
  type ModelDb,
  STATE_CODE,
  STATE_NAME,
  type TombstoneDb,
  toDecision,
  toLedger,
  toModel,
  toTombstone,
  toUnitCount,
  type UnitCountDb,
} from './dbRows.js';
import { blobToFloat64 } from './float64Blob.js';
import { GroupCommit } from './groupCommit.js';
import { ModelDeletedError } from './ModelDeletedError.js';
import { newModelValues } from './newModelValues.js';
import { postgresRoutines } from './postgresRoutines.js';
import {
  type AdmitUnit,
  type ComputeDecision,
  type ComputeRelease,
  type ComputeUnitRelease,
  DELETED_VERSION,
  type DecisionStep,
  type PendingBatch,
  type PendingOutcome,
  type ReleasedState,
  type ReplicaStore,
  type SerialisedDecision,
  type StepInput,
  type StepOutcome,
  type StepsOutcome,
  type UnitPendingOutcome,
  type VersionedOutcome,
} from './ReplicaStore.js';
import { redactDbUrl } from './redactDbUrl.js';
import type {
  DecisionRow,
  LedgerRow,
  ModelRow,
  NewModelRow,
  PendingReward,
  ReleaseInput,
  TombstoneRow,
  UnitCountRow,
  UnitTotals,
  UnitWrite,
} from './rows.js';
import type {
  DeleteModelOptions,
  DeleteModelResult,
  ExpireDecisionsOptions,
  ExportOptions,
  ModelCounts,
  ModelState,
  RecordRewardOutcome,
  RewardInput,
  RewardTarget,
} from './Store.js';
import { StoreConflictError } from './StoreConflictError.js';
import { MIGRATIONS, migrationStatements, schemaVersionOf } from './schema.js';

/** The schema version of a PostgreSQL database that this code writes and reads. */
const PG_SCHEMA_VERSION: number = schemaVersionOf('postgres');

/** First key of the per-name advisory lock that serialises creating and deleting a model. */
const NAME_LOCK = 0x6d6f64;

/** Options of {@link PostgresStore.open}. */
export interface PostgresStoreOptions {
  /**
   * Bring an older (or empty) database to the current schema at open (default true; concurrent
   * openers serialise on an advisory lock). With false, open refuses a database that is not at the
   * current version and names the `adaprivate migrate` command.
   */
  readonly migrate?: boolean;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
  /**
   * Test hook (off by default): called inside every transaction that commits a ledger row, after
   * every write and before the commit: a batch release, a serialised-learning step
   * (`releaseBatch`), a decision committed with its release (`decideSerialised`, `insertDecision`
   * with a release) and a reward committed with one (`recordReward`). The crash tests kill the
   * process here to check that an uncommitted release is never counted.
   */
  readonly beforeReleaseCommit?: (info: ReleaseCommitInfo) => void | Promise<void>;
}

/** What the transaction in which {@link PostgresStoreOptions.beforeReleaseCommit} runs commits. */
export interface ReleaseCommitInfo {
  /** 'decision': a decision row commits with the release; 'rewards': rewards alone (a batch, a step). */
  readonly kind: 'rewards' | 'decision';
  /** The model version (ledger row) being committed. */
  readonly version: number;
  /** Rewards the ledger row consumes. */
  readonly rewards: number;
  /** Privacy releases the ledger row records (0 for a step in which the policy released nothing). */
  readonly releases: number;
}

/** Result of {@link migratePostgres}. */
export interface MigrationResult {
  /** Schema version found (0: empty database). */
  readonly from: number;
  /** Schema version after the call. */
  readonly to: number;
}

/** Advisory-lock key of schema migrations ('adaprv' in ASCII). */
const MIGRATION_LOCK = 0x616461707276;

const INT8_OID = 20;

/** LISTEN/NOTIFY channel of committed releases; the payload is `<version>:<model name>`. */
export const RELEASE_CHANNEL = 'adaprivate_release';

/**
 * Most writes (decisions and pending rewards of one model) one batched statement of
 * {@link PostgresStore.insertDecision} and {@link PostgresStore.recordPending} carries.
 */
const WRITE_BATCH_MAX = 256;

/**
 * Event-loop turns a write of a model waits for others before its statement goes out when none is in
 * flight (`GroupCommit`'s linger): 2 gave fewer statements per pair and ~6% more pairs/s than 1 in
 * `loadtest:replicas` (docs/performance.md, session 17).
 */
const LINGER_TURNS = 2;

/**
 * Decisions after which a store gives the `decisions` table its planner statistics (ANALYZE) when
 * it has none for a table that size: the statements each connection caches (named statements and
 * the functions of ./postgresRoutines.ts) are planned once, and a plan made while the table had no
 * statistics looked a decision up by its event id through the (model, time) index, reading every
 * decision of the model; autovacuum's first ANALYZE comes a minute or more later. Measured on a new
 * database: 0.25-0.35 ms per lookup after a few thousand decisions, 0.005 ms after ANALYZE, and a
 * serialised policy's replica at half its throughput until then (docs/performance.md, "Issue 29 in
 * session 20").
 */
export const ANALYZE_AFTER_DECISIONS = 1000;

/** A write of the model's group commit: a decision (without a release) or a pending reward. */
type ModelWrite =
  | { readonly decision: DecisionRow; readonly reward?: undefined }
  | { readonly reward: RewardInput; readonly decision?: undefined };

/** Its answer: inserted (a decision), the reward's outcome, or the error of that write alone. */
type WriteAnswer = boolean | PendingOutcome | Error;

/** Counters of the store's batched writes (tests and benchmarks read them). */
export interface PostgresStoreStats {
  /**
   * Statements that inserted pending rewards (batched `recordPending` without a horizon); a
   * statement that carried decisions too counts here and in `decisionStatements`.
   */
  readonly rewardStatements: number;
  /** Rewards those statements carried. */
  readonly rewardsBatched: number;
  /** Largest number of rewards one such statement carried. */
  readonly largestRewardBatch: number;
  /** Statements that inserted decisions (batched `insertDecision` without a release). */
  readonly decisionStatements: number;
  /** Decisions those statements carried. */
  readonly decisionsBatched: number;
  /** Statements that carried decisions and pending rewards together (counted in both above too). */
  readonly sharedStatements: number;
}

/** BIGINT columns hold times in ms, versions and counts: safe integers, returned as numbers. */
function parseInt8(text: string): number {
  const v = Number(text);
  if (!Number.isSafeInteger(v)) {
    throw new RangeError(`PostgresStore: a BIGINT value is not a safe integer. Got ${text}.`);
  }
  return v;
}

const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A named statement: each connection parses and plans it once (the first time it runs there), not
 * at every call; the hot statements of decisions, rewards and releases use it.
 */
function named(name: string, text: string, values: readonly unknown[]): pg.QueryConfig {
  return { name, text, values: values as unknown[] };
}

function newPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, types: TYPES });
  // An idle connection that breaks (server restart) must not crash the process: the next query
  // through the pool gets a fresh connection or a clear error.
  pool.on('error', () => {});
  return pool;
}

/**
 * The released state of `model` (version, rounds, snapshot), undefined when it does not exist;
 * 'lock' takes the model row lock until the end of the caller's transaction.
 */
async function readReleased(
  db: pg.Pool | pg.PoolClient,
  model: string,
  mode: 'read' | 'lock',
): Promise<ReleasedState | undefined> {
  const r = await db.query<ReleasedState>(
    `SELECT version, rounds, snapshot FROM models WHERE name = $1${mode === 'lock' ? ' FOR NO KEY UPDATE' : ''}`,
    [model],
  );
  return r.rows[0];
}

/** The ledger row that committing `release` of `model` at `time`, consuming `rewards` rewards, writes. */
function ledgerRow(model: string, release: ReleaseInput, time: number, rewards: number): LedgerRow {
  return {
    model,
    version: release.version,
    time,
    releases: release.releases,
    rounds: release.rounds,
    rewards,
    spent: release.spent,
  };
}

/**
 * The parameters of a batched decision insert after the model (`unnest` columns, in order):
 * event ids, times, arm ids, features, dims, chosen, chosen features, probabilities, model
 * versions, units, clipped counts.
 */
function decisionColumns(rows: readonly DecisionRow[]): unknown[][] {
  const cols: unknown[][] = Array.from({ length: 11 }, () => []);
  for (const row of rows) {
    const v = decisionValues(row);
    for (let c = 1; c < 10; c++) cols[c - 1]!.push(v[c]);
    cols[9]!.push(row.unit ?? null);
    cols[10]!.push(row.clipped ?? null);
  }
  return cols;
}

/** The parameters of a batched pending-reward insert after the model: event ids, rewards, logged rewards, sources, units. */
function rewardColumns(inputs: readonly RewardInput[]): unknown[][] {
  return [
    inputs.map((x) => x.eventId),
    inputs.map((x) => x.reward),
    inputs.map((x) => (x.logReward ? x.reward : null)),
    inputs.map((x) => x.source),
    inputs.map((x) => x.unit ?? null),
  ];
}

/** Reads the schema version (0 when the database has no adaprivate tables). */
async function readVersion(client: pg.PoolClient): Promise<number> {
  const exists = await client.query<{ t: string | null }>("SELECT to_regclass('meta')::text AS t");
  if (exists.rows[0]?.t == null) return 0;
  const r = await client.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'");
  return r.rows[0] === undefined ? 0 : Number(r.rows[0].value);
}

async function migrateWith(client: pg.PoolClient, apply: boolean, where: string): Promise<MigrationResult> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const from = await readVersion(client);
    if (from > PG_SCHEMA_VERSION) {
      throw new RangeError(
        `PostgresStore: ${where} has schema version ${from}; this version of adaprivate reads up to ${PG_SCHEMA_VERSION}.`,
      );
    }
    if (from < PG_SCHEMA_VERSION && !apply) {
      throw new RangeError(
        `PostgresStore: ${where} has schema version ${from}, this version of adaprivate needs ${PG_SCHEMA_VERSION}; run \`adaprivate migrate --db <url>\`.`,
      );
    }
    for (const m of MIGRATIONS.slice(from)) {
      for (const sql of migrationStatements(m, 'postgres')) await client.query(sql);
    }
    if (from < PG_SCHEMA_VERSION) {
      await client.query(
        `INSERT INTO meta (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [String(PG_SCHEMA_VERSION)],
      );
    }
    await client.query('COMMIT');
    return { from, to: PG_SCHEMA_VERSION };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * The common table expressions that insert a model's decisions (with their units) from the columns
 * of {@link decisionColumns} in $2..$12, under the model row's KEY SHARE lock ($1): `m` (the model,
 * none when deleted), `i` (the rows), `d` (the inserted event ids). Shared by the batched decision
 * insert and the group statement that also records rewards.
 */
const DECISION_ROWS_CTES = `WITH m AS (
           SELECT name FROM models WHERE name = $1 FOR KEY SHARE
         ), i AS (
           SELECT * FROM unnest($2::text[], $3::bigint[], $4::text[], $5::bytea[], $6::int[], $7::int[],
             $8::bytea[], $9::text[], $10::bigint[], $11::text[], $12::int[])
             WITH ORDINALITY AS t(event_id, time, arm_ids, features, dim, chosen, chosen_features,
               probabilities, model_version, unit, clipped, ord)
         ), d AS (
           INSERT INTO decisions (model, event_id, time, arm_ids, features, dim, chosen, chosen_features, probabilities, model_version, clipped)
           SELECT m.name, i.event_id, i.time, i.arm_ids, i.features, i.dim, i.chosen, i.chosen_features,
             i.probabilities, i.model_version, i.clipped FROM m, i ORDER BY i.ord
           ON CONFLICT (model, event_id) DO NOTHING
           RETURNING model, event_id
         ), u AS (
           INSERT INTO decision_units (model, event_id, unit)
           SELECT d.model, d.event_id, i.unit FROM d JOIN i ON i.event_id = d.event_id WHERE i.unit IS NOT NULL
           ON CONFLICT (model, event_id) DO NOTHING
         )`;

/**
 * Brings the database at `connectionString` to the current schema version (the `adaprivate migrate`
 * command). Safe to run from several processes at once; refuses a database of a newer version.
 *
 * @example
 * await migratePostgres('postgres://adaprivate@db:5432/adaprivate'); // { from: 0, to: 1 }
 */
export async function migratePostgres(connectionString: string): Promise<MigrationResult> {
  const pool = newPool(connectionString, 1);
  try {
    const client = await pool.connect();
    try {
      return await migrateWith(client, true, redactDbUrl(connectionString));
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

export class PostgresStore implements ReplicaStore {
  readonly engine = 'postgres';
  private readonly pool: pg.Pool;
  private readonly hook: ((info: ReleaseCommitInfo) => void | Promise<void>) | null;
  private closed = false;
  private readonly connectionString: string;
  private readonly listeners = new Set<pg.Client>();
  /** Counters of the group commits; {@link stats} answers a copy. */
  private readonly statsNow = {
    rewardStatements: 0,
    rewardsBatched: 0,
    largestRewardBatch: 0,
    decisionStatements: 0,
    decisionsBatched: 0,
    sharedStatements: 0,
  };
  /** Decisions this store has inserted (counted up to {@link ANALYZE_AFTER_DECISIONS}). */
  private decisionsInserted = 0;
  /** The ANALYZE of the decisions table in flight (`noteDecisions`), awaited by {@link close}. */
  private analyzing: Promise<void> | null = null;
  /**
   * Decisions (without a release) and pending rewards of a model, group-committed together: one
   * statement in flight per model; the writes that arrive while it is in flight, and those of the
   * event-loop turn in which the first one arrived, go in the next one (`writeGroup`).
   */
  private readonly modelWrites = new GroupCommit<ModelWrite, WriteAnswer>(
    WRITE_BATCH_MAX,
    (w) => (w.decision !== undefined ? `d${w.decision.eventId}` : `r${w.reward.eventId}`),
    (model, writes) => this.writeGroup(model, writes),
    () => {},
    LINGER_TURNS,
  );
  /** Connections whose temporary schema has the release functions (./postgresRoutines.ts). */
  private readonly withRoutines = new WeakSet<pg.PoolClient>();

  private constructor(pool: pg.Pool, connectionString: string, options: PostgresStoreOptions) {
    this.pool = pool;
    this.connectionString = connectionString;
    this.hook = options.beforeReleaseCommit ?? null;
  }

  /**
   * Connects to `connectionString` and checks (by default: brings up to date) the schema version.
   *
   * @example
   * const store = await PostgresStore.open('postgres://adaprivate@db:5432/adaprivate');
   */
  static async open(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const size = options.poolSize ?? 10;
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new RangeError(`PostgresStore: poolSize must be a positive integer. Got ${size}.`);
    }
    const pool = newPool(connectionString, size);
    try {
      const client = await pool.connect();
      try {
        await migrateWith(client, options.migrate ?? true, redactDbUrl(connectionString));
      } finally {
        client.release();
      }
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new PostgresStore(pool, connectionString, options);
  }

  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  private async tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * First wins; refused ({@link ModelDeletedError}) when the name has a tombstone. Serialised with
   * {@link deleteModel} on the name's lock, so a deletion committing meanwhile is never undone.
   */
  async createModel(row: NewModelRow): Promise<{ readonly created: boolean; readonly model: ModelRow }> {
    return this.tx(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [NAME_LOCK, row.name]);
      const t = await client.query('SELECT 1 FROM model_tombstones WHERE name = $1', [row.name]);
      if (t.rows.length > 0) throw ModelDeletedError.tombstoned(row.name);
      const r = await client.query(
        `INSERT INTO models (name, policy, options, settings, created_at, version, snapshot)
         VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (name) DO NOTHING`,
        newModelValues(row),
      );
      const m = await client.query<ModelDb>('SELECT * FROM models WHERE name = $1', [row.name]);
      if (m.rows[0] === undefined)
        throw new Error(`PostgresStore: model '${row.name}' vanished after insert.`);
      return { created: r.rowCount === 1, model: toModel(m.rows[0]) };
    });
  }

  /**
   * One transaction, serialised with {@link createModel} on the name's lock: locks the model row
   * `FOR UPDATE` (so decisions in flight commit first, later ones find no model), moves it to the
   * tombstones (unless purged), erases its decisions, raw pending rewards and unit counts (and, for
   * a purge, its ledger), and tells the other replicas (a notification of version -1).
   */
  async deleteModel(name: string, options: DeleteModelOptions): Promise<DeleteModelResult> {
    return this.tx(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [NAME_LOCK, name]);
      const live =
        (await client.query('SELECT 1 FROM models WHERE name = $1 FOR UPDATE', [name])).rows.length > 0;
      const dead =
        (await client.query('SELECT 1 FROM model_tombstones WHERE name = $1', [name])).rows.length > 0;
      const none = { decisions: 0, pendingRewards: 0, unitCounts: 0, ledgerRows: 0 };
      if (!live && !dead) return { outcome: 'not-found', ...none };
      if (!live && !options.purge) return { outcome: 'already-deleted', ...none };
      if (live && !options.purge) {
        await client.query(
          `INSERT INTO model_tombstones (name, policy, options, settings, created_at, version, rounds, snapshot, deleted_at)
           SELECT name, policy, options, settings, created_at, version, rounds, snapshot, $2 FROM models WHERE name = $1`,
          [name, options.time],
        );
      }
      const count = async (sql: string): Promise<number> => (await client.query(sql, [name])).rowCount ?? 0;
      // decisions before pending rewards: a reward in flight holds its decision row until it commits
      await count('DELETE FROM decision_units WHERE model = $1');
      const decisions = await count('DELETE FROM decisions WHERE model = $1');
      const pendingRewards = await count('DELETE FROM pending_rewards WHERE model = $1');
      const unitCounts = await count('DELETE FROM unit_counts WHERE model = $1');
      let ledgerRows = 0;
      if (options.purge) {
        ledgerRows = await count('DELETE FROM ledger WHERE model = $1');
        await count('DELETE FROM unit_totals WHERE model = $1');
        await count('DELETE FROM model_tombstones WHERE name = $1');
      }
      await count('DELETE FROM models WHERE name = $1');
      await client.query('SELECT pg_notify($1, $2)', [RELEASE_CHANNEL, `${DELETED_VERSION}:${name}`]);
      return {
        outcome: options.purge ? 'purged' : 'deleted',
        decisions,
        pendingRewards,
        unitCounts,
        ledgerRows,
      };
    });
  }

  /**
   * Rewrites every stored policy snapshot (models and tombstones) with `migrate` (old text in,
   * current text out), in one transaction under the model rows' locks: the hook of `adaprivate
   * migrate` for snapshot formats, which the policies own (src/store does not import them). Replicas
   * may run meanwhile (a release waits for the lock). Returns how many rows changed.
   */
  async migrateSnapshots(migrate: (snapshot: string, model: string) => string): Promise<number> {
    return this.tx(async (client) => {
      let changed = 0;
      for (const table of ['models', 'model_tombstones'] as const) {
        const rows = await client.query<{ name: string; snapshot: string }>(
          `SELECT name, snapshot FROM ${table} ORDER BY name COLLATE "C" FOR NO KEY UPDATE`,
        );
        for (const r of rows.rows) {
          const next = migrate(r.snapshot, r.name);
          if (next === r.snapshot) continue;
          const u = await client.query(`UPDATE ${table} SET snapshot = $1 WHERE name = $2`, [next, r.name]);
          changed += u.rowCount ?? 0;
        }
      }
      return changed;
    });
  }

  async tombstone(name: string): Promise<TombstoneRow | null> {
    const r = await this.pool.query<TombstoneDb>('SELECT * FROM model_tombstones WHERE name = $1', [name]);
    return r.rows[0] === undefined ? null : toTombstone(r.rows[0]);
  }

  async listTombstones(): Promise<readonly TombstoneRow[]> {
    const r = await this.pool.query<TombstoneDb>('SELECT * FROM model_tombstones ORDER BY name COLLATE "C"');
    return r.rows.map(toTombstone);
  }

  async expireDecisions(model: string, options: ExpireDecisionsOptions): Promise<number> {
    const open = options.openBefore ?? Number.MIN_SAFE_INTEGER;
    const r = await this.pool.query<{ n: number }>(
      `WITH d AS (
         DELETE FROM decisions WHERE model = $1 AND time < $2 AND (reward_state IN (2, 3) OR (reward_state = 0 AND time < $3))
         RETURNING event_id
       ), u AS (
         DELETE FROM decision_units WHERE model = $1 AND event_id IN (SELECT event_id FROM d)
       )
       SELECT COUNT(*)::int AS n FROM d`,
      [model, options.before, open],
    );
    return r.rows[0]?.n ?? 0;
  }

  async getModel(name: string): Promise<ModelRow | null> {
    const r = await this.pool.query<ModelDb>('SELECT * FROM models WHERE name = $1', [name]);
    return r.rows[0] === undefined ? null : toModel(r.rows[0]);
  }

  async listModels(): Promise<readonly ModelRow[]> {
    const r = await this.pool.query<ModelDb>('SELECT * FROM models ORDER BY name COLLATE "C"');
    return r.rows.map(toModel);
  }

  async insertDecision(row: DecisionRow, release: ReleaseInput | null = null): Promise<boolean> {
    if (release === null) {
      const a = await this.modelWrites.add(row.model, { decision: row });
      if (a instanceof Error) throw a;
      return a as boolean;
    }
    return this.tx(async (client) => {
      const version = await this.lockModel(client, row.model);
      if (version === null || release.version !== version + 1) {
        throw new StoreConflictError(
          `release version ${release.version} of model '${row.model}' does not follow the stored version ${version ?? 'none'} (already released).`,
        );
      }
      const ok = await this.insertDecisionRow(client, row);
      const released = await client.query<{ event_id: string }>(
        'DELETE FROM pending_rewards WHERE model = $1 RETURNING event_id',
        [row.model],
      );
      await this.commitRelease(
        client,
        row.model,
        release,
        row.time,
        released.rows.map((r) => r.event_id),
        'decision',
      );
      return ok;
    });
  }

  /** Inserts the decision (and its unit, in the same statement) unless its event id exists (true when inserted). */
  private async insertDecisionRow(db: pg.Pool | pg.PoolClient, row: DecisionRow): Promise<boolean> {
    // the model row's KEY SHARE lock: a deletion waits for this decision, or this finds no model
    const r = await db.query<{ live: number; n: number }>(
      named(
        'adaprivate_insert_decision',
        `WITH m AS (
         SELECT name FROM models WHERE name = $1 FOR KEY SHARE
       ), d AS (
         INSERT INTO decisions (model, event_id, time, arm_ids, features, dim, chosen, chosen_features, probabilities, model_version, clipped)
         SELECT $1, $2, $3::bigint, $4::text, $5::bytea, $6::int, $7::int, $8::bytea, $9::text, $10::bigint, $12::int FROM m
         ON CONFLICT (model, event_id) DO NOTHING
         RETURNING model, event_id
       ), u AS (
         INSERT INTO decision_units (model, event_id, unit) SELECT model, event_id, $11::text FROM d
         WHERE $11::text IS NOT NULL
         ON CONFLICT (model, event_id) DO NOTHING
       )
       SELECT (SELECT COUNT(*) FROM m)::int AS live, (SELECT COUNT(*) FROM d)::int AS n`,
        [...decisionValues(row), row.unit ?? null, row.clipped ?? null],
      ),
    );
    if (r.rows[0]?.live !== 1) throw ModelDeletedError.gone(row.model);
    this.noteDecisions(r.rows[0]?.n ?? 0);
    return r.rows[0]?.n === 1;
  }

  /**
   * Counts `n` decisions inserted; when the count passes {@link ANALYZE_AFTER_DECISIONS}, gives the
   * decisions table its statistics in the background unless it has them for at least that many rows
   * (best effort: a role that does not own the table only gets a warning from PostgreSQL).
   */
  private noteDecisions(n: number): void {
    const before = this.decisionsInserted;
    if (before >= ANALYZE_AFTER_DECISIONS || n <= 0) return;
    this.decisionsInserted = before + n;
    if (this.decisionsInserted < ANALYZE_AFTER_DECISIONS || this.closed) return;
    this.analyzing = (async () => {
      const r = await this.pool.query<{ n: number }>(
        "SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'decisions'::regclass",
      );
      if ((r.rows[0]?.n ?? 0) < ANALYZE_AFTER_DECISIONS) await this.pool.query('ANALYZE decisions');
    })().catch(() => {
      // best effort: autovacuum analyzes the table later
    });
  }

  /**
   * The batched form of {@link insertDecisionRow}: decisions of one model (distinct event ids), one
   * statement at autocommit under the model row's KEY SHARE lock; true for each one inserted.
   */
  private async insertDecisionRows(model: string, rows: readonly DecisionRow[]): Promise<boolean[]> {
    if (rows.length === 1) return [await this.insertDecisionRow(this.pool, rows[0]!)];
    const r = await this.pool.query<{ live: number; inserted: string[] | null }>(
      named(
        'adaprivate_insert_decisions',
        `${DECISION_ROWS_CTES}
         SELECT (SELECT COUNT(*) FROM m)::int AS live, (SELECT array_agg(event_id) FROM d) AS inserted`,
        [model, ...decisionColumns(rows)],
      ),
    );
    if (r.rows[0]?.live !== 1) throw ModelDeletedError.gone(model);
    const inserted = new Set(r.rows[0]?.inserted ?? []);
    this.noteDecisions(inserted.size);
    return rows.map((row) => inserted.has(row.eventId));
  }

  /**
   * One statement of the model's group commit (`modelWrites`): its decisions and pending rewards,
   * answered in order. Decisions alone or rewards alone take their own statements
   * ({@link insertDecisionRows}, {@link pendingStatements}); both together take one statement that
   * does what those two do (one round trip, one commit instead of two). A decision of a model that
   * does not exist is answered {@link ModelDeletedError}; its reward 'unknown-event'.
   */
  private async writeGroup(model: string, writes: readonly ModelWrite[]): Promise<WriteAnswer[]> {
    const rows: DecisionRow[] = [];
    const inputs: RewardInput[] = [];
    for (const w of writes) {
      if (w.decision !== undefined) rows.push(w.decision);
      else inputs.push(w.reward);
    }
    const st = this.statsNow;
    if (rows.length > 0) {
      st.decisionStatements++;
      st.decisionsBatched += rows.length;
    }
    if (inputs.length > 0) {
      st.rewardStatements++;
      st.rewardsBatched += inputs.length;
      st.largestRewardBatch = Math.max(st.largestRewardBatch, inputs.length);
    }
    if (inputs.length === 0) return this.insertDecisionRows(model, rows);
    if (rows.length === 0) return this.pendingStatements(model, inputs);
    st.sharedStatements++;
    const r = await this.pool.query<{
      live: number;
      inserted: string[] | null;
      rewarded: string[] | null;
      found: string[] | null;
      pending: number;
    }>(
      named(
        'adaprivate_write_group',
        `${DECISION_ROWS_CTES}, ri AS (
           SELECT * FROM unnest($13::text[], $14::float8[], $15::float8[], $16::text[], $17::text[])
             WITH ORDINALITY AS t(event_id, reward, logged, source, unit, ord)
         ), rd AS (
           UPDATE decisions SET reward_state = 1, reward = ri.logged, reward_source = ri.source
           FROM m, ri WHERE decisions.model = m.name AND decisions.event_id = ri.event_id
             AND decisions.reward_state = 0
           RETURNING decisions.event_id, decisions.chosen_features
         ), rins AS (
           INSERT INTO pending_rewards (model, event_id, reward, features)
           SELECT $1, rd.event_id, ri.reward, rd.chosen_features FROM rd JOIN ri ON ri.event_id = rd.event_id
           ORDER BY ri.ord
           RETURNING event_id
         ), ru AS (
           INSERT INTO decision_units (model, event_id, unit)
           SELECT $1, rd.event_id, ri.unit FROM rd JOIN ri ON ri.event_id = rd.event_id WHERE ri.unit IS NOT NULL
           ON CONFLICT (model, event_id) DO NOTHING
         )
         SELECT (SELECT COUNT(*) FROM m)::int AS live, (SELECT array_agg(event_id) FROM d) AS inserted,
                (SELECT array_agg(event_id) FROM rins) AS rewarded,
                (SELECT array_agg(event_id) FROM decisions WHERE model = $1 AND event_id = ANY($13::text[])) AS found,
                (SELECT COUNT(*) FROM pending_rewards WHERE model = $1) AS pending`,
        [model, ...decisionColumns(rows), ...rewardColumns(inputs)],
      ),
    );
    const row = r.rows[0]!;
    const inserted = new Set(row.inserted ?? []);
    this.noteDecisions(inserted.size);
    const rewarded = new Set(row.rewarded ?? []);
    const found = new Set(row.found ?? []);
    // the count's snapshot is the statement's: it does not see the rows inserted by `rins`
    const pending = row.pending + rewarded.size;
    const gone = row.live === 1 ? null : ModelDeletedError.gone(model);
    return writes.map((w): WriteAnswer => {
      if (w.decision !== undefined) return gone ?? inserted.has(w.decision.eventId);
      const e = w.reward.eventId;
      return {
        outcome: rewarded.has(e) ? 'recorded' : found.has(e) ? 'duplicate' : 'unknown-event',
        pending,
      };
    });
  }

  async getDecision(model: string, eventId: string): Promise<DecisionRow | null> {
    const r = await this.pool.query<DecisionDb>(
      `${DECISION_WITH_UNIT} WHERE d.model = $1 AND d.event_id = $2`,
      [model, eventId],
    );
    return r.rows[0] === undefined ? null : toDecision(r.rows[0]);
  }

  async rewardTarget(model: string, eventId: string): Promise<RewardTarget | null> {
    const r = await this.pool.query<{
      time: number;
      reward_state: number;
      chosen_features: Buffer;
      unit: string | null;
    }>(
      named(
        'adaprivate_reward_target',
        `SELECT d.time, d.reward_state, d.chosen_features, u.unit FROM decisions d
       LEFT JOIN decision_units u ON u.model = d.model AND u.event_id = d.event_id
       WHERE d.model = $1 AND d.event_id = $2`,
        [model, eventId],
      ),
    );
    const row = r.rows[0];
    if (row === undefined) return null;
    return {
      time: row.time,
      rewardState: STATE_NAME[row.reward_state] ?? 'none',
      chosenFeatures: blobToFloat64(row.chosen_features),
      unit: row.unit,
    };
  }

  async recordReward(
    input: RewardInput,
    release: ReleaseInput | null,
    unit: UnitWrite | null = null,
  ): Promise<RecordRewardOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const outcome = await this.recordInTx(client, input, release, unit);
      await client.query(outcome === 'recorded' ? 'COMMIT' : 'ROLLBACK');
      return outcome;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  private async recordInTx(
    client: pg.PoolClient,
    input: RewardInput,
    release: ReleaseInput | null,
    unit: UnitWrite | null = null,
  ): Promise<RecordRewardOutcome> {
    const d = await client.query<{ reward_state: number; chosen_features: Buffer }>(
      'SELECT reward_state, chosen_features FROM decisions WHERE model = $1 AND event_id = $2 FOR UPDATE',
      [input.model, input.eventId],
    );
    const row = d.rows[0];
    if (row === undefined) return 'unknown-event';
    if (row.reward_state !== STATE_CODE.none) return 'duplicate';
    const dropped = unit !== null && unit.count === null;
    // a release the policy made before this reward (an epoch boundary) covers only earlier rewards
    const before = dropped || unit?.releaseBefore === true;
    if (before && release !== null) await this.releaseInTx(client, input, release);
    if (!dropped) {
      await client.query(
        'INSERT INTO pending_rewards (model, event_id, reward, features) VALUES ($1, $2, $3, $4)',
        [input.model, input.eventId, input.reward, row.chosen_features],
      );
    }
    await client.query(
      `UPDATE decisions SET reward_state = ${dropped ? STATE_CODE.dropped : STATE_CODE.pending}, reward = $1, reward_source = $2 WHERE model = $3 AND event_id = $4`,
      [input.logReward ? input.reward : null, input.source, input.model, input.eventId],
    );
    if (input.unit != null) {
      await client.query(
        'INSERT INTO decision_units (model, event_id, unit) VALUES ($1, $2, $3) ON CONFLICT (model, event_id) DO NOTHING',
        [input.model, input.eventId, input.unit],
      );
    }
    if (unit !== null) await this.unitInTx(client, input.model, unit);
    if (release !== null && !before) await this.releaseInTx(client, input, release);
    return 'recorded';
  }

  /** The unit writes of a reward (see {@link UnitWrite}), inside the reward's transaction. */
  private async unitInTx(client: pg.PoolClient, model: string, w: UnitWrite): Promise<void> {
    if (w.expireBefore !== null) {
      await client.query('DELETE FROM unit_counts WHERE model = $1 AND epoch < $2', [model, w.expireBefore]);
    }
    const c = w.count;
    if (c !== null) {
      await client.query(
        `INSERT INTO unit_counts (model, unit, epoch, release, in_release, releases, sampled) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (model, unit) DO UPDATE SET epoch = EXCLUDED.epoch, release = EXCLUDED.release,
           in_release = EXCLUDED.in_release, releases = EXCLUDED.releases, sampled = EXCLUDED.sampled`,
        [
          model,
          w.unit,
          c.epoch,
          c.release,
          c.inRelease,
          c.releases,
          c.sampled === null ? null : c.sampled ? 1 : 0,
        ],
      );
    }
    await client.query(
      `INSERT INTO unit_totals (model, dropped_release, dropped_epoch, open_epoch) VALUES ($1, $2, $3, $4)
       ON CONFLICT (model) DO UPDATE SET dropped_release = unit_totals.dropped_release + EXCLUDED.dropped_release,
         dropped_epoch = unit_totals.dropped_epoch + EXCLUDED.dropped_epoch,
         open_epoch = COALESCE($5::bigint, unit_totals.open_epoch)`,
      [
        model,
        w.dropped === 'perRelease' ? 1 : 0,
        w.dropped === 'perEpoch' ? 1 : 0,
        w.openEpoch ?? -1,
        w.openEpoch,
      ],
    );
  }

  async unitCount(model: string, unit: string): Promise<UnitCountRow | null> {
    const r = await this.pool.query<UnitCountDb>('SELECT * FROM unit_counts WHERE model = $1 AND unit = $2', [
      model,
      unit,
    ]);
    return r.rows[0] === undefined ? null : toUnitCount(r.rows[0]);
  }

  async unitTotals(model: string): Promise<UnitTotals> {
    const r = await this.pool.query<{ dropped_release: string; dropped_epoch: string; open_epoch: string }>(
      'SELECT * FROM unit_totals WHERE model = $1',
      [model],
    );
    const t = r.rows[0];
    return t === undefined
      ? { droppedPerRelease: 0, droppedPerEpoch: 0, openEpoch: -1 }
      : {
          droppedPerRelease: Number(t.dropped_release),
          droppedPerEpoch: Number(t.dropped_epoch),
          openEpoch: Number(t.open_epoch),
        };
  }

  async unitCountRows(model: string): Promise<number> {
    const r = await this.pool.query<{ n: number }>(
      'SELECT COUNT(*)::int AS n FROM unit_counts WHERE model = $1',
      [model],
    );
    return r.rows[0]?.n ?? 0;
  }

  /** A release committed with a reward (model row locked, every pending raw reward deleted). */
  private async releaseInTx(client: pg.PoolClient, input: RewardInput, release: ReleaseInput): Promise<void> {
    {
      const version = await this.lockModel(client, input.model);
      if (version === null || release.version !== version + 1) {
        throw new StoreConflictError(
          `release version ${release.version} of model '${input.model}' does not follow the stored version ${version ?? 'none'} (already released).`,
        );
      }
      const released = await client.query<{ event_id: string }>(
        'DELETE FROM pending_rewards WHERE model = $1 RETURNING event_id',
        [input.model],
      );
      await this.commitRelease(
        client,
        input.model,
        release,
        input.time,
        released.rows.map((r) => r.event_id),
        'rewards',
      );
    }
  }

  /** Locks the model row until the end of the transaction; returns its version (null: no model). */
  private async lockModel(client: pg.PoolClient, model: string): Promise<number | null> {
    const r = await client.query<{ version: number }>(
      'SELECT version FROM models WHERE name = $1 FOR NO KEY UPDATE',
      [model],
    );
    return r.rows[0]?.version ?? null;
  }

  /** The writes of a release, inside the caller's transaction (model row locked, raw rewards deleted). */
  /**
   * Commits a computed release of pending rewards inside the caller's transaction: checks that it
   * follows the stored version (else {@link StoreConflictError}), deletes exactly those raw rewards
   * (`rows`), runs `alsoDelete` (more bookkeeping of the same release), then the ledger row and the
   * decisions' states ({@link commitRelease}). Returns the ledger row written.
   */
  private async commitPending(
    client: pg.PoolClient,
    model: string,
    storedVersion: number,
    release: ReleaseInput,
    rows: readonly { readonly seq: number }[],
    pending: readonly PendingReward[],
    time: number,
    alsoDelete?: () => Promise<unknown>,
  ): Promise<LedgerRow> {
    if (release.version !== storedVersion + 1) {
      throw new StoreConflictError(
        `release version ${release.version} of model '${model}' does not follow the stored version ${storedVersion}.`,
      );
    }
    await client.query('DELETE FROM pending_rewards WHERE seq = ANY($1::bigint[])', [rows.map((r) => r.seq)]);
    if (alsoDelete !== undefined) await alsoDelete();
    const eventIds = pending.map((p) => p.eventId);
    await this.commitRelease(client, model, release, time, eventIds, 'rewards');
    return ledgerRow(model, release, time, eventIds.length);
  }

  private async commitRelease(
    client: pg.PoolClient,
    model: string,
    release: ReleaseInput,
    time: number,
    eventIds: readonly string[],
    kind: ReleaseCommitInfo['kind'],
  ): Promise<void> {
    await client.query(
      'UPDATE decisions SET reward_state = 2, release = $1 WHERE model = $2 AND event_id = ANY($3::text[])',
      [release.version, model, eventIds],
    );
    await client.query(
      'INSERT INTO ledger (model, version, time, releases, rounds, rewards, spent) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [
        model,
        release.version,
        time,
        release.releases,
        release.rounds,
        eventIds.length,
        JSON.stringify(release.spent),
      ],
    );
    await client.query('UPDATE models SET version = $1, rounds = $2, snapshot = $3 WHERE name = $4', [
      release.version,
      release.rounds,
      release.snapshot,
      model,
    ]);
    // delivered to listeners only if this transaction commits
    await client.query('SELECT pg_notify($1, $2)', [RELEASE_CHANNEL, `${release.version}:${model}`]);
    if (this.hook !== null) {
      await this.hook({
        kind,
        version: release.version,
        rewards: eventIds.length,
        releases: release.releases,
      });
    }
  }

  /**
   * The release of one batch across replicas, exactly once: locks the model row, re-reads the
   * version and the oldest `batchSize` pending rewards under the lock, and, when a full batch is
   * still pending, hands that state to `compute` (which rebuilds the policy from the snapshot,
   * replays the batch and draws the noise) and commits its release together with the ledger row and
   * the deletion of exactly those raw rewards. Returns the ledger row written, or null when the
   * batch was no longer pending (another replica released it) or `compute` returned null.
   * Throws {@link StoreConflictError} when `compute` returns a version other than stored + 1.
   *
   * The raw rewards are read only here, under the lock, and leave this call only inside the noisy
   * release: nothing a replica serves depends on an unreleased reward.
   */
  async releaseBatch(
    model: string,
    batchSize: number,
    time: number,
    compute: ComputeRelease,
  ): Promise<LedgerRow | null> {
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
      throw new RangeError(
        `PostgresStore.releaseBatch: batchSize must be a positive integer. Got ${batchSize}.`,
      );
    }
    return this.tx(async (client) => {
      const cur = await readReleased(client, model, 'lock');
      if (cur === undefined) return null;
      const rows = await client.query<{ seq: number; event_id: string; reward: number; features: Buffer }>(
        'SELECT seq, event_id, reward, features FROM pending_rewards WHERE model = $1 ORDER BY seq LIMIT $2',
        [model, batchSize],
      );
      if (rows.rows.length < batchSize) return null;
      const pending: PendingReward[] = rows.rows.map((r) => ({
        eventId: r.event_id,
        reward: r.reward,
        features: blobToFloat64(r.features),
      }));
      const release = await compute({
        snapshot: cur.snapshot,
        version: cur.version,
        rounds: cur.rounds,
        pending,
      });
      if (release === null) return null;
      return this.commitPending(client, model, cur.version, release, rows.rows, pending, time);
    });
  }

  /**
   * See {@link ReplicaStore.pendingBatch}: the version, rounds and oldest pending rewards of a model
   * in one statement (one snapshot), without the lock.
   */
  async pendingBatch(model: string, batchSize: number): Promise<PendingBatch | null> {
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
      throw new RangeError(
        `PostgresStore.pendingBatch: batchSize must be a positive integer. Got ${batchSize}.`,
      );
    }
    const r = await this.pool.query<{
      version: number;
      rounds: number;
      seq: number | null;
      event_id: string | null;
      reward: number | null;
      features: Buffer | null;
    }>(
      named(
        'adaprivate_pending_batch',
        `SELECT m.version, m.rounds, p.seq, p.event_id, p.reward, p.features FROM models m
       LEFT JOIN LATERAL (
         SELECT seq, event_id, reward, features FROM pending_rewards
         WHERE model = m.name ORDER BY seq LIMIT $2
       ) p ON true
       WHERE m.name = $1 ORDER BY p.seq`,
        [model, batchSize],
      ),
    );
    const first = r.rows[0];
    if (first === undefined) return null;
    const pending: PendingReward[] = [];
    const seqs: number[] = [];
    for (const row of r.rows) {
      if (row.seq === null) continue;
      seqs.push(row.seq);
      pending.push({ eventId: row.event_id!, reward: row.reward!, features: blobToFloat64(row.features!) });
    }
    return { version: first.version, rounds: first.rounds, pending, seqs };
  }

  /**
   * Runs one of the release functions (./postgresRoutines.ts): one statement at autocommit, so the
   * model row lock is held for this one round trip. With the test hook, the same call inside an
   * explicit transaction, the hook between it and COMMIT (`kind`, and the release it wrote when the
   * answer is `committed`).
   */
  private async routine(
    sql: string,
    values: readonly unknown[],
    commits: (answer: string) => ReleaseCommitInfo | null,
  ): Promise<string> {
    const hook = this.hook;
    const client = await this.pool.connect();
    let broken: Error | undefined;
    let open = false;
    try {
      await this.routines(client); // outside any transaction: a rollback must not undo them
      if (hook === null)
        return (await client.query<{ a: string }>(named(sql.slice(7, sql.indexOf('(')), sql, values)))
          .rows[0]!.a;
      await client.query('BEGIN');
      open = true;
      const answer = (await client.query<{ a: string }>(named(sql.slice(7, sql.indexOf('(')), sql, values)))
        .rows[0]!.a;
      const info = commits(answer);
      if (info !== null) await hook(info);
      await client.query('COMMIT');
      open = false;
      return answer;
    } catch (err) {
      if (open) await client.query('ROLLBACK').catch(() => {});
      // a connection error leaves the connection unusable: the pool drops it
      if (!(err instanceof pg.DatabaseError)) broken = err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /** Creates the release functions in `client`'s temporary schema once per connection (one round trip). */
  private async routines(client: pg.PoolClient): Promise<void> {
    if (this.withRoutines.has(client)) return;
    await client.query(postgresRoutines(RELEASE_CHANNEL));
    this.withRoutines.add(client);
  }

  /** See {@link ReplicaStore.releasePending}. */
  async releasePending(
    model: string,
    batch: PendingBatch,
    release: ReleaseInput,
    time: number,
  ): Promise<LedgerRow | VersionedOutcome> {
    if (release.version !== batch.version + 1) {
      throw new StoreConflictError(
        `release version ${release.version} of model '${model}' does not follow the version ${batch.version} it was computed from.`,
      );
    }
    const n = batch.seqs.length;
    const answer = await this.routine(
      'SELECT pg_temp.adaprivate_release_pending($1, $2, $3::bigint[], $4, $5, $6, $7, $8) AS a',
      [
        model,
        batch.version,
        batch.seqs,
        time,
        release.releases,
        release.rounds,
        JSON.stringify(release.spent),
        release.snapshot,
      ],
      (a) =>
        a === 'released'
          ? { kind: 'rewards', version: release.version, rewards: n, releases: release.releases }
          : null,
    );
    if (answer === 'stale' || answer === 'gone') return answer;
    return ledgerRow(model, release, time, n);
  }

  /** See {@link ReplicaStore.stepReward}: {@link stepRewards} of one step. */
  async stepReward(
    input: RewardInput,
    expected: number,
    horizon: number | null,
    release: ReleaseInput,
  ): Promise<StepOutcome> {
    if (release.version !== expected + 1 || release.rounds < 1) {
      throw new StoreConflictError(
        `release version ${release.version} of model '${input.model}' does not follow the version ${expected} it was computed from.`,
      );
    }
    const step = { reward: input, releases: release.releases, spent: release.spent };
    const out = await this.stepRewards(
      input.model,
      expected,
      horizon,
      [step],
      release.rounds,
      release.snapshot,
    );
    return typeof out === 'string' ? out : out.outcome;
  }

  /** See {@link ReplicaStore.stepRewards}: one call of the step function (./postgresRoutines.ts). */
  async stepRewards(
    model: string,
    expected: number,
    horizon: number | null,
    steps: readonly StepInput[],
    rounds: number,
    snapshot: string,
  ): Promise<StepsOutcome> {
    if (steps.length === 0 || steps.some((x) => x.reward.model !== model)) {
      throw new RangeError(`PostgresStore.stepRewards: one or more steps, all of model '${model}'.`);
    }
    const rewards = steps.map((x) => x.reward);
    const answer = await this.routine(
      'SELECT pg_temp.adaprivate_step_rewards($1, $2, $3::text[], $4::float8[], $5::text[], $6::text[], $7, $8::bigint[], $9::bigint[], $10, $11::text[], $12) AS a',
      [
        model,
        expected,
        rewards.map((x) => x.eventId),
        rewards.map((x) => (x.logReward ? x.reward : null)),
        rewards.map((x) => x.source),
        rewards.map((x) => x.unit ?? null),
        horizon,
        rewards.map((x) => x.time),
        steps.map((x) => x.releases),
        rounds,
        steps.map((x) => JSON.stringify(x.spent)),
        snapshot,
      ],
      (a) =>
        a === 'recorded'
          ? {
              kind: 'rewards',
              version: expected + steps.length,
              rewards: steps.length,
              releases: steps.reduce((t, x) => t + x.releases, 0),
            }
          : null,
    );
    const m = /^(unknown-event|duplicate):(\d+)$/.exec(answer);
    if (m !== null) return { rejected: Number(m[2]), outcome: m[1] as 'unknown-event' | 'duplicate' };
    return answer as StepsOutcome;
  }

  /** See {@link ReplicaStore.decideAt}. */
  async decideAt(
    expected: number,
    decision: DecisionRow,
    release: ReleaseInput | null,
  ): Promise<'inserted' | 'exists' | VersionedOutcome> {
    if (release !== null && release.version !== expected + 1) {
      throw new StoreConflictError(
        `release version ${release.version} of model '${decision.model}' does not follow the version ${expected} it was computed from.`,
      );
    }
    const answer = await this.routine(
      `SELECT pg_temp.adaprivate_decide($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) AS a`,
      [
        decision.model,
        expected,
        ...decisionValues(decision).slice(1),
        decision.unit ?? null,
        release?.releases ?? 0,
        release?.rounds ?? 0,
        release === null ? null : JSON.stringify(release.spent),
        release?.snapshot ?? null,
        decision.clipped ?? null,
      ],
      (a) =>
        a === 'inserted' && release !== null
          ? { kind: 'decision', version: release.version, rewards: 0, releases: release.releases }
          : null,
    );
    if (answer === 'inserted') this.noteDecisions(1);
    return answer as 'inserted' | 'exists' | VersionedOutcome;
  }

  /** See {@link ReplicaStore.decideMany}. */
  async decideMany(
    model: string,
    expected: number,
    decisions: readonly DecisionStep[],
    rounds: number,
    snapshot: string | null,
  ): Promise<'inserted' | VersionedOutcome | { readonly exists: number }> {
    const made = decisions.filter((d) => d.release !== null);
    if (decisions.length === 0 || decisions.some((d) => d.decision.model !== model)) {
      throw new RangeError(`PostgresStore.decideMany: one or more decisions, all of model '${model}'.`);
    }
    if (made.length > 0 !== (snapshot !== null)) {
      throw new RangeError('PostgresStore.decideMany: a snapshot exactly when a decision released.');
    }
    const cols: unknown[][] = Array.from({ length: 9 }, () => []);
    for (const d of decisions) {
      const v = decisionValues(d.decision);
      for (let c = 0; c < 9; c++) cols[c]!.push(v[c + 1]);
    }
    const answer = await this.routine(
      'SELECT pg_temp.adaprivate_decide_many($1, $2, $3::text[], $4::bigint[], $5::text[], $6::bytea[], $7::int[], $8::int[], $9::bytea[], $10::text[], $11::bigint[], $12::text[], $13::bigint[], $14::text[], $15, $16, $17::int[]) AS a',
      [
        model,
        expected,
        ...cols,
        decisions.map((d) => d.decision.unit ?? null),
        decisions.map((d) => d.release?.releases ?? null),
        decisions.map((d) => (d.release === null ? null : JSON.stringify(d.release.spent))),
        rounds,
        snapshot,
        decisions.map((d) => d.decision.clipped ?? null),
      ],
      (a) =>
        a === 'inserted' && made.length > 0
          ? {
              kind: 'decision',
              version: expected + made.length,
              rewards: 0,
              releases: made.reduce((t, d) => t + d.release!.releases, 0),
            }
          : null,
    );
    const m = /^exists:(\d+)$/.exec(answer);
    if (m !== null) return { exists: Number(m[1]) };
    if (answer === 'inserted') this.noteDecisions(decisions.length);
    return answer as 'inserted' | VersionedOutcome;
  }

  /** The stored version of a model (the cheap per-request check of a replica), or null. */
  async modelVersion(model: string): Promise<number | null> {
    const r = await this.pool.query<{ version: number }>(
      named('adaprivate_model_version', 'SELECT version FROM models WHERE name = $1', [model]),
    );
    return r.rows[0]?.version ?? null;
  }

  /**
   * Stores a reward as pending in one statement (one round trip, one transaction): marks the
   * decision rewarded only if it has no reward yet (a concurrent second reward waits for the row
   * and then finds it rewarded), inserts the raw reward with the chosen features, and counts the
   * model's pending rewards including this one.
   *
   * With a `horizon` (horizon-bounded policies), one transaction that first locks the model row (as
   * a release does), so that the learned rounds of the last release plus the pending rewards are
   * counted with no other reward or release in between; at the horizon it writes nothing and
   * answers 'horizon-exhausted' (after the event's own 'unknown-event' or 'duplicate').
   */
  async recordPending(input: RewardInput, horizon: number | null = null): Promise<PendingOutcome> {
    if (horizon === null) {
      const a = await this.modelWrites.add(input.model, { reward: input });
      if (a instanceof Error) throw a;
      return a as PendingOutcome;
    }
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const m = await client.query<{ rounds: number }>(
        'SELECT rounds FROM models WHERE name = $1 FOR NO KEY UPDATE',
        [input.model],
      );
      const c = await client.query<{ state: number | null; pending: number }>(
        `SELECT (SELECT reward_state FROM decisions WHERE model = $1 AND event_id = $2) AS state,
                (SELECT COUNT(*) FROM pending_rewards WHERE model = $1) AS pending`,
        [input.model, input.eventId],
      );
      const row = c.rows[0]!;
      let out: PendingOutcome | null = null;
      if (m.rows[0] === undefined || row.state === null)
        out = { outcome: 'unknown-event', pending: row.pending };
      else if (row.state !== STATE_CODE.none) out = { outcome: 'duplicate', pending: row.pending };
      else if (m.rows[0].rounds + row.pending >= horizon) {
        out = { outcome: 'horizon-exhausted', pending: row.pending };
      }
      if (out === null) out = await this.pendingStatement(client, input);
      await client.query(out.outcome === 'recorded' ? 'COMMIT' : 'ROLLBACK');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** Counters of the batched reward inserts since the store opened. */
  stats(): PostgresStoreStats {
    return { ...this.statsNow };
  }

  /**
   * The batched form of {@link pendingStatement}: rewards of one model (distinct event ids), one
   * statement at autocommit. Each decision is marked rewarded only if it has none yet; the pending
   * count answered is the model's after the statement.
   */
  private async pendingStatements(model: string, inputs: readonly RewardInput[]): Promise<PendingOutcome[]> {
    if (inputs.length === 1) return [await this.pendingStatement(this.pool, inputs[0]!)];
    const r = await this.pool.query<{ inserted: string[] | null; found: string[] | null; pending: number }>(
      named(
        'adaprivate_pending_rewards',
        `WITH i AS (
         SELECT * FROM unnest($2::text[], $3::float8[], $4::float8[], $5::text[], $6::text[])
           WITH ORDINALITY AS t(event_id, reward, logged, source, unit, ord)
       ), d AS (
         UPDATE decisions SET reward_state = 1, reward = i.logged, reward_source = i.source
         FROM i WHERE decisions.model = $1 AND decisions.event_id = i.event_id AND decisions.reward_state = 0
         RETURNING decisions.event_id, decisions.chosen_features
       ), ins AS (
         INSERT INTO pending_rewards (model, event_id, reward, features)
         SELECT $1, d.event_id, i.reward, d.chosen_features FROM d JOIN i ON i.event_id = d.event_id
         ORDER BY i.ord
         RETURNING event_id
       ), u AS (
         INSERT INTO decision_units (model, event_id, unit)
         SELECT $1, d.event_id, i.unit FROM d JOIN i ON i.event_id = d.event_id WHERE i.unit IS NOT NULL
         ON CONFLICT (model, event_id) DO NOTHING
       )
       SELECT (SELECT array_agg(event_id) FROM ins) AS inserted,
              (SELECT array_agg(event_id) FROM decisions WHERE model = $1 AND event_id = ANY($2::text[])) AS found,
              (SELECT COUNT(*) FROM pending_rewards WHERE model = $1) AS pending`,
        [model, ...rewardColumns(inputs)],
      ),
    );
    const row = r.rows[0]!;
    const inserted = new Set(row.inserted ?? []);
    const found = new Set(row.found ?? []);
    // the count's snapshot is the statement's: it does not see the rows inserted by `ins`
    const pending = row.pending + inserted.size;
    return inputs.map((x) => ({
      outcome: inserted.has(x.eventId) ? 'recorded' : found.has(x.eventId) ? 'duplicate' : 'unknown-event',
      pending,
    }));
  }

  /** The statement of {@link recordPending}, on the pool or inside the caller's transaction. */
  private async pendingStatement(db: pg.Pool | pg.PoolClient, input: RewardInput): Promise<PendingOutcome> {
    const r = await db.query<{ inserted: number; pending: number; found: number }>(
      named(
        'adaprivate_pending_reward',
        `WITH d AS (
         UPDATE decisions SET reward_state = 1, reward = $4, reward_source = $5
         WHERE model = $1 AND event_id = $2 AND reward_state = 0
         RETURNING chosen_features
       ), ins AS (
         INSERT INTO pending_rewards (model, event_id, reward, features)
         SELECT $1, $2, $3, chosen_features FROM d
         RETURNING 1
       ), u AS (
         INSERT INTO decision_units (model, event_id, unit)
         SELECT $1, $2, $6::text FROM d WHERE $6::text IS NOT NULL
         ON CONFLICT (model, event_id) DO NOTHING
       )
       SELECT (SELECT COUNT(*) FROM ins) AS inserted,
              (SELECT COUNT(*) FROM pending_rewards WHERE model = $1) AS pending,
              (SELECT COUNT(*) FROM decisions WHERE model = $1 AND event_id = $2) AS found`,
        [
          input.model,
          input.eventId,
          input.reward,
          input.logReward ? input.reward : null,
          input.source,
          input.unit ?? null,
        ],
      ),
    );
    const row = r.rows[0]!;
    // the count's snapshot is the statement's: it does not see the row inserted by `ins`
    if (row.inserted === 1) return { outcome: 'recorded', pending: row.pending + 1 };
    return { outcome: row.found === 0 ? 'unknown-event' : 'duplicate', pending: row.pending };
  }

  /**
   * See {@link ReplicaStore.recordUnitPending}. Concurrency: the transaction first takes the model
   * row lock (`SELECT ... FOR UPDATE`, the lock every release of the model takes too), so the
   * admissions of one model by all replicas run one at a time at READ COMMITTED, each reading the
   * counts the previous one committed. A lock on the unit's row alone would not do: the open release
   * (its number, its kept rewards, its epoch) is shared by all units, and a release must not read a
   * half-admitted group. The cost is that the rewards of one user-level model are written one at a
   * time (a short transaction each); other models are not affected.
   */
  async recordUnitPending(
    input: RewardInput & { readonly unit: string },
    epochNow: number,
    batchSize: number,
    admit: AdmitUnit,
  ): Promise<UnitPendingOutcome> {
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
      throw new RangeError(
        `PostgresStore.recordUnitPending: batchSize must be a positive integer. Got ${batchSize}.`,
      );
    }
    if (!Number.isSafeInteger(epochNow) || epochNow < 0) {
      throw new RangeError(
        `PostgresStore.recordUnitPending: epoch must be a non-negative integer. Got ${epochNow}.`,
      );
    }
    const model = input.model;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const m = await client.query('SELECT 1 FROM models WHERE name = $1 FOR UPDATE', [model]);
      const d = await client.query<{ reward_state: number; chosen_features: Buffer }>(
        'SELECT reward_state, chosen_features FROM decisions WHERE model = $1 AND event_id = $2 FOR UPDATE',
        [model, input.eventId],
      );
      const dec = d.rows[0];
      if (m.rows.length === 0 || dec === undefined || dec.reward_state !== STATE_CODE.none) {
        await client.query('ROLLBACK');
        const outcome = dec === undefined || m.rows.length === 0 ? 'unknown-event' : 'duplicate';
        return { outcome, dropped: null, due: 0 };
      }
      const o = await client.query<{ release: number; kept: number; epoch: number }>(
        'SELECT release, kept, epoch FROM unit_open WHERE model = $1',
        [model],
      );
      let release = o.rows[0]?.release ?? 1;
      let kept = o.rows[0]?.kept ?? 0;
      const openEpoch = o.rows[0]?.epoch ?? -1;
      // an epoch never goes back (replicas' clocks may differ by a little)
      const epoch = Math.max(epochNow, openEpoch);
      if (epoch > openEpoch && kept > 0) {
        release++; // the partial release of the old epoch is closed: a release never spans two
        kept = 0;
      }
      const u = await client.query<UnitCountDb>(
        'SELECT epoch, release, in_release, releases, sampled FROM unit_counts WHERE model = $1 AND unit = $2',
        [model, input.unit],
      );
      const prev = u.rows[0] === undefined ? null : toUnitCount(u.rows[0]);
      const r = admit(prev !== null && prev.epoch < epoch ? null : prev, epoch, release);
      const keep = r.count !== null;
      if (keep) {
        await client.query(
          'INSERT INTO pending_rewards (model, event_id, reward, features) VALUES ($1, $2, $3, $4)',
          [model, input.eventId, input.reward, dec.chosen_features],
        );
        await client.query(
          'INSERT INTO unit_pending (model, event_id, release, epoch) VALUES ($1, $2, $3, $4)',
          [model, input.eventId, release, epoch],
        );
        kept++;
        if (kept >= batchSize) {
          release++;
          kept = 0;
        }
      }
      await client.query(
        `UPDATE decisions SET reward_state = ${keep ? STATE_CODE.pending : STATE_CODE.dropped}, reward = $1, reward_source = $2 WHERE model = $3 AND event_id = $4`,
        [input.logReward ? input.reward : null, input.source, model, input.eventId],
      );
      await client.query(
        'INSERT INTO decision_units (model, event_id, unit) VALUES ($1, $2, $3) ON CONFLICT (model, event_id) DO NOTHING',
        [model, input.eventId, input.unit],
      );
      await this.unitInTx(client, model, {
        unit: input.unit,
        count: r.count,
        dropped: keep ? null : r.dropped,
        expireBefore: epoch > openEpoch ? epoch : null,
        openEpoch: epoch,
      });
      await client.query(
        `INSERT INTO unit_open (model, release, kept, epoch) VALUES ($1, $2, $3, $4)
         ON CONFLICT (model) DO UPDATE SET release = EXCLUDED.release, kept = EXCLUDED.kept, epoch = EXCLUDED.epoch`,
        [model, release, kept, epoch],
      );
      const due = await client.query<{ n: number }>(
        'SELECT COUNT(DISTINCT release)::int AS n FROM unit_pending WHERE model = $1 AND release < $2',
        [model, release],
      );
      await client.query('COMMIT');
      return { outcome: 'recorded', dropped: keep ? null : r.dropped, due: due.rows[0]?.n ?? 0 };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** See {@link ReplicaStore.releaseUnitGroup}: the oldest closed group, under the model row lock. */
  async releaseUnitGroup(
    model: string,
    time: number,
    compute: ComputeUnitRelease,
  ): Promise<LedgerRow | null> {
    return this.tx(async (client) => {
      const cur = await readReleased(client, model, 'lock');
      if (cur === undefined) return null;
      const g = await client.query<{ release: number; epoch: number }>(
        `SELECT p.release, p.epoch FROM unit_pending p JOIN unit_open o ON o.model = p.model
         WHERE p.model = $1 AND p.release < o.release ORDER BY p.release LIMIT 1`,
        [model],
      );
      const group = g.rows[0];
      if (group === undefined) return null;
      const rows = await client.query<{
        seq: number;
        event_id: string;
        reward: number;
        features: Buffer;
        unit: string;
      }>(
        `SELECT r.seq, r.event_id, r.reward, r.features, d.unit FROM pending_rewards r
         JOIN unit_pending p ON p.model = r.model AND p.event_id = r.event_id
         JOIN decision_units d ON d.model = r.model AND d.event_id = r.event_id
         WHERE r.model = $1 AND p.release = $2 ORDER BY r.seq`,
        [model, group.release],
      );
      const pending: PendingReward[] = rows.rows.map((r) => ({
        eventId: r.event_id,
        reward: r.reward,
        features: blobToFloat64(r.features),
        unit: r.unit,
      }));
      const release = await compute(
        { snapshot: cur.snapshot, version: cur.version, rounds: cur.rounds, pending },
        { release: group.release, epoch: group.epoch },
      );
      if (release === null) return null;
      return this.commitPending(client, model, cur.version, release, rows.rows, pending, time, () =>
        client.query('DELETE FROM unit_pending WHERE model = $1 AND release = $2', [model, group.release]),
      );
    });
  }

  async unitGroupsDue(model: string): Promise<number> {
    const r = await this.pool.query<{ n: number }>(
      `SELECT COUNT(DISTINCT p.release)::int AS n FROM unit_pending p JOIN unit_open o ON o.model = p.model
       WHERE p.model = $1 AND p.release < o.release`,
      [model],
    );
    return r.rows[0]?.n ?? 0;
  }

  /**
   * A decision serialised with the model's learning (DGS-LinUCB, whose select after new data
   * releases): under the model row lock, `compute` decides from the last released state; the
   * decision row and, when it released, the new snapshot, the ledger row (0 rewards) and the version
   * + 1 commit together. When the event id exists, nothing is written: the release computed for it
   * is rolled back with it and its noise never leaves the process.
   */
  async decideSerialised(
    model: string,
    time: number,
    compute: ComputeDecision,
  ): Promise<SerialisedDecision | null> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const cur = await readReleased(client, model, 'lock');
      if (cur === undefined) {
        await client.query('ROLLBACK');
        return null;
      }
      const out = await compute({ version: cur.version, rounds: cur.rounds, snapshot: cur.snapshot });
      if (!(await this.insertDecisionRow(client, out.decision))) {
        await client.query('ROLLBACK');
        return { inserted: false, release: null };
      }
      let release: LedgerRow | null = null;
      const r = out.release;
      if (r !== null) {
        if (r.version !== cur.version + 1) {
          throw new StoreConflictError(
            `release version ${r.version} of model '${model}' does not follow the stored version ${cur.version}.`,
          );
        }
        await this.commitRelease(client, model, r, time, [], 'decision');
        release = ledgerRow(model, r, time, 0);
      }
      await client.query('COMMIT');
      return { inserted: true, release };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** The last released state of a model (version, rounds, snapshot; no raw reward), or null. */
  async releasedState(model: string): Promise<ReleasedState | null> {
    return (await readReleased(this.pool, model, 'read')) ?? null;
  }

  /** Rewards of a model waiting for their release (counted, never read). */
  async pendingCount(model: string): Promise<number> {
    const r = await this.pool.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM pending_rewards WHERE model = $1',
      [model],
    );
    return r.rows[0]?.n ?? 0;
  }

  /**
   * Calls `listener(model, version)` for every release committed from now on, by any replica
   * (LISTEN on {@link RELEASE_CHANNEL}, one dedicated connection). Resolves once listening; the
   * returned function stops it. A notification can be missed while the connection is down: a
   * replica also checks {@link modelVersion} periodically (docs/serving-replicas.md).
   */
  async onRelease(
    listener: (model: string, version: number) => void,
    onError: (err: Error) => void = () => {},
  ): Promise<() => Promise<void>> {
    const client = new pg.Client({ connectionString: this.connectionString, types: TYPES });
    client.on('error', onError);
    client.on('notification', (n) => {
      if (n.channel !== RELEASE_CHANNEL || n.payload === undefined) return;
      const at = n.payload.indexOf(':');
      listener(n.payload.slice(at + 1), Number(n.payload.slice(0, at)));
    });
    // kept from the start, so that a close() during the connection ends it too (a LISTEN connection
    // left open by a failed start kept the process alive: a replica that neither listened nor exited)
    this.listeners.add(client);
    try {
      await client.connect();
      await client.query(`LISTEN ${RELEASE_CHANNEL}`);
    } catch (err) {
      this.listeners.delete(client);
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      this.listeners.delete(client);
      await client.end().catch(() => {});
    }
    return async () => {
      if (!this.listeners.delete(client)) return;
      await client.end();
    };
  }

  async expiredDecisions(model: string, before: number, limit: number): Promise<readonly DecisionRow[]> {
    const r = await this.pool.query<DecisionDb>(
      `${DECISION_WITH_UNIT} WHERE d.model = $1 AND d.reward_state = 0 AND d.time < $2 ORDER BY d.time, d.seq LIMIT $3`,
      [model, before, limit],
    );
    return r.rows.map(toDecision);
  }

  async loadModelState(model: string): Promise<ModelState | null> {
    const client = await this.pool.connect();
    try {
      // one snapshot of the database for both reads
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const cur = await readReleased(client, model, 'read');
      if (cur === undefined) {
        await client.query('COMMIT');
        return null;
      }
      const rows = await client.query<{
        event_id: string;
        reward: number;
        features: Buffer;
        unit: string | null;
      }>(
        `SELECT p.event_id, p.reward, p.features, u.unit FROM pending_rewards p
         LEFT JOIN decision_units u ON u.model = p.model AND u.event_id = p.event_id
         WHERE p.model = $1 ORDER BY p.seq`,
        [model],
      );
      await client.query('COMMIT');
      return {
        snapshot: cur.snapshot,
        version: cur.version,
        rounds: cur.rounds,
        pending: rows.rows.map((r) => ({
          eventId: r.event_id,
          reward: r.reward,
          features: blobToFloat64(r.features),
          unit: r.unit,
        })),
      };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async ledger(model: string): Promise<readonly LedgerRow[]> {
    const r = await this.pool.query<LedgerDb>('SELECT * FROM ledger WHERE model = $1 ORDER BY version', [
      model,
    ]);
    return r.rows.map(toLedger);
  }

  async counts(model: string): Promise<ModelCounts> {
    const r = await this.pool.query<{ d: number; p: number; r: number; f: number }>(
      `SELECT (SELECT COUNT(*) FROM decisions WHERE model = $1) AS d,
              (SELECT COUNT(*) FROM pending_rewards WHERE model = $1) AS p,
              (SELECT COALESCE(SUM(rewards), 0)::bigint FROM ledger WHERE model = $1) AS r,
              (SELECT COUNT(*) FROM decisions WHERE model = $1 AND reward_source = 'default') AS f`,
      [model],
    );
    const row = r.rows[0]!;
    return { decisions: row.d, pendingRewards: row.p, releasedRewards: row.r, defaultRewards: row.f };
  }

  async exportDecisions(model: string, options: ExportOptions): Promise<readonly DecisionRow[]> {
    const r = await this.pool.query<DecisionDb>(
      `${DECISION_WITH_UNIT} WHERE d.model = $1 AND d.seq > $2 ORDER BY d.seq LIMIT $3`,
      [model, options.afterSeq ?? 0, options.limit],
    );
    return r.rows.map(toDecision);
  }

  async decisionFeaturesAt(
    model: string,
    version: number,
  ): Promise<readonly { features: Float64Array; clipped: number | null }[]> {
    const r = await this.pool.query<{ features: Buffer; clipped: number | null }>(
      'SELECT features, clipped FROM decisions WHERE model = $1 AND model_version = $2 ORDER BY seq',
      [model, version],
    );
    return r.rows.map((row) => ({ features: blobToFloat64(row.features), clipped: row.clipped }));
  }

  /** Every write commits inside its call: nothing to wait for. */
  async durable(): Promise<void> {}

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /**
   * Not done by the service on PostgreSQL: back up with the database's own tools (pg_dump for a
   * consistent logical copy, or base backups with WAL archiving), which also cover the replicas.
   */
  async backup(_path: string): Promise<void> {
    throw new Error(
      'PostgresStore: backup is done with PostgreSQL tools (pg_dump, or base backups with WAL archiving); see docs/serving-replicas.md.',
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.analyzing;
    await Promise.all([...this.listeners].map((c) => c.end().catch(() => {})));
    this.listeners.clear();
    await this.pool.end();
  }
}
