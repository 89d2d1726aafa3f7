/**
 * The one schema of the decision service, written once and rendered for each engine (SQLite and
 * PostgreSQL), with its numbered migrations. Both engines keep the schema version in
 * `meta(key = 'schema_version')` and refuse a database written by a newer version.
 *
 * Only column types and the sequence column differ between the engines:
 *
 * | logical | SQLite (STRICT tables) | PostgreSQL |
 * | --- | --- | --- |
 * | text | TEXT | TEXT |
 * | int (32-bit) | INTEGER | INTEGER |
 * | bigint (times in ms, versions) | INTEGER | BIGINT |
 * | real | REAL | DOUBLE PRECISION |
 * | blob (exact Float64Array bytes) | BLOB | BYTEA |
 * | seq (insertion order) | INTEGER PRIMARY KEY | BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY |
 *
 * A new migration is appended to {@link MIGRATIONS} (never edit a released one) and raises
 * {@link SCHEMA_VERSION}.
 */

/** The engines the schema is rendered for. */
export type SqlDialect = 'sqlite' | 'postgres';

type ColumnType = 'text' | 'int' | 'bigint' | 'real' | 'blob' | 'seq';

interface Column {
  readonly name: string;
  readonly type: ColumnType;
  /** Extra constraint text, identical in both dialects (e.g. 'NOT NULL', 'NOT NULL DEFAULT 0'). */
  readonly constraint?: string;
}

interface Table {
  readonly name: string;
  readonly columns: readonly Column[];
  /** Table constraint, e.g. 'PRIMARY KEY (model, version)'. */
  readonly primaryKey?: string;
}

interface Index {
  readonly name: string;
  readonly table: string;
  readonly columns: string;
  readonly unique?: boolean;
  /** Partial-index predicate (both engines support WHERE on an index). */
  readonly where?: string;
}

/** One schema change: what it adds, as engine-neutral tables and indexes. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly tables: readonly Table[];
  readonly indexes: readonly Index[];
  /** Columns added to existing tables (nullable, or with a default: rows written before read it). */
  readonly columns?: readonly { readonly table: string; readonly column: Column }[];
  /**
   * The engines the step applies to (default: both). A step of one engine keeps its number; the
   * other engine skips it and its version does not move ({@link schemaVersionOf}).
   */
  readonly dialects?: readonly SqlDialect[];
  /** Statements of one engine that the engine-neutral parts cannot say, run after them. */
  readonly statements?: Readonly<Partial<Record<SqlDialect, readonly string[]>>>;
}

const TYPES: Readonly<Record<SqlDialect, Readonly<Record<ColumnType, string>>>> = {
  sqlite: {
    text: 'TEXT',
    int: 'INTEGER',
    bigint: 'INTEGER',
    real: 'REAL',
    blob: 'BLOB',
    seq: 'INTEGER PRIMARY KEY',
  },
  postgres: {
    text: 'TEXT',
    int: 'INTEGER',
    bigint: 'BIGINT',
    real: 'DOUBLE PRECISION',
    blob: 'BYTEA',
    seq: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
  },
};

const c = (name: string, type: ColumnType, constraint?: string): Column =>
  constraint === undefined ? { name, type } : { name, type, constraint };

