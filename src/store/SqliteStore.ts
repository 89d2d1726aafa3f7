/**
 * The SQLite engine of {@link Store} (better-sqlite3, WAL journal). Synchronous inside: every method
 * has finished its transaction when it returns, so in one Node process no request ever sees
 * uncommitted state. One server process per database file.
 *
 * Durability: `synchronous: 'normal'` (default) survives a crash or SIGKILL of the process (a
 * committed transaction is in the WAL file); `'full'` also survives power loss (fsync on each
 * commit), at a cost measured in docs/serving.md.
 */
import Database from 'better-sqlite3';
import {
  type DecisionDb,
  type LedgerDb,
  type ModelDb,
  STATE_CODE,
  toDecision,
  toLedger,
  toModel,
} from './dbRows.js';
import { blobToFloat64, float64ToBlob } from './float64Blob.js';
import type { DecisionRow, LedgerRow, ModelRow, NewModelRow, PendingReward, ReleaseInput } from './rows.js';
import type {
  ExportOptions,
  ModelCounts,
  ModelState,
  RecordRewardOutcome,
  RewardInput,
  Store,
} from './Store.js';
import { StoreConflictError } from './StoreConflictError.js';

/** Version of the schema below (kept in the `meta` table; a newer file is refused). */
export const SQLITE_SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS models (
  name TEXT PRIMARY KEY,
  policy TEXT NOT NULL,
  options TEXT NOT NULL,
  settings TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  version INTEGER NOT NULL DEFAULT 0,
  rounds INTEGER NOT NULL DEFAULT 0,
  snapshot TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS decisions (
  seq INTEGER PRIMARY KEY,
  model TEXT NOT NULL,
  event_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  arm_ids TEXT NOT NULL,
  features BLOB NOT NULL,
  dim INTEGER NOT NULL,
  chosen INTEGER NOT NULL,
  chosen_features BLOB NOT NULL,
  probabilities TEXT NOT NULL,
  model_version INTEGER NOT NULL,
  reward_state INTEGER NOT NULL DEFAULT 0,
  reward REAL,
  reward_source TEXT,
  release INTEGER
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS decisions_event ON decisions (model, event_id);
CREATE INDEX IF NOT EXISTS decisions_open ON decisions (model, time) WHERE reward_state = 0;
CREATE TABLE IF NOT EXISTS pending_rewards (
  seq INTEGER PRIMARY KEY,
  model TEXT NOT NULL,
  event_id TEXT NOT NULL,
  reward REAL NOT NULL,
  features BLOB NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS pending_model ON pending_rewards (model, seq);
CREATE TABLE IF NOT EXISTS ledger (
  model TEXT NOT NULL,
  version INTEGER NOT NULL,
  time INTEGER NOT NULL,
  releases INTEGER NOT NULL,
  rounds INTEGER NOT NULL,
  rewards INTEGER NOT NULL,
  spent TEXT NOT NULL,
  PRIMARY KEY (model, version)
) STRICT;
`;

/** Options of {@link SqliteStore.open}. */
export interface SqliteStoreOptions {
  /** 'normal' (default: survives a process crash) or 'full' (fsync per commit: survives power loss). */
  readonly synchronous?: 'normal' | 'full';
  /**
   * Test hook: called inside a release transaction, after every write and before the commit (the
   * crash test kills the process here to check that an uncommitted release is never counted).
   */
  readonly beforeReleaseCommit?: () => void;
}

export class SqliteStore implements Store {
  readonly engine = 'sqlite';
  private readonly db: Database.Database;
  private readonly hook: (() => void) | null;
  private readonly st: ReturnType<SqliteStore['prepare']>;
  private readonly recordTx: (input: RewardInput, release: ReleaseInput | null) => RecordRewardOutcome;

  private constructor(db: Database.Database, options: SqliteStoreOptions) {
    this.db = db;
    this.hook = options.beforeReleaseCommit ?? null;
    this.st = this.prepare();
    this.recordTx = db.transaction((input: RewardInput, release: ReleaseInput | null) =>
      this.recordInTx(input, release),
    );
  }

  /**
   * Opens (and creates or migrates) the database file at `path` (':memory:' for a private in-memory
   * database). Refuses a file written by a newer schema.
   *
   * @example
   * const store = SqliteStore.open('./adaprivate.db'); // WAL journal, synchronous = NORMAL
   */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    const sync = options.synchronous ?? 'normal';
    if (sync !== 'normal' && sync !== 'full') {
      throw new RangeError(
        `SqliteStore: synchronous must be 'normal' or 'full'. Got ${JSON.stringify(sync)}.`,
      );
    }
    const db = new Database(path);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${sync.toUpperCase()}`);
      db.pragma('busy_timeout = 5000');
      db.exec(SCHEMA);
      const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
        | { value: string }
        | undefined;
      if (row === undefined) {
        db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(
          String(SQLITE_SCHEMA_VERSION),
        );
      } else if (Number(row.value) > SQLITE_SCHEMA_VERSION) {
        throw new RangeError(
          `SqliteStore: ${path} has schema version ${row.value}; this version of adaprivate reads up to ${SQLITE_SCHEMA_VERSION}.`,
        );
      }
    } catch (err) {
      db.close();
      throw err;
    }
    return new SqliteStore(db, options);
  }

  private prepare() {
    const db = this.db;
    return {
      insertModel: db.prepare(
        'INSERT INTO models (name, policy, options, settings, created_at, version, snapshot) VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (name) DO NOTHING',
      ),
      getModel: db.prepare('SELECT * FROM models WHERE name = ?'),
      listModels: db.prepare('SELECT * FROM models ORDER BY name'),
      insertDecision: db.prepare(
        `INSERT INTO decisions (model, event_id, time, arm_ids, features, dim, chosen, chosen_features, probabilities, model_version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (model, event_id) DO NOTHING`,
      ),
      getDecision: db.prepare('SELECT * FROM decisions WHERE model = ? AND event_id = ?'),
      decisionState: db.prepare(
        'SELECT reward_state, chosen_features FROM decisions WHERE model = ? AND event_id = ?',
      ),
      insertPending: db.prepare(
        'INSERT INTO pending_rewards (model, event_id, reward, features) VALUES (?, ?, ?, ?)',
      ),
      markPending: db.prepare(
        'UPDATE decisions SET reward_state = 1, reward = ?, reward_source = ? WHERE model = ? AND event_id = ?',
      ),
      modelVersion: db.prepare('SELECT version FROM models WHERE name = ?'),
      pendingCount: db.prepare('SELECT COUNT(*) AS n FROM pending_rewards WHERE model = ?'),
      markReleased: db.prepare(
        `UPDATE decisions SET reward_state = 2, release = ?
         WHERE model = ? AND event_id IN (SELECT event_id FROM pending_rewards WHERE model = ?)`,
      ),
      deletePending: db.prepare('DELETE FROM pending_rewards WHERE model = ?'),
      insertLedger: db.prepare(
        'INSERT INTO ledger (model, version, time, releases, rounds, rewards, spent) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      setSnapshot: db.prepare('UPDATE models SET version = ?, rounds = ?, snapshot = ? WHERE name = ?'),
      expired: db.prepare(
        'SELECT * FROM decisions WHERE model = ? AND reward_state = 0 AND time < ? ORDER BY time, seq LIMIT ?',
      ),
      pending: db.prepare(
        'SELECT event_id, reward, features FROM pending_rewards WHERE model = ? ORDER BY seq',
      ),
      ledger: db.prepare('SELECT * FROM ledger WHERE model = ? ORDER BY version'),
      countDecisions: db.prepare('SELECT COUNT(*) AS n FROM decisions WHERE model = ?'),
      countReleased: db.prepare('SELECT COALESCE(SUM(rewards), 0) AS n FROM ledger WHERE model = ?'),
      countDefault: db.prepare(
        "SELECT COUNT(*) AS n FROM decisions WHERE model = ? AND reward_source = 'default'",
      ),
      exportRows: db.prepare('SELECT * FROM decisions WHERE model = ? AND seq > ? ORDER BY seq LIMIT ?'),
      ping: db.prepare('SELECT 1 AS one'),
    };
  }

  async createModel(row: NewModelRow): Promise<{ readonly created: boolean; readonly model: ModelRow }> {
    const r = this.st.insertModel.run(
      row.name,
      row.policy,
      JSON.stringify(row.options),
      JSON.stringify(row.settings),
      row.createdAt,
      row.snapshot,
    );
    const model = toModel(this.st.getModel.get(row.name) as ModelDb);
    return { created: r.changes === 1, model };
  }

  async getModel(name: string): Promise<ModelRow | null> {
    const r = this.st.getModel.get(name) as ModelDb | undefined;
    return r === undefined ? null : toModel(r);
  }

  async listModels(): Promise<readonly ModelRow[]> {
    return (this.st.listModels.all() as ModelDb[]).map(toModel);
  }

  async insertDecision(row: DecisionRow): Promise<boolean> {
    const r = this.st.insertDecision.run(
      row.model,
      row.eventId,
      row.time,
      JSON.stringify(row.armIds),
      float64ToBlob(row.features),
      row.dim,
      row.chosen,
      float64ToBlob(row.chosenFeatures),
      JSON.stringify(row.probabilities),
      row.modelVersion,
    );
    return r.changes === 1;
  }

  async getDecision(model: string, eventId: string): Promise<DecisionRow | null> {
    const r = this.st.getDecision.get(model, eventId) as DecisionDb | undefined;
    return r === undefined ? null : toDecision(r);
  }

  async recordReward(input: RewardInput, release: ReleaseInput | null): Promise<RecordRewardOutcome> {
    return this.recordTx(input, release);
  }

  private recordInTx(input: RewardInput, release: ReleaseInput | null): RecordRewardOutcome {
    const st = this.st;
    const d = st.decisionState.get(input.model, input.eventId) as
      | { reward_state: number; chosen_features: Buffer }
      | undefined;
    if (d === undefined) return 'unknown-event';
    if (d.reward_state !== STATE_CODE.none) return 'duplicate';
    st.insertPending.run(input.model, input.eventId, input.reward, d.chosen_features);
    st.markPending.run(input.logReward ? input.reward : null, input.source, input.model, input.eventId);
    if (release !== null) {
      const cur = st.modelVersion.get(input.model) as { version: number } | undefined;
      if (cur === undefined || release.version !== cur.version + 1) {
        throw new StoreConflictError(
          `release version ${release.version} of model '${input.model}' does not follow the stored version ${cur?.version ?? 'none'} (already released).`,
        );
      }
      const n = (st.pendingCount.get(input.model) as { n: number }).n;
      st.markReleased.run(release.version, input.model, input.model);
      st.deletePending.run(input.model);
      st.insertLedger.run(
        input.model,
        release.version,
        input.time,
        release.releases,
        release.rounds,
        n,
        JSON.stringify(release.spent),
      );
      st.setSnapshot.run(release.version, release.rounds, release.snapshot, input.model);
      if (this.hook !== null) this.hook();
    }
    return 'recorded';
  }

  async expiredDecisions(model: string, before: number, limit: number): Promise<readonly DecisionRow[]> {
    return (this.st.expired.all(model, before, limit) as DecisionDb[]).map(toDecision);
  }

  async loadModelState(model: string): Promise<ModelState | null> {
    const read = this.db.transaction(() => {
      const m = this.st.getModel.get(model) as ModelDb | undefined;
      if (m === undefined) return null;
      const rows = this.st.pending.all(model) as { event_id: string; reward: number; features: Buffer }[];
      const pending: PendingReward[] = rows.map((r) => ({
        eventId: r.event_id,
        reward: r.reward,
        features: blobToFloat64(r.features),
      }));
      return { snapshot: m.snapshot, version: m.version, rounds: m.rounds, pending };
    });
    return read();
  }

  async ledger(model: string): Promise<readonly LedgerRow[]> {
    return (this.st.ledger.all(model) as LedgerDb[]).map(toLedger);
  }

  async counts(model: string): Promise<ModelCounts> {
    const n = (s: Database.Statement) => (s.get(model) as { n: number }).n;
    return {
      decisions: n(this.st.countDecisions),
      pendingRewards: n(this.st.pendingCount),
      releasedRewards: n(this.st.countReleased),
      defaultRewards: n(this.st.countDefault),
    };
  }

  async exportDecisions(model: string, options: ExportOptions): Promise<readonly DecisionRow[]> {
    const rows = this.st.exportRows.all(model, options.afterSeq ?? 0, options.limit) as DecisionDb[];
    return rows.map(toDecision);
  }

  async ping(): Promise<void> {
    this.st.ping.get();
  }

  async backup(path: string): Promise<void> {
    await this.db.backup(path);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
