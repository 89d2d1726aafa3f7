/**
 * The background checkpointer of a {@link SqliteStore} (`checkpoint: 'background'`): a worker
 * thread with its own connection to the database file that copies the WAL into the database
 * (`PRAGMA wal_checkpoint(PASSIVE)`) when the store asks, so that the checkpoint's fsync calls never
 * hold up the event loop of the server. PASSIVE never blocks the writer and never waits for it; a
 * checkpoint interrupted by a crash is redone by SQLite at the next open, like any other.
 *
 * Messages in: `'checkpoint'` (run one now; requests that arrive while one runs are merged),
 * `'truncate'` (a TRUNCATE checkpoint: after a release, so that the deleted raw rewards leave the
 * WAL; it waits up to 5 s for the writer) and `'close'` (close the connection and end). Messages out: {@link CheckpointReport} after each run.
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

const port = parentPort;
if (port === null) throw new Error('checkpointWorker: must run as a worker thread.');
const { path } = workerData as { readonly path: string };
const db = new Database(path, { timeout: 0 });
db.pragma('busy_timeout = 0');
let requested = false;
let truncate = false;

function run(): void {
  requested = false;
  const t = truncate;
  truncate = false;
  if (!db.open) return; // closed while this run was queued
  try {
    // TRUNCATE waits (here, off the server's thread) for the writer's open transaction to commit
    if (t) db.pragma('busy_timeout = 5000');
    const [r] = db.pragma(`wal_checkpoint(${t ? 'TRUNCATE' : 'PASSIVE'})`) as {
      busy: number;
      log: number;
      checkpointed: number;
    }[];
    if (t) db.pragma('busy_timeout = 0');
    port?.postMessage({
      busy: r?.busy ?? 1,
      log: r?.log ?? 0,
      checkpointed: r?.checkpointed ?? 0,
      ...(t ? { truncate: true } : {}),
    });
  } catch (err) {
    port?.postMessage({
      busy: 1,
      log: 0,
      checkpointed: 0,
      error: String((err as Error).message ?? err),
      ...(t ? { truncate: true } : {}),
    });
  }
}

port.on('message', (m: unknown) => {
  if (m === 'close') {
    db.close();
    port.close();
    return;
  }
  if (m === 'truncate') truncate = true;
  if ((m === 'checkpoint' || m === 'truncate') && !requested) {
    requested = true;
    setImmediate(run); // requests queued behind this one are merged into it
  }
});