/** The migrations, oldest first; version i + 1 is MIGRATIONS[i]. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'models, decisions, pending rewards, ledger',
    tables: [
      {
        name: 'meta',
        columns: [c('key', 'text', 'PRIMARY KEY'), c('value', 'text', 'NOT NULL')],
      },
      {
        name: 'models',
        columns: [
          c('name', 'text', 'PRIMARY KEY'),
          c('policy', 'text', 'NOT NULL'),
          c('options', 'text', 'NOT NULL'),
          c('settings', 'text', 'NOT NULL'),
          c('created_at', 'bigint', 'NOT NULL'),
          c('version', 'bigint', 'NOT NULL DEFAULT 0'),
          c('rounds', 'bigint', 'NOT NULL DEFAULT 0'),
          c('snapshot', 'text', 'NOT NULL'),
        ],
      },
      {
        name: 'decisions',
        columns: [
          c('seq', 'seq'),
          c('model', 'text', 'NOT NULL'),
          c('event_id', 'text', 'NOT NULL'),
          c('time', 'bigint', 'NOT NULL'),
          c('arm_ids', 'text', 'NOT NULL'),
          c('features', 'blob', 'NOT NULL'),
          c('dim', 'int', 'NOT NULL'),
          c('chosen', 'int', 'NOT NULL'),
          c('chosen_features', 'blob', 'NOT NULL'),
          c('probabilities', 'text', 'NOT NULL'),
          c('model_version', 'bigint', 'NOT NULL'),
          c('reward_state', 'int', 'NOT NULL DEFAULT 0'),
          c('reward', 'real'),
          c('reward_source', 'text'),
          c('release', 'bigint'),
        ],
      },
      {
        name: 'pending_rewards',
        columns: [
          c('seq', 'seq'),
          c('model', 'text', 'NOT NULL'),
          c('event_id', 'text', 'NOT NULL'),
          c('reward', 'real', 'NOT NULL'),
          c('features', 'blob', 'NOT NULL'),
        ],
      },
      {
        name: 'ledger',
        columns: [
          c('model', 'text', 'NOT NULL'),
          c('version', 'bigint', 'NOT NULL'),
          c('time', 'bigint', 'NOT NULL'),
          c('releases', 'bigint', 'NOT NULL'),
          c('rounds', 'bigint', 'NOT NULL'),
          c('rewards', 'bigint', 'NOT NULL'),
          c('spent', 'text', 'NOT NULL'),
        ],
        primaryKey: 'PRIMARY KEY (model, version)',
      },
    ],
    indexes: [
      { name: 'decisions_event', table: 'decisions', columns: 'model, event_id', unique: true },
      { name: 'decisions_open', table: 'decisions', columns: 'model, time', where: 'reward_state = 0' },
      { name: 'pending_model', table: 'pending_rewards', columns: 'model, seq' },
    ],
  },
  {
    version: 2,
    description: 'privacy units: the unit of each event, per-unit contribution counts, per-model totals',
    tables: [
      {
        name: 'decision_units',
        columns: [
          c('model', 'text', 'NOT NULL'),
          c('event_id', 'text', 'NOT NULL'),
          c('unit', 'text', 'NOT NULL'),
        ],
        primaryKey: 'PRIMARY KEY (model, event_id)',
      },
      {
        name: 'unit_counts',
        columns: [
          c('model', 'text', 'NOT NULL'),
          c('unit', 'text', 'NOT NULL'),
          c('epoch', 'bigint', 'NOT NULL'),
          c('release', 'bigint', 'NOT NULL'),
          c('in_release', 'int', 'NOT NULL'),
          c('releases', 'int', 'NOT NULL'),
          c('sampled', 'int'),
        ],
        primaryKey: 'PRIMARY KEY (model, unit)',
      },
      {
        name: 'unit_totals',
        columns: [
          c('model', 'text', 'PRIMARY KEY'),
          c('dropped_release', 'bigint', 'NOT NULL DEFAULT 0'),
          c('dropped_epoch', 'bigint', 'NOT NULL DEFAULT 0'),
          c('open_epoch', 'bigint', 'NOT NULL DEFAULT -1'),
        ],
      },
    ],
    indexes: [{ name: 'unit_counts_epoch', table: 'unit_counts', columns: 'model, epoch' }],
  },
  {
    version: 3,
    description:
      'model tombstones: a deleted model keeps its row (policy, options, last released snapshot) and its ledger; decisions expire by time',
    tables: [
      {
        name: 'model_tombstones',
        columns: [
          c('name', 'text', 'PRIMARY KEY'),
          c('policy', 'text', 'NOT NULL'),
          c('options', 'text', 'NOT NULL'),
          c('settings', 'text', 'NOT NULL'),
          c('created_at', 'bigint', 'NOT NULL'),
          c('version', 'bigint', 'NOT NULL'),
          c('rounds', 'bigint', 'NOT NULL'),
          c('snapshot', 'text', 'NOT NULL'),
          c('deleted_at', 'bigint', 'NOT NULL'),
        ],
      },
    ],
    indexes: [{ name: 'decisions_time', table: 'decisions', columns: 'model, time' }],
  },
  {
    version: 4,
    description:
      'user-level models on replicas: the open release of each model, and the release each pending reward was admitted to',
    tables: [
      {
        // the release rewards are admitted to now: its number, its kept rewards, its epoch
        name: 'unit_open',
        columns: [
          c('model', 'text', 'PRIMARY KEY'),
          c('release', 'bigint', 'NOT NULL'),
          c('kept', 'int', 'NOT NULL'),
          c('epoch', 'bigint', 'NOT NULL'),
        ],
      },
      {
        name: 'unit_pending',
        columns: [
          c('model', 'text', 'NOT NULL'),
          c('event_id', 'text', 'NOT NULL'),
          c('release', 'bigint', 'NOT NULL'),
          c('epoch', 'bigint', 'NOT NULL'),
        ],
        primaryKey: 'PRIMARY KEY (model, event_id)',
      },
    ],
    indexes: [{ name: 'unit_pending_release', table: 'unit_pending', columns: 'model, release' }],
  },
  {
    version: 5,
    description:
      'compact decisions: the clipped candidate count of each decision (so a model that logs only the chosen arm restores its clipped count)',
    tables: [],
    indexes: [],
    // null on rows written before: counted from their stored candidate features
    columns: [{ table: 'decisions', column: c('clipped', 'int') }],
  },
  {
    version: 6,
    description:
      "SQLite: a decision's candidate features in a table of their own, keyed by the decision's seq, so that the reward's and the release's updates of the decision do not rewrite them; retention's time index on settled decisions only",
    // SQLite rewrites a whole record on UPDATE (an 8 KB blob three times per decision at d = 50,
    // K = 20); PostgreSQL keeps an unchanged TOASTed value, so its decisions keep their features.
    // decisions.features is then empty (X''); rows written before keep theirs (read with COALESCE).
    dialects: ['sqlite'],
    tables: [
      {
        name: 'decision_features',
        columns: [c('seq', 'bigint', 'PRIMARY KEY'), c('features', 'blob', 'NOT NULL')],
      },
    ],
    // retention's index holds settled decisions only (a decision enters it at its release, with its
    // batch, instead of at its insert): one index page fewer in nearly every commit. Open decisions
    // are found on decisions_open, pending ones are never expired.
    indexes: [
      {
        name: 'decisions_settled',
        table: 'decisions',
        columns: 'model, time',
        where: 'reward_state IN (2, 3)',
      },
    ],
    statements: { sqlite: ['DROP INDEX IF EXISTS decisions_time'] },
  },
  {
    version: 7,
    description:
      'PostgreSQL: policy snapshots stored uncompressed (STORAGE EXTERNAL): a serialised policy writes its snapshot at every step, and compressing 20-35 KB of JSON each time cost more CPU than the bytes it saved',
    dialects: ['postgres'],
    tables: [],
    indexes: [],
    // applies to the values written from now on; a value stored before stays as it is until rewritten
    statements: { postgres: ['ALTER TABLE models ALTER COLUMN snapshot SET STORAGE EXTERNAL'] },
  },
  {
    version: 8,
    description:
      'SQLite: a pending reward lives on its decision (decisions.pending, with its arrival order in decisions.pending_seq) until its release, instead of in a table of its own: a reward is one UPDATE, a release one UPDATE; pending_rewards becomes a view of the pending decisions',
    // per pair, the separate table cost an insert into it and its index, the INSERT ... SELECT's
    // lookup of the decision, and a delete at the release (zeroed: secure_delete), two more pages
    // in most commits: 31 -> 20 CPU-us per pair in groups of 8 (docs/performance.md, session 17).
    // PostgreSQL keeps its table (its replicas' routines read it).
    dialects: ['sqlite'],
    tables: [],
    columns: [
      // the raw reward while the decision is pending (state 1), NULL after its release
      { table: 'decisions', column: c('pending', 'real') },
      // the order in which the pending rewards arrived: the order their model replays them in
      { table: 'decisions', column: c('pending_seq', 'bigint') },
    ],
    indexes: [
      {
        name: 'decisions_pending',
        table: 'decisions',
        columns: 'model, pending_seq',
        where: 'reward_state = 1',
      },
    ],
    statements: {
      sqlite: [
        `UPDATE decisions SET
           pending = (SELECT p.reward FROM pending_rewards p WHERE p.model = decisions.model AND p.event_id = decisions.event_id),
           pending_seq = (SELECT p.seq FROM pending_rewards p WHERE p.model = decisions.model AND p.event_id = decisions.event_id)
         WHERE reward_state = 1`,
        'DROP TABLE pending_rewards',
        `CREATE VIEW pending_rewards AS
         SELECT pending_seq AS seq, model, event_id, pending AS reward, chosen_features AS features
         FROM decisions WHERE reward_state = 1`,
      ],
    },
  },
];

/** The newest schema version (the last migration's); an engine's own is {@link schemaVersionOf}. */
export const SCHEMA_VERSION: number = MIGRATIONS.length;

