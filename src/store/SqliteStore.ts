/**
 * The SQLite engine of {@link Store} (better-sqlite3, WAL journal). Synchronous inside: every method
 * has run its statements when it returns, on the store's one connection, so every later call sees
 * its writes. Without group commit each write is also committed then; with it (below), writes are
 * committed with their group, and {@link SqliteStore.durable} says when. One server process per
 * database file.
 *
 * Durability: `synchronous: 'normal'` (default) survives a crash or SIGKILL of the process (a
 * committed transaction is in the WAL file); `'full'` also survives power loss (fsync on each
 * commit), at a cost measured in docs/serving.md.
 *
 * Group commit (`groupCommit: true`, what the server uses): the writes of concurrent requests run in
 * one open transaction, each atomic by itself (one statement, or a `db.transaction` function, which
 * runs as a savepoint inside the group: a failed write undoes only itself), committed when a turn of
 * the event loop has passed without a new write (checked with `setImmediate`, at most
 * `groupCommitLingerTurns` turns after the first write) or after `groupCommitMaxWrites` writes. A
 * commit costs about 8 us plus two `pwrite` calls per page it writes (a WAL frame's header, then
 * the page) and, with the `BEGIN` that opens the next group, six `fcntl` locks on the WAL index
 * (`strace`, session 25). The requests of a busy server arrive a few per turn: lingering while they
 * keep coming makes fewer, larger commits (session 16: 4.2 -> 6.3 writes per commit under
 * `npm run loadtest`). {@link SqliteStore.durable} resolves at that commit. If a commit fails,
 * everything in its group is rolled back and the store refuses every later call (fail-stop:
 * the in-memory state of the server may be ahead of the database; a restart rebuilds it).
 *
 * Background checkpoints (`checkpoint: 'background'`, what the server uses): SQLite copies the WAL
 * into the database every 1000 pages, inside the commit that crosses the mark, and that copy waits
 * for two fsync calls (about 8 ms here, half the commit time of a loaded server). With this option
 * a worker thread with its own connection does it instead (./checkpointWorker.ts, PASSIVE mode: it
 * never blocks a write), asked every {@link CHECKPOINT_EVERY_COMMITS} commits. Under a steady load
 * a PASSIVE checkpoint never catches up with the newest frames, so the WAL would not restart; when
 * the worker reports more than `walLimitPages` frames, the store's own thread checkpoints after its
 * next commit (after the next ones while the worker holds the checkpoint lock; the worker has
 * already copied and synced nearly all of the frames), and the WAL starts again from its beginning.
 * If the worker fails, SQLite's own checkpoints come back.
 *
 * One server per file (`lock: true`): an exclusive SQLite lock on `<real path>.lock`, taken before
 * the database is opened (./takeDatabaseLock.ts: any path to the file names the same lock; a refused
 * store writes nothing), held until `close()` and released by the kernel when the process dies (a
 * crashed server's lock never blocks a restart); the owner's pid, host and start time are kept in
 * the `meta` table for the error message.
 *
 * Data at rest: a missing database file is created 0600 (./prepareDatabaseFile.ts; the WAL and
 * shared-memory files take its mode); `secure_delete` is on and a commit with a release is followed
 * by a TRUNCATE checkpoint (at most one per `scrubIntervalMs`), so released raw rewards leave the
 * files ({@link SqliteStore.scrubbed}). In background mode the worker first checkpoints without a
 * lock, then asks for the write lock: the store commits its open group and holds new writes (they
 * run in call order at the TRUNCATE's report), so its thread never sleeps in SQLite's busy handler
 * (1, 2, 5, 10 ms steps: the 21 ms p99 of the load test) waiting for the worker.
 */
import { renameSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { CheckpointReady, CheckpointReport } from './checkpointWorker.js';
import {
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
import { ModelDeletedError } from './ModelDeletedError.js';
import { newModelValues } from './newModelValues.js';
import { prepareDatabaseFile } from './prepareDatabaseFile.js';
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
  Store,
} from './Store.js';
import { StoreConflictError } from './StoreConflictError.js';
import { appliesTo, MIGRATIONS, migrationStatements, schemaVersionOf } from './schema.js';
import { takeDatabaseLock } from './takeDatabaseLock.js';

/**
 * The store format this version writes and reads (`meta.schema_version`): the schema's version
 * (./schema.ts), independent of the package version. Older files are brought to it by the schema's
 * migration steps when opened; a newer file is refused with a message naming both versions.
 */
export const SQLITE_SCHEMA_VERSION: number = schemaVersionOf('sqlite');

/** The format version of an open database (0: a new file without tables). */
function readFormatVersion(db: Database.Database): number {
  const meta = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (meta === undefined) return 0;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
    | { value: string }
    | undefined;
  return row === undefined ? 0 : Number(row.value);
}

/**
 * Brings the database to {@link SQLITE_SCHEMA_VERSION}, one migration step per transaction (each
 * records its version), and returns the version it found. Refuses a newer file.
 */
function migrateSqlite(db: Database.Database, path: string): number {
  const from = readFormatVersion(db);
  if (!Number.isSafeInteger(from) || from < 0 || from > SQLITE_SCHEMA_VERSION) {
    throw new RangeError(
      `SqliteStore: ${path} has schema version ${from}; this version of adaprivate reads up to ${SQLITE_SCHEMA_VERSION} (a newer adaprivate wrote it: upgrade, or restore a backup taken before that upgrade).`,
    );
  }
  for (const m of MIGRATIONS.slice(from)) {
    if (!appliesTo(m, 'sqlite')) continue;
    db.transaction(() => {
      for (const sql of migrationStatements(m, 'sqlite')) db.exec(sql);
      db.prepare(
        "INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      ).run(String(m.version));
    })();
  }
  return from;
}

/** Options of {@link SqliteStore.open}. */
export interface SqliteStoreOptions {
  /** 'normal' (default: survives a process crash) or 'full' (fsync per commit: survives power loss). */
  readonly synchronous?: 'normal' | 'full';
  /**
   * Test hook: called inside a release transaction, after every write and before the commit (the
   * crash test kills the process here to check that an uncommitted release is never counted).
   */
  readonly beforeReleaseCommit?: () => void;
  /** Group the writes of concurrent calls into one transaction (default false: one per write). */
  readonly groupCommit?: boolean;
  /** With `groupCommit`: commit at once after this many writes (default 256). */
  readonly groupCommitMaxWrites?: number;
  /**
   * With `groupCommit`: the most turns of the event loop that an open group waits for more writes
   * while each turn brings some (default 4; 0: commit at the end of the turn of the first write).
   */
  readonly groupCommitLingerTurns?: number;
  /** Refuse to open a file another process (or store) holds; see the class comment (default false). */
  readonly lock?: boolean;
  /**
   * 'auto' (default): SQLite checkpoints the WAL in the commit that crosses 1000 pages. 'background':
   * a worker thread does (see the class comment); ignored for ':memory:'.
   */
  readonly checkpoint?: 'auto' | 'background';
  /** With background checkpoints: WAL frames after which the store's own thread checkpoints (default 16384). */
  readonly walLimitPages?: number;
  /**
   * Minimum milliseconds between two scrubs, the TRUNCATE checkpoints that take released raw rewards
   * out of the WAL (see the class comment); default 1000. A scrub holds the write lock for two fsync
   * calls (10-15 ms on a loaded machine), and a busy model releases many times a second.
   */
  readonly scrubIntervalMs?: number;
}

/** Most reward targets kept in memory (see `SqliteStore.targets`): ~1 MB at d = 20. */
export const TARGET_CACHE_SIZE = 4096;

/** The key of a decision in the reward-target cache (NUL separates: no model name holds one). */
function targetKey(model: string, eventId: string): string {
  return `${model}\u0000${eventId}`;
}

/** With background checkpoints: commits between two requests to the checkpoint worker. */
export const CHECKPOINT_EVERY_COMMITS = 64;
/**
 * The seqs of the decisions that retention removes (parameters: model, before, model, before,
 * openBefore): settled ones older than `before` on the partial index `decisions_settled`, open ones
 * older than both bounds on `decisions_open` (schema 6; before it, one index on every decision's time
 * took a page write in nearly every commit).
 */
const EXPIRED_SEQS = `SELECT seq FROM decisions WHERE model = ? AND reward_state IN (2, 3) AND time < ?
  UNION ALL SELECT seq FROM decisions WHERE model = ? AND reward_state = 0 AND time < ? AND time < ?`;
/** The index of `features` in {@link decisionValues}. */
const FEATURES_VALUE = 4;
/** `decisions.features` of a row whose features are in `decision_features` (schema 6). */
const NO_FEATURES = Buffer.alloc(0);
/**
 * A decision with its unit, as DECISION_WITH_UNIT, its features read from `decision_features`
 * (schema 6) or, for a row written before, from the row itself.
 */
const SQLITE_DECISION_WITH_UNIT = `SELECT d.seq, d.model, d.event_id, d.time, d.arm_ids,
  COALESCE(f.features, d.features) AS features, d.dim, d.chosen, d.chosen_features, d.probabilities,
  d.model_version, d.reward_state, d.reward, d.reward_source, d.release, d.clipped, u.unit
  FROM decisions d LEFT JOIN decision_features f ON f.seq = d.seq
  LEFT JOIN decision_units u ON u.model = d.model AND u.event_id = d.event_id`;
/** The default of `groupCommitLingerTurns` (4: measured against 0, 2, 8 and 16 in session 16). */
const DEFAULT_LINGER_TURNS = 4;

/** Default of {@link SqliteStoreOptions.scrubIntervalMs}. */
const DEFAULT_SCRUB_INTERVAL_MS = 1000;

/** Default of {@link SqliteStoreOptions.walLimitPages} (64 MiB at 4 KiB pages). */
const DEFAULT_WAL_LIMIT_PAGES = 16384;

/** An open group of writes: committed together; its promise resolves at the commit. */
interface WriteGroup {
  writes: number;
  readonly done: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

function newGroup(): WriteGroup {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // a group nobody waits for must not become an unhandled rejection (the failure is kept on the store)
  done.catch(() => undefined);
  return { writes: 0, done, resolve, reject };
}

export class SqliteStore implements Store {
  readonly engine = 'sqlite';
  private readonly db: Database.Database;
  private readonly hook: (() => void) | null;
  private readonly st: ReturnType<SqliteStore['prepare']>;
  /** The arrival number of the newest pending reward (decisions.pending_seq; schema 8). */
  private pendingSeq: number;
  private readonly recordTx: (
    input: RewardInput,
    release: ReleaseInput | null,
    unit: UnitWrite | null,
  ) => RecordRewardOutcome;
  private readonly decisionTx: (row: DecisionRow, release: ReleaseInput | null) => boolean;
  private readonly grouping: boolean;
  private readonly maxWrites: number;
  private readonly lingerTurns: number;
  /** Group commits made (for tests and benchmarks: writes per commit = writes / commits). */
  private groupCommits = 0;
  private readonly lockDb: Database.Database | null;
  private group: WriteGroup | null = null;
  /** The first failed group commit: every later call is refused. */
  private failure: Error | null = null;
  /** The background checkpointer (null: SQLite's own checkpoints). */
  private checkpointer: Worker | null = null;
  private readonly walLimit: number;
  private commits = 0;
  /** WAL frames at the start of the worker's last checkpoint. */
  private walFrames = 0;
  private catchUps = 0;
  /** A release committed whose deleted raw rewards may still be in the WAL (until a TRUNCATE checkpoint). */
  private unscrubbed = false;
  /** Committed releases (counted for the scrub below). */
  private releaseCommits = 0;
  /** `releaseCommits` when the running TRUNCATE checkpoint was asked of the worker (-1: none runs). */
  private scrubAsked = -1;
  private scrubWaiters: (() => void)[] = [];
  /** Minimum milliseconds between two scrubs (`scrubIntervalMs`). */
  private readonly scrubInterval: number;
  /** `performance.now()` when the last scrub was asked for. */
  private scrubAt = Number.NEGATIVE_INFINITY;
  /** The timer of a scrub that waits for `scrubInterval` to pass. */
  private scrubTimer: NodeJS.Timeout | null = null;

  private constructor(
    db: Database.Database,
    options: SqliteStoreOptions,
    lockDb: Database.Database | null,
    path: string,
  ) {
    this.db = db;
    this.lockDb = lockDb;
    this.walLimit = options.walLimitPages ?? DEFAULT_WAL_LIMIT_PAGES;
    this.scrubInterval = options.scrubIntervalMs ?? DEFAULT_SCRUB_INTERVAL_MS;
    if (options.checkpoint === 'background' && path !== ':memory:') this.startCheckpointer(path);
    this.hook = options.beforeReleaseCommit ?? null;
    this.grouping = options.groupCommit === true;
    this.maxWrites = options.groupCommitMaxWrites ?? 256;
    this.lingerTurns = options.groupCommitLingerTurns ?? DEFAULT_LINGER_TURNS;
    this.st = this.prepare();
    this.pendingSeq = (this.st.lastPendingSeq.get() as { n: number }).n;
    this.recordTx = db.transaction(
      (input: RewardInput, release: ReleaseInput | null, unit: UnitWrite | null) =>
        this.recordInTx(input, release, unit),
    );
    this.decisionTx = db.transaction((row: DecisionRow, release: ReleaseInput | null) => {
      const ok = this.insertDecisionRow(row);
      if (release !== null) this.releaseInTx(row.model, release, row.time);
      return ok;
    });
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
    const maxWrites = options.groupCommitMaxWrites ?? 256;
    if (!Number.isSafeInteger(maxWrites) || maxWrites < 1) {
      throw new RangeError(
        `SqliteStore: groupCommitMaxWrites must be a positive integer. Got ${String(maxWrites)}.`,
      );
    }
    const linger = options.groupCommitLingerTurns ?? DEFAULT_LINGER_TURNS;
    if (!Number.isSafeInteger(linger) || linger < 0) {
      throw new RangeError(
        `SqliteStore: groupCommitLingerTurns must be a non-negative integer. Got ${String(linger)}.`,
      );
    }
    const walLimit = options.walLimitPages ?? DEFAULT_WAL_LIMIT_PAGES;
    if (!Number.isSafeInteger(walLimit) || walLimit < 1) {
      throw new RangeError(`SqliteStore: walLimitPages must be a positive integer. Got ${String(walLimit)}.`);
    }
    const scrubInterval = options.scrubIntervalMs ?? DEFAULT_SCRUB_INTERVAL_MS;
    if (!Number.isSafeInteger(scrubInterval) || scrubInterval < 0) {
      throw new RangeError(
        `SqliteStore: scrubIntervalMs must be a non-negative integer. Got ${String(scrubInterval)}.`,
      );
    }
    const checkpoint = options.checkpoint ?? 'auto';
    if (checkpoint !== 'auto' && checkpoint !== 'background') {
      throw new RangeError(
        `SqliteStore: checkpoint must be 'auto' or 'background'. Got ${JSON.stringify(checkpoint)}.`,
      );
    }
    let lockDb: Database.Database | null = null;
    if (path !== ':memory:') {
      // before SQLite opens the file: created 0600, and a refused second server writes nothing
      const file = prepareDatabaseFile(path);
      if (options.lock === true) lockDb = takeDatabaseLock(path, file);
    }
    let db: Database.Database;
    let formatFound = 0;
    try {
      db = new Database(path);
    } catch (err) {
      lockDb?.close();
      throw err;
    }
    try {
      db.pragma('journal_mode = WAL');
      // deleted rows (raw rewards at their release) are overwritten in the file, not left in free space
      db.pragma('secure_delete = ON');
      // statement journals (and any temporary table or index) in memory, never in a temporary file:
      // a multi-row statement inside a group's transaction (a release's UPDATE) copies every page it
      // changes, raw pending rewards included, to its statement journal, and SQLite spills that
      // journal to an unlinked file past 64 KB, which secure_delete does not cover; it also cost two
      // pwrite calls per page (docs/performance.md, "Issue 29 in session 23")
      db.pragma('temp_store = MEMORY');
      db.pragma(`synchronous = ${sync.toUpperCase()}`);
      db.pragma('busy_timeout = 5000');
      formatFound = migrateSqlite(db, path);
      if (lockDb !== null) {
        const owner = `pid ${process.pid} on ${hostname()}, started ${new Date().toISOString()}`;
        db.prepare(
          "INSERT INTO meta (key, value) VALUES ('owner', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        ).run(owner);
      }
    } catch (err) {
      lockDb?.close();
      db.close();
      throw err;
    }
    const store = new SqliteStore(db, options, lockDb, path);
    store.formatFound = formatFound;
    return store;
  }

  /** The store format this version writes ({@link SQLITE_SCHEMA_VERSION}). */
  static readonly FORMAT_VERSION: number = SQLITE_SCHEMA_VERSION;

  /** The format version the file had when opened (0: new); {@link formatVersion} is the current one. */
  formatFound = 0;

  /** The file's store format version now (after the migration steps run at open). */
  get formatVersion(): number {
    return this.read(() => readFormatVersion(this.db));
  }

  /**
   * Rewrites every stored policy snapshot (models and tombstones) with `migrate` (old text in, current text out), in one
   * transaction: the hook of `adaprivate migrate` for snapshot formats, which the policies own
   * (src/store does not import them). Returns how many rows changed.
   */
  migrateSnapshots(migrate: (snapshot: string, model: string) => string): number {
    return this.writeNow(() =>
      this.db.transaction(() => {
        let changed = 0;
        for (const table of ['models', 'model_tombstones'] as const) {
          const rows = this.db.prepare(`SELECT name, snapshot FROM ${table}`).all() as {
            name: string;
            snapshot: string;
          }[];
          const set = this.db.prepare(`UPDATE ${table} SET snapshot = ? WHERE name = ?`);
          for (const r of rows) {
            const next = migrate(r.snapshot, r.name);
            if (next !== r.snapshot) changed += set.run(next, r.name).changes;
          }
        }
        return changed;
      })(),
    );
  }

  /** Moves checkpoints to a worker thread; SQLite's own come back if the worker fails. */
  private startCheckpointer(path: string): void {
    const worker = new Worker(new URL('./checkpointWorker.js', import.meta.url), { workerData: { path } });
    const fallBack = () => {
      if (this.checkpointer !== worker) return;
      this.checkpointer = null;
      if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
      this.releaseWrites();
    };
    worker.on('message', (r: CheckpointReport | CheckpointReady) => {
      if ('ready' in r) {
        // a scrub's TRUNCATE is next: commit the open group, then hold new writes until its report
        // (it needs the write lock; waiting for it here would block the event loop)
        if (this.checkpointer !== worker) return;
        this.holding = true;
        this.commitGroup();
        worker.postMessage('go');
        return;
      }
      const asked = this.scrubAsked;
      if (r.truncate === true) {
        this.scrubAsked = -1;
        if (this.checkpointer === worker) worker.unref(); // (close() keeps it referenced until it exits)
        this.releaseWrites();
      }
      if (r.error !== undefined) {
        fallBack();
        void worker.terminate();
        if (this.unscrubbed) this.scrub();
        return;
      }
      if (r.busy === 0) this.walFrames = r.truncate === true ? 0 : r.log;
      if (r.truncate === true && this.unscrubbed) {
        // done when no release committed after it was asked; else (or when busy) ask again
        if (r.busy === 0 && asked === this.releaseCommits) this.scrubDone();
        else this.scrub();
      }
    });
    worker.on('error', fallBack);
    worker.on('exit', fallBack);
    worker.unref(); // after the listeners (a 'message' listener refs the port): a store never closed does not keep the process alive
    this.db.pragma('wal_autocheckpoint = 0');
    this.checkpointer = worker;
  }

  /** Checkpoints run on the store's own thread because the WAL passed `walLimitPages` (background mode). */
  get catchUpCheckpoints(): number {
    return this.catchUps;
  }

  /** True between a release's write and the commit that follows it. */
  private releasePending = false;
  /** True while the checkpoint worker's TRUNCATE holds (or is about to take) the write lock. */
  private holding = false;
  /** Writes made while `holding`, in call order. */
  private held: (() => void)[] = [];
  /** `durable()` calls made while writes were held. */
  private heldWaiters: (() => void)[] = [];

  /**
   * After a commit with a release: a TRUNCATE checkpoint, so that the released raw rewards (deleted
   * and overwritten in their pages: `secure_delete`) leave the WAL too. On the worker in background
   * mode (asked again after later commits until it succeeds), else on this thread.
   */
  private scrub(): void {
    const w = this.checkpointer;
    if (w !== null && this.scrubAsked !== -1) return; // asked again after its report
    // at most one scrub per scrubIntervalMs (each holds the write lock for two fsync calls), unless
    // a caller waits in scrubbed()
    const wait = this.scrubAt + this.scrubInterval - performance.now();
    if (wait > 0 && this.scrubWaiters.length === 0) {
      if (this.scrubTimer === null) {
        this.scrubTimer = setTimeout(() => {
          this.scrubTimer = null;
          if (this.unscrubbed) this.scrub();
        }, wait);
        this.scrubTimer.unref(); // close() checkpoints what is left
      }
      return;
    }
    if (w !== null) {
      this.scrubAt = performance.now();
      this.scrubAsked = this.releaseCommits;
      w.ref(); // until its report: a caller may be waiting in scrubbed()
      w.postMessage('truncate');
      return;
    }
    if (!this.db.open || this.db.inTransaction) return; // again after the open group's commit
    this.scrubAt = performance.now();
    const [r] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    if (r?.busy === 0) {
      this.walFrames = 0;
      this.scrubDone();
    }
  }

  private scrubDone(): void {
    this.unscrubbed = false;
    const waiters = this.scrubWaiters;
    this.scrubWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * Resolves when no raw reward released before this call is left in the database or WAL files: after
   * the TRUNCATE checkpoint that follows the last committed release (at once when there is none).
   * Commits the open group first.
   */
  async scrubbed(): Promise<void> {
    this.commitGroup();
    if (!this.unscrubbed) return;
    const done = new Promise<void>((resolve) => this.scrubWaiters.push(resolve));
    this.scrub();
    return done;
  }

  /** After a commit: asks the worker for a checkpoint now and then; catches up when the WAL is long. */
  private committed(): void {
    if (this.releasePending) {
      this.releasePending = false;
      this.unscrubbed = true;
      this.releaseCommits++;
    }
    if (this.unscrubbed) this.scrub();
    const w = this.checkpointer;
    if (w === null) return;
    if (++this.commits % CHECKPOINT_EVERY_COMMITS === 0) w.postMessage('checkpoint');
    if (this.walFrames >= this.walLimit) {
      // busy while the worker checkpoints: tried again after the next commit
      const [r] = this.db.pragma('wal_checkpoint(PASSIVE)') as { busy: number }[];
      if (r?.busy === 0) {
        this.walFrames = 0;
        this.catchUps++;
      }
    }
  }

  /**
   * Runs the write `fn` (atomic by itself: one statement, or a `db.transaction` function, which
   * becomes a savepoint inside an open transaction): alone, or (group commit) in the open group,
   * which is committed at the next `setImmediate` or when it holds `maxWrites` writes. While the
   * checkpoint worker's TRUNCATE holds the write lock, `fn` waits (in call order) for its report
   * instead, and the promise returned resolves when it has run.
   */
  private write<T>(fn: () => T): T | Promise<T> {
    if (this.failure !== null) throw this.refusal();
    if (this.holding) {
      return new Promise<T>((resolve, reject) => {
        this.held.push(() => {
          try {
            resolve(this.writeNow(fn));
          } catch (err) {
            reject(err);
          }
        });
      });
    }
    return this.writeNow(fn);
  }

  /** Runs the writes held during a TRUNCATE, in call order (after its report, or when the worker is gone). */
  private releaseWrites(): void {
    this.holding = false;
    const held = this.held;
    if (held.length === 0) return;
    this.held = [];
    for (const run of held) run();
    const waiters = this.heldWaiters;
    this.heldWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** {@link write} now, on this thread (waits, up to the busy timeout, for a lock held elsewhere). */
  private writeNow<T>(fn: () => T): T {
    if (this.failure !== null) throw this.refusal();
    if (!this.grouping) {
      const r = fn();
      this.committed();
      return r;
    }
    if (this.group === null) {
      this.st.begin.run();
      const g = newGroup();
      this.group = g;
      setImmediate(() => this.lingerOrCommit(g, 0, 0));
    }
    const r = fn();
    if (++this.group.writes >= this.maxWrites) this.commitGroup();
    return r;
  }

  /**
   * At the end of a turn of the event loop: commits group `g` unless the turn brought writes to it
   * (more than `seen`) and it has waited fewer than `lingerTurns` turns; then checks again after the
   * next turn. Nothing to do when `g` was committed meanwhile (`maxWrites`, a scrub, `close`).
   */
  private lingerOrCommit(g: WriteGroup, seen: number, turns: number): void {
    if (this.group !== g) return;
    if (g.writes > seen && turns < this.lingerTurns) {
      const now = g.writes;
      setImmediate(() => this.lingerOrCommit(g, now, turns + 1));
      return;
    }
    this.commitGroup();
  }

  /** Group commits made so far, and the writes they held (writes per commit: a benchmark figure). */
  get groupCommitStats(): { readonly commits: number; readonly writes: number } {
    return { commits: this.groupCommits, writes: this.groupWrites };
  }

  private groupWrites = 0;

  /** Reads see the open group's writes (same connection); refused after a failed commit. */
  private read<T>(fn: () => T): T {
    if (this.failure !== null) throw this.refusal();
    return fn();
  }

  private refusal(): Error {
    return new Error(
      `SqliteStore: an earlier commit failed (${this.failure?.message}); the store refuses every call until the server restarts.`,
    );
  }

  /** Commits the open group (if any) and settles its promise. */
  private commitGroup(): void {
    const g = this.group;
    if (g === null) return;
    this.group = null;
    try {
      this.st.commit.run();
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // the rollback failed too: the failure above is what the callers see
      }
      g.reject(this.refusal());
      return;
    }
    this.groupCommits++;
    this.groupWrites += g.writes;
    g.resolve();
    this.committed();
  }

  /**
   * Resolves once every write made before this call is committed (at once without group commit);
   * rejects when that commit failed.
   */
  durable(): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.refusal());
    if (this.held.length > 0) {
      // writes held during a TRUNCATE: their group, once they have run
      return new Promise<void>((resolve) => this.heldWaiters.push(resolve)).then(() => this.durable());
    }
    return this.group === null ? Promise.resolve() : this.group.done;
  }

  private prepare() {
    const db = this.db;
    return {
      // a group's transaction, prepared once (exec parses its SQL on every call)
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      insertModel: db.prepare(
        'INSERT INTO models (name, policy, options, settings, created_at, version, snapshot) VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (name) DO NOTHING',
      ),
      getModel: db.prepare('SELECT * FROM models WHERE name = ?'),
      listModels: db.prepare('SELECT * FROM models ORDER BY name'),
      // one row (0 changes: a taken id); its model is known to exist (liveModels). A single-row
      // INSERT ... VALUES needs no statement journal, where INSERT ... SELECT (a multi-row write that
      // may abort) copied every page it changed inside a group's transaction: 4.9 -> 3.2 us a row
      insertDecision: db.prepare(
        `INSERT INTO decisions (model, event_id, time, arm_ids, features, dim, chosen, chosen_features, probabilities, model_version, clipped)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (model, event_id) DO NOTHING`,
      ),
      insertFeatures: db.prepare('INSERT INTO decision_features (seq, features) VALUES (?, ?)'),
      getDecision: db.prepare(`${SQLITE_DECISION_WITH_UNIT} WHERE d.model = ? AND d.event_id = ?`),
      decisionState: db.prepare(
        `SELECT d.time, d.reward_state, d.chosen_features, u.unit FROM decisions d
         LEFT JOIN decision_units u ON u.model = d.model AND u.event_id = d.event_id
         WHERE d.model = ? AND d.event_id = ?`,
      ),
      // a reward in one statement (schema 8): the raw reward pending on its decision, in arrival
      // order, if the decision has no reward yet (0 changes: an unknown event or a duplicate)
      markPending: db.prepare(
        `UPDATE decisions SET reward_state = 1, pending = ?, pending_seq = ?, reward = ?, reward_source = ?
         WHERE model = ? AND event_id = ? AND reward_state = 0`,
      ),
      // the arrival counter's start: the newest pending reward (on the pending decisions' index)
      lastPendingSeq: db.prepare(
        'SELECT COALESCE(MAX(pending_seq), 0) AS n FROM decisions INDEXED BY decisions_pending WHERE reward_state = 1',
      ),
      modelVersion: db.prepare('SELECT version FROM models WHERE name = ?'),
      pendingCount: db.prepare('SELECT COUNT(*) AS n FROM decisions WHERE model = ? AND reward_state = 1'),
      // the raw rewards leave with the release (secure_delete zeroes the records they were in)
      markReleased: db.prepare(
        `UPDATE decisions SET reward_state = 2, release = ?, pending = NULL, pending_seq = NULL
         WHERE model = ? AND reward_state = 1`,
      ),
      insertLedger: db.prepare(
        'INSERT INTO ledger (model, version, time, releases, rounds, rewards, spent) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      setSnapshot: db.prepare('UPDATE models SET version = ?, rounds = ?, snapshot = ? WHERE name = ?'),
      expired: db.prepare(
        `${SQLITE_DECISION_WITH_UNIT} WHERE d.model = ? AND d.reward_state = 0 AND d.time < ? ORDER BY d.time, d.seq LIMIT ?`,
      ),
      pending: db.prepare(
        `SELECT d.event_id, d.pending AS reward, d.chosen_features AS features, u.unit FROM decisions d
         LEFT JOIN decision_units u ON u.model = d.model AND u.event_id = d.event_id
         WHERE d.model = ? AND d.reward_state = 1 ORDER BY d.pending_seq`,
      ),
      ledger: db.prepare('SELECT * FROM ledger WHERE model = ? ORDER BY version'),
      countDecisions: db.prepare('SELECT COUNT(*) AS n FROM decisions WHERE model = ?'),
      countReleased: db.prepare('SELECT COALESCE(SUM(rewards), 0) AS n FROM ledger WHERE model = ?'),
      countDefault: db.prepare(
        "SELECT COUNT(*) AS n FROM decisions WHERE model = ? AND reward_source = 'default'",
      ),
      exportRows: db.prepare(
        `${SQLITE_DECISION_WITH_UNIT} WHERE d.model = ? AND d.seq > ? ORDER BY d.seq LIMIT ?`,
      ),
      ping: db.prepare('SELECT 1 AS one'),
      insertUnit: db.prepare(
        'INSERT INTO decision_units (model, event_id, unit) VALUES (?, ?, ?) ON CONFLICT (model, event_id) DO NOTHING',
      ),
      markDropped: db.prepare(
        'UPDATE decisions SET reward_state = 3, reward = ?, reward_source = ? WHERE model = ? AND event_id = ?',
      ),
      expireUnits: db.prepare('DELETE FROM unit_counts WHERE model = ? AND epoch < ?'),
      upsertUnitCount: db.prepare(
        `INSERT INTO unit_counts (model, unit, epoch, release, in_release, releases, sampled) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (model, unit) DO UPDATE SET epoch = excluded.epoch, release = excluded.release,
           in_release = excluded.in_release, releases = excluded.releases, sampled = excluded.sampled`,
      ),
      upsertTotals: db.prepare(
        `INSERT INTO unit_totals (model, dropped_release, dropped_epoch, open_epoch) VALUES (?, ?, ?, ?)
         ON CONFLICT (model) DO UPDATE SET dropped_release = unit_totals.dropped_release + excluded.dropped_release,
           dropped_epoch = unit_totals.dropped_epoch + excluded.dropped_epoch,
           open_epoch = COALESCE(?, unit_totals.open_epoch)`,
      ),
      unitCount: db.prepare('SELECT * FROM unit_counts WHERE model = ? AND unit = ?'),
      unitTotals: db.prepare('SELECT * FROM unit_totals WHERE model = ?'),
      unitRows: db.prepare('SELECT COUNT(*) AS n FROM unit_counts WHERE model = ?'),
      getTombstone: db.prepare('SELECT * FROM model_tombstones WHERE name = ?'),
      listTombstones: db.prepare('SELECT * FROM model_tombstones ORDER BY name'),
      insertTombstone: db.prepare(
        `INSERT INTO model_tombstones (name, policy, options, settings, created_at, version, rounds, snapshot, deleted_at)
         SELECT name, policy, options, settings, created_at, version, rounds, snapshot, ? FROM models WHERE name = ?`,
      ),
      deleteTombstone: db.prepare('DELETE FROM model_tombstones WHERE name = ?'),
      deleteModelRow: db.prepare('DELETE FROM models WHERE name = ?'),
      deleteFeatures: db.prepare(
        'DELETE FROM decision_features WHERE seq IN (SELECT seq FROM decisions WHERE model = ?)',
      ),
      deleteDecisions: db.prepare('DELETE FROM decisions WHERE model = ?'),
      deleteUnits: db.prepare('DELETE FROM decision_units WHERE model = ?'),
      deleteUnitCounts: db.prepare('DELETE FROM unit_counts WHERE model = ?'),
      deleteUnitTotals: db.prepare('DELETE FROM unit_totals WHERE model = ?'),
      deleteLedger: db.prepare('DELETE FROM ledger WHERE model = ?'),
      // the expired decisions (retention), each part on its partial index (schema 6): settled ones
      // (released or dropped) older than `before`, open ones (no reward) older than both bounds;
      // a pending reward's decision is never expired (its raw reward waits for its release)
      expireUnitsOf: db.prepare(
        `DELETE FROM decision_units WHERE model = ? AND event_id IN (
           SELECT event_id FROM decisions WHERE seq IN (${EXPIRED_SEQS}))`,
      ),
      expireFeaturesOf: db.prepare(`DELETE FROM decision_features WHERE seq IN (${EXPIRED_SEQS})`),
      expireDecisions: db.prepare(`DELETE FROM decisions WHERE seq IN (${EXPIRED_SEQS})`),
      newestFeatures: db.prepare(
        `SELECT d.model_version, COALESCE(f.features, d.features) AS features, d.clipped FROM decisions d
         LEFT JOIN decision_features f ON f.seq = d.seq WHERE d.model = ? ORDER BY d.seq DESC`,
      ),
    };
  }

  async createModel(row: NewModelRow): Promise<{ readonly created: boolean; readonly model: ModelRow }> {
    return this.write(() => {
      if (this.st.getTombstone.get(row.name) !== undefined) throw ModelDeletedError.tombstoned(row.name);
      const r = this.st.insertModel.run(...newModelValues(row));
      const model = toModel(this.st.getModel.get(row.name) as ModelDb);
      return { created: r.changes === 1, model };
    });
  }

  async getModel(name: string): Promise<ModelRow | null> {
    const r = this.read(() => this.st.getModel.get(name) as ModelDb | undefined);
    return r === undefined ? null : toModel(r);
  }

  async listModels(): Promise<readonly ModelRow[]> {
    return this.read(() => this.st.listModels.all() as ModelDb[]).map(toModel);
  }

  async insertDecision(row: DecisionRow, release: ReleaseInput | null = null): Promise<boolean> {
    const plain = release === null && (row.unit ?? null) === null;
    return this.write(() => {
      const ok = plain ? this.insertDecisionRow(row) : this.decisionTx(row, release);
      if (ok) this.rememberTarget(row);
      return ok;
    });
  }

  /**
   * The reward targets of the newest decisions this store inserted that no reward has reached yet
   * (at most {@link TARGET_CACHE_SIZE}, oldest dropped first), so that the common reward does not
   * read its decision back: each is exactly what {@link rewardTarget} would read (state 'none'; the
   * time, chosen features and unit stored with the decision, which nothing changes while it has no
   * reward). An entry is used once, and removed by every write that can change its decision (a
   * reward, retention, deleting a model); with one server per file nothing else writes them. A
   * failed commit makes the store refuse every call, the cache included.
   */
  private readonly targets = new Map<string, RewardTarget>();

  private rememberTarget(row: DecisionRow): void {
    const t = this.targets;
    if (t.size >= TARGET_CACHE_SIZE) {
      for (const oldest of t.keys()) {
        t.delete(oldest);
        break;
      }
    }
    t.set(targetKey(row.model, row.eventId), {
      time: row.time,
      rewardState: 'none',
      chosenFeatures: row.chosenFeatures.slice(),
      unit: row.unit ?? null,
    });
  }

  /**
   * Models this store has seen in the models table since it opened, and has not deleted since: a
   * decision's model is looked up once, not at every insert. Only this store writes its file (the
   * database lock), and a model row leaves only in {@link deleteModel}, which removes the name first
   * inside its transaction (a rolled-back delete only costs one more lookup).
   */
  private readonly liveModels = new Set<string>();

  /** The decision and, when it names one, its unit (inside the caller's transaction when there is one). */
  private insertDecisionRow(row: DecisionRow): boolean {
    if (!this.liveModels.has(row.model)) {
      // a model deleted while the decision was made stores nothing more
      if (this.st.modelVersion.get(row.model) === undefined) throw ModelDeletedError.gone(row.model);
      this.liveModels.add(row.model);
    }
    const values = decisionValues(row);
    const features = values[FEATURES_VALUE];
    values[FEATURES_VALUE] = NO_FEATURES; // in decision_features (schema 6), written once
    const r = this.st.insertDecision.run(...values, row.clipped ?? null);
    const ok = r.changes === 1;
    if (ok) this.st.insertFeatures.run(r.lastInsertRowid, features);
    if (ok && row.unit != null) this.st.insertUnit.run(row.model, row.eventId, row.unit);
    return ok;
  }

  async getDecision(model: string, eventId: string): Promise<DecisionRow | null> {
    const r = this.read(() => this.st.getDecision.get(model, eventId) as DecisionDb | undefined);
    return r === undefined ? null : toDecision(r);
  }

  async rewardTarget(model: string, eventId: string): Promise<RewardTarget | null> {
    const key = targetKey(model, eventId);
    const cached = this.read(() => this.targets.get(key));
    if (cached !== undefined) {
      this.targets.delete(key); // used once: the caller may keep or change its features
      return cached;
    }
    const r = this.read(
      () =>
        this.st.decisionState.get(model, eventId) as
          | { time: number; reward_state: number; chosen_features: Buffer; unit: string | null }
          | undefined,
    );
    if (r === undefined) return null;
    return {
      time: r.time,
      rewardState: STATE_NAME[r.reward_state] ?? 'none',
      chosenFeatures: blobToFloat64(r.chosen_features),
      unit: r.unit,
    };
  }

  async recordReward(
    input: RewardInput,
    release: ReleaseInput | null,
    unit: UnitWrite | null = null,
  ): Promise<RecordRewardOutcome> {
    return this.write(() => {
      this.targets.delete(targetKey(input.model, input.eventId)); // its decision changes now
      // the common reward is one statement, atomic by itself: no savepoint around it
      if (release === null && unit === null && input.unit == null) return this.recordInTx(input, null, null);
      return this.recordTx(input, release, unit);
    });
  }

  private recordInTx(
    input: RewardInput,
    release: ReleaseInput | null,
    unit: UnitWrite | null,
  ): RecordRewardOutcome {
    const st = this.st;
    // a release the policy made before this reward (an epoch boundary) covers only the earlier rewards
    const before = unit !== null && (unit.count === null || unit.releaseBefore === true);
    if (!before) {
      // the common case in one statement: the reward pending on its decision
      if (this.markPending(input) !== 1) {
        return st.decisionState.get(input.model, input.eventId) === undefined ? 'unknown-event' : 'duplicate';
      }
      if (input.unit != null) st.insertUnit.run(input.model, input.eventId, input.unit);
      if (unit !== null) this.unitInTx(input.model, unit);
      if (release !== null) this.releaseInTx(input.model, release, input.time);
      return 'recorded';
    }
    const d = st.decisionState.get(input.model, input.eventId) as { reward_state: number } | undefined;
    if (d === undefined) return 'unknown-event';
    if (d.reward_state !== STATE_CODE.none) return 'duplicate';
    if (before && release !== null) this.releaseInTx(input.model, release, input.time);
    if (unit === null || unit.count !== null) {
      this.markPending(input);
    } else {
      st.markDropped.run(input.logReward ? input.reward : null, input.source, input.model, input.eventId);
    }
    if (input.unit != null) st.insertUnit.run(input.model, input.eventId, input.unit);
    if (unit !== null) this.unitInTx(input.model, unit);
    if (release !== null && !before) this.releaseInTx(input.model, release, input.time);
    return 'recorded';
  }

  /** Marks the decision of `input` pending with its raw reward, next in arrival order; returns the changes (0 or 1). */
  private markPending(input: RewardInput): number {
    const seq = this.pendingSeq + 1;
    const logged = input.logReward ? input.reward : null;
    const n = this.st.markPending.run(
      input.reward,
      seq,
      logged,
      input.source,
      input.model,
      input.eventId,
    ).changes;
    if (n === 1) this.pendingSeq = seq;
    return n;
  }

  /** The unit writes of a reward (see {@link UnitWrite}), inside the reward's transaction. */
  private unitInTx(model: string, w: UnitWrite): void {
    const st = this.st;
    if (w.expireBefore !== null) st.expireUnits.run(model, w.expireBefore);
    const c = w.count;
    if (c !== null) {
      st.upsertUnitCount.run(
        model,
        w.unit,
        c.epoch,
        c.release,
        c.inRelease,
        c.releases,
        c.sampled === null ? null : c.sampled ? 1 : 0,
      );
    }
    st.upsertTotals.run(
      model,
      w.dropped === 'perRelease' ? 1 : 0,
      w.dropped === 'perEpoch' ? 1 : 0,
      w.openEpoch ?? -1,
      w.openEpoch,
    );
  }

  async unitCount(model: string, unit: string): Promise<UnitCountRow | null> {
    const r = this.read(() => this.st.unitCount.get(model, unit) as UnitCountDb | undefined);
    return r === undefined ? null : toUnitCount(r);
  }

  async unitTotals(model: string): Promise<UnitTotals> {
    const r = this.read(
      () =>
        this.st.unitTotals.get(model) as
          | { dropped_release: number; dropped_epoch: number; open_epoch: number }
          | undefined,
    );
    return r === undefined
      ? { droppedPerRelease: 0, droppedPerEpoch: 0, openEpoch: -1 }
      : { droppedPerRelease: r.dropped_release, droppedPerEpoch: r.dropped_epoch, openEpoch: r.open_epoch };
  }

  async unitCountRows(model: string): Promise<number> {
    return this.read(() => (this.st.unitRows.get(model) as { n: number }).n);
  }

  /**
   * The writes of a release inside the caller's transaction: checks that it follows the stored
   * version, marks every pending reward released and deletes it, adds the ledger row and stores the
   * snapshot.
   */
  private releaseInTx(model: string, release: ReleaseInput, time: number): void {
    const st = this.st;
    const cur = st.modelVersion.get(model) as { version: number } | undefined;
    if (cur === undefined || release.version !== cur.version + 1) {
      throw new StoreConflictError(
        `release version ${release.version} of model '${model}' does not follow the stored version ${cur?.version ?? 'none'} (already released).`,
      );
    }
    const n = (st.pendingCount.get(model) as { n: number }).n;
    st.markReleased.run(release.version, model);
    st.insertLedger.run(
      model,
      release.version,
      time,
      release.releases,
      release.rounds,
      n,
      JSON.stringify(release.spent),
    );
    st.setSnapshot.run(release.version, release.rounds, release.snapshot, model);
    this.releasePending = true;
    if (this.hook !== null) this.hook();
  }

  async expiredDecisions(model: string, before: number, limit: number): Promise<readonly DecisionRow[]> {
    return this.read(() => this.st.expired.all(model, before, limit) as DecisionDb[]).map(toDecision);
  }

  /** Newest first, stopping at the first older decision (versions only grow with seq): O(since). */
  async decisionFeaturesAt(
    model: string,
    version: number,
  ): Promise<readonly { features: Float64Array; clipped: number | null }[]> {
    return this.read(() => {
      const out: { features: Float64Array; clipped: number | null }[] = [];
      for (const r of this.st.newestFeatures.iterate(model) as Iterable<{
        model_version: number;
        features: Buffer;
        clipped: number | null;
      }>) {
        if (r.model_version < version) break;
        if (r.model_version === version)
          out.push({ features: blobToFloat64(r.features), clipped: r.clipped });
      }
      return out.reverse();
    });
  }

  async loadModelState(model: string): Promise<ModelState | null> {
    const read = this.db.transaction(() => {
      const m = this.st.getModel.get(model) as ModelDb | undefined;
      if (m === undefined) return null;
      const rows = this.st.pending.all(model) as {
        event_id: string;
        reward: number | null;
        features: Buffer;
        unit: string | null;
      }[];
      const pending: PendingReward[] = rows.map((r) => {
        // every write that marks a decision pending stores its raw reward with it
        if (r.reward === null) {
          throw new Error(
            `SqliteStore: decision '${r.event_id}' of model '${model}' is pending without its reward; the database is inconsistent.`,
          );
        }
        return { eventId: r.event_id, reward: r.reward, features: blobToFloat64(r.features), unit: r.unit };
      });
      return { snapshot: m.snapshot, version: m.version, rounds: m.rounds, pending };
    });
    return this.read(read);
  }

  async ledger(model: string): Promise<readonly LedgerRow[]> {
    return this.read(() => this.st.ledger.all(model) as LedgerDb[]).map(toLedger);
  }

  async counts(model: string): Promise<ModelCounts> {
    const n = (s: Database.Statement) => this.read(() => (s.get(model) as { n: number }).n);
    return {
      decisions: n(this.st.countDecisions),
      pendingRewards: n(this.st.pendingCount),
      releasedRewards: n(this.st.countReleased),
      defaultRewards: n(this.st.countDefault),
    };
  }

  async exportDecisions(model: string, options: ExportOptions): Promise<readonly DecisionRow[]> {
    const rows = this.read(
      () => this.st.exportRows.all(model, options.afterSeq ?? 0, options.limit) as DecisionDb[],
    );
    return rows.map(toDecision);
  }

  async deleteModel(name: string, options: DeleteModelOptions): Promise<DeleteModelResult> {
    this.targets.clear();
    return this.write(() =>
      this.db.transaction((): DeleteModelResult => {
        const st = this.st;
        this.liveModels.delete(name); // before its row goes (see liveModels)
        const live = st.modelVersion.get(name) !== undefined;
        const dead = st.getTombstone.get(name) !== undefined;
        const none = { decisions: 0, pendingRewards: 0, unitCounts: 0, ledgerRows: 0 };
        if (!live && !dead) return { outcome: 'not-found', ...none };
        if (!live && !options.purge) return { outcome: 'already-deleted', ...none };
        if (live && !options.purge) st.insertTombstone.run(options.time, name);
        st.deleteUnits.run(name);
        st.deleteFeatures.run(name);
        const pendingRewards = (st.pendingCount.get(name) as { n: number }).n; // erased with their decisions
        const decisions = st.deleteDecisions.run(name).changes;
        const unitCounts = st.deleteUnitCounts.run(name).changes;
        let ledgerRows = 0;
        if (options.purge) {
          ledgerRows = st.deleteLedger.run(name).changes;
          st.deleteUnitTotals.run(name);
          st.deleteTombstone.run(name);
        }
        st.deleteModelRow.run(name);
        // the erased rows (raw rewards, features) leave the WAL too: the TRUNCATE checkpoint after a release
        this.releasePending = true;
        return {
          outcome: options.purge ? 'purged' : 'deleted',
          decisions,
          pendingRewards,
          unitCounts,
          ledgerRows,
        };
      })(),
    );
  }

  async tombstone(name: string): Promise<TombstoneRow | null> {
    const r = this.read(() => this.st.getTombstone.get(name) as TombstoneDb | undefined);
    return r === undefined ? null : toTombstone(r);
  }

  async listTombstones(): Promise<readonly TombstoneRow[]> {
    return this.read(() => this.st.listTombstones.all() as TombstoneDb[]).map(toTombstone);
  }

  async expireDecisions(model: string, options: ExpireDecisionsOptions): Promise<number> {
    this.targets.clear();
    // openBefore null: a bound no decision time is below
    const open = options.openBefore ?? Number.MIN_SAFE_INTEGER;
    return this.write(() =>
      this.db.transaction(() => {
        const bounds = [model, options.before, model, options.before, open];
        this.st.expireUnitsOf.run(model, ...bounds);
        this.st.expireFeaturesOf.run(...bounds);
        const n = this.st.expireDecisions.run(...bounds).changes;
        if (n > 0) this.releasePending = true; // logged rewards leave the WAL too
        return n;
      })(),
    );
  }

  async ping(): Promise<void> {
    this.read(() => this.st.ping.get());
  }

  /**
   * A consistent copy of the database at `path` (replaced atomically when it exists): every write
   * committed before the call, nothing after. One `VACUUM INTO` statement, which blocks this
   * connection (and the event loop) while it copies, so no write can interleave with the copy.
   * SQLite's stepped online backup API, used before, lost committed rows when group commits ran
   * between its steps (a copy with none of 400 committed decisions in 6-11 of 15 runs).
   */
  async backup(path: string): Promise<void> {
    this.commitGroup();
    await this.durable();
    this.commitGroup(); // a group opened by writes made while this call waited
    if (this.failure !== null) throw this.refusal();
    const tmp = `${path}.partial-${process.pid}`;
    rmSync(tmp, { force: true });
    try {
      this.db.prepare('VACUUM INTO ?').run(tmp);
      renameSync(tmp, path);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  }

  /**
   * Commits the open group, stops the checkpoint worker (after its current checkpoint), then closes
   * the database (which checkpoints what is left) and releases the lock.
   */
  async close(): Promise<void> {
    if (this.scrubTimer !== null) clearTimeout(this.scrubTimer);
    this.scrubTimer = null;
    const w = this.checkpointer;
    if (w !== null) {
      this.checkpointer = null;
      w.ref(); // wait for it even when nothing else keeps the process alive
      const exited = new Promise((r) => w.once('exit', r));
      w.postMessage('close');
      await exited;
      this.releaseWrites(); // a TRUNCATE that was asked for and never reported
    }
    if (this.db.open) {
      this.commitGroup();
      this.db.close(); // the last connection: checkpoints and deletes the WAL
    }
    this.scrubDone();
    if (this.lockDb?.open === true) this.lockDb.close();
  }
}
