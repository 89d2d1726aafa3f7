/**
 * The background checkpointer of a {@link SqliteStore} (`checkpoint: 'background'`): a worker
 * thread with its own connection to the database file that copies the WAL into the database
 * (`PRAGMA wal_checkpoint(PASSIVE)`) when the store asks, so that the checkpoint's fsync calls never
 * hold up the event loop of the server. PASSIVE never blocks the writer and never waits for it; a
 * checkpoint interrupted by a crash is redone by SQLite at the next open, like any other.
 *
 * Messages in: `'checkpoint'` (run one now; requests that arrive while one runs are merged),
 * `'truncate'` (a scrub after a release, so that the deleted raw rewards leave the WAL: PASSIVE
 * checkpoints first, without any lock (up to `SCRUB_PASSES`), then {@link CheckpointReady}, and on the store's `'go'` a
 * TRUNCATE checkpoint), `'go'` (the store holds its writes: run the TRUNCATE, which needs the write
 * lock and so never contends with the store's thread for it) and `'close'` (close the connection
 * and end). Messages out: {@link CheckpointReady}, and a {@link CheckpointReport} after each run.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** What one checkpoint did (the columns of `PRAGMA wal_checkpoint`). */
export interface CheckpointReport {
  /** 1 when the checkpoint could not take its lock (another one ran). */
  readonly busy: number;
  /** Frames in the WAL when it started. */
  readonly log: number;
  /** Frames copied into the database (all of them when equal to `log`). */
  readonly checkpointed: number;
  /** True for a TRUNCATE checkpoint (asked with `'truncate'`, after a release). */
  readonly truncate?: boolean;
  /** The error message when the checkpoint failed (the store then checkpoints on its own thread). */
  readonly error?: string;
}

/**
 * A scrub's PASSIVE checkpoint is done: the worker waits for `'go'`, which the store sends once it
 * has committed its open writes and holds new ones until the TRUNCATE's report.
 */
export interface CheckpointReady {
  readonly ready: true;
}

const port = parentPort;
if (port === null) throw new Error('checkpointWorker: must run as a worker thread.');
const { path } = workerData as { readonly path: string };
const db = new Database(path, { timeout: 0 });
db.pragma('busy_timeout = 0');
/**
 * Most PASSIVE passes of a scrub before its TRUNCATE. Under load one pass took ~35 ms and left the
 * frames committed meanwhile to the TRUNCATE, which then held the store's writes for 40-55 ms once
 * a second (docs/performance.md, "Issue 29 in session 22").
 */
const SCRUB_PASSES = 3;
/** A pass that found fewer new frames than this (a short tail) is the scrub's last PASSIVE one. */
const SHORT_TAIL_FRAMES = 64;
let requested = false;
let truncate = false;
/** A scrub's PASSIVE checkpoint is done and its TRUNCATE waits for the store's 'go'. */
let awaitingGo = false;

function checkpoint(mode: 'PASSIVE' | 'TRUNCATE'): CheckpointReport {
  const t = mode === 'TRUNCATE';
  try {
    // the store holds its writes for a TRUNCATE; a reader of its connection may still need a moment
    if (t) db.pragma('busy_timeout = 5000');
    const [r] = db.pragma(`wal_checkpoint(${mode})`) as { busy: number; log: number; checkpointed: number }[];
    if (t) db.pragma('busy_timeout = 0');
    return {
      busy: r?.busy ?? 1,
      log: r?.log ?? 0,
      checkpointed: r?.checkpointed ?? 0,
      ...(t ? { truncate: true } : {}),
    };
  } catch (err) {
    return {
      busy: 1,
      log: 0,
      checkpointed: 0,
      error: String((err as Error).message ?? err),
      ...(t ? { truncate: true } : {}),
    };
  }
}

function schedule(): void {
  if (!requested && !awaitingGo) {
    requested = true;
    setImmediate(run); // requests queued behind this one are merged into it
  }
}

function run(): void {
  requested = false;
  const t = truncate;
  truncate = false;
  if (!db.open) return; // closed while this run was queued
  let r = checkpoint('PASSIVE');
  if (!t) {
    port?.postMessage(r);
    return;
  }
  // a scrub: more PASSIVE passes while the frames committed during the last one are many, so that
  // the TRUNCATE, which holds the store's writes, copies and syncs only a short tail
  for (let pass = 1; r.error === undefined && pass < SCRUB_PASSES; pass++) {
    const next = checkpoint('PASSIVE');
    // frames committed during the previous pass (all of `next.log` if the WAL restarted meanwhile)
    const tail = next.log >= r.log ? next.log - r.log : next.log;
    r = next;
    if (tail < SHORT_TAIL_FRAMES) break;
  }
  if (r.error !== undefined) {
    port?.postMessage({ ...r, truncate: true });
    return;
  }
  // most frames are copied and synced now, without a lock: the TRUNCATE that follows holds the
  // write lock only for the frames committed since
  awaitingGo = true;
  port?.postMessage({ ready: true } satisfies CheckpointReady);
}

port.on('message', (m: unknown) => {
  if (m === 'close') {
    db.close();
    port.close();
    return;
  }
  if (m === 'go') {
    if (!awaitingGo || !db.open) return;
    awaitingGo = false;
    port.postMessage(checkpoint('TRUNCATE'));
    if (truncate) schedule();
    return;
  }
  if (m === 'truncate') truncate = true;
  if (m === 'checkpoint' || m === 'truncate') schedule();
});