/** Whether migration `m` applies to `dialect`. */
export function appliesTo(m: Migration, dialect: SqlDialect): boolean {
  return m.dialects === undefined || m.dialects.includes(dialect);
}

/**
 * The schema version this code writes and reads on an engine: that of the newest migration that
 * applies to it (SQLite 8 and PostgreSQL 7: steps 6 and 8 are SQLite's alone, step 7 PostgreSQL's).
 *
 * @example
 * schemaVersionOf('postgres'); // 7
 */
export function schemaVersionOf(dialect: SqlDialect): number {
  let v = 0;
  for (const m of MIGRATIONS) if (appliesTo(m, dialect)) v = m.version;
  return v;
}

/**
 * The SQL statements of one migration for an engine, in order (CREATE ... IF NOT EXISTS, so a
 * migration interrupted before its version was recorded can run again; an added column: ADD COLUMN
 * IF NOT EXISTS on PostgreSQL, and on SQLite, which has no such clause, the step's own transaction
 * makes it all or nothing).
 *
 * @example
 * migrationStatements(MIGRATIONS[0]!, 'postgres')[1];
 * // 'CREATE TABLE IF NOT EXISTS models (name TEXT PRIMARY KEY, policy TEXT NOT NULL, ...)'
 */
export function migrationStatements(migration: Migration, dialect: SqlDialect): string[] {
  if (!appliesTo(migration, dialect)) return [];
  const types = TYPES[dialect];
  const strict = dialect === 'sqlite' ? ' STRICT' : '';
  const out: string[] = [];
  const columnSql = (col: Column) =>
    [col.name, types[col.type], col.constraint].filter((x) => x !== undefined).join(' ');
  for (const t of migration.tables) {
    const parts = t.columns.map(columnSql);
    if (t.primaryKey !== undefined) parts.push(t.primaryKey);
    out.push(`CREATE TABLE IF NOT EXISTS ${t.name} (${parts.join(', ')})${strict}`);
  }
  for (const { table, column: col } of migration.columns ?? []) {
    const ifNew = dialect === 'postgres' ? 'IF NOT EXISTS ' : '';
    out.push(`ALTER TABLE ${table} ADD COLUMN ${ifNew}${columnSql(col)}`);
  }
  for (const i of migration.indexes) {
    const where = i.where === undefined ? '' : ` WHERE ${i.where}`;
    out.push(
      `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${i.name} ON ${i.table} (${i.columns})${where}`,
    );
  }
  out.push(...(migration.statements?.[dialect] ?? []));
  return out;
}
