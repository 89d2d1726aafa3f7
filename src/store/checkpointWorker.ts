/**
 * The background checkpointer of a {@link SqliteStore} (`checkpoint: 'background'`): a worker
 * thread with its own connection to the database file that copies the WAL into the database
 * (`PRAGMA wal_checkpoint(PASSIVE)`) when the store asks, so that the checkpoint's fsync calls never
 * hold up the event loop of the server. PASSIVE never blocks the writer and never waits for it; a
 * checkpoint interrupted by a crash is redone by SQLite at the next open, like any other.
 *
 * Messages in: `'checkpoint'` (run one now; requests that arrive while one runs are merged) and
 * `'close'` (close the connection and end). Messages out: {@link CheckpointReport} after each run.
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
  /** The error message when the checkpoint failed (the store then checkpoints on its own thread). */
  readonly error?: string;
}

const port = parentPort;
if (port === null) throw new Error('checkpointWorker: must run as a worker thread.');
const { path } = workerData as { readonly path: string };
const db = new Database(path, { timeout: 0 });
db.pragma('busy_timeout = 0');
let requested = false;

function run(): void {
  requested = false;
  if (!db.open) return; // closed while this run was queued
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    port?.postMessage({ busy: r?.busy ?? 1, log: r?.log ?? 0, checkpointed: r?.checkpointed ?? 0 });
  } catch (err) {
    port?.postMessage({ busy: 1, log: 0, checkpointed: 0, error: String((err as Error).message ?? err) });
  }
}

port.on('message', (m: unknown) => {
  if (m === 'close') {
    db.close();
    port.close();
    return;
  }
  if (m === 'checkpoint' && !requested) {
    requested = true;
    setImmediate(run); // requests queued behind this one are merged into it
  }
});
