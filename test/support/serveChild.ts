/**
 * Test helper: `adaprivate serve` as a child process on `--port 0` with `--json`, for the crash
 * tests. Resolves once the server prints its startup line, or when it exits before that (`url`
 * null: e.g. killed by the release test hook during the catch-up at start, or a refused database).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface ServeExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

export interface ServeChild {
  readonly child: ChildProcess;
  /** The base URL, or null when the process exited before listening. */
  readonly url: string | null;
  readonly exited: Promise<ServeExit>;
}

/** Starts `adaprivate serve --db <db>` with the API key `key` and the given release kill hook. */
export function startServeChild(db: string, key: string, killInRelease: string): Promise<ServeChild> {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--db', db, '--port', '0', '--json', '--log-level', 'error'],
    {
      env: {
        ...process.env,
        ADAPRIVATE_API_KEY: key,
        // replicas on one PostgreSQL database need the same snapshot key (SQLite would make a file)
        ADAPRIVATE_SNAPSHOT_KEY: `snapshot key of the test servers, ${key}`,
        ADAPRIVATE_TEST_KILL_IN_RELEASE: killInRelease,
        ADAPRIVATE_TEST_HOOKS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const exited = new Promise<ServeExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  const lines = createInterface({ input: child.stdout! });
  return new Promise<ServeChild>((resolve) => {
    lines.once('line', (l) => resolve({ child, url: (JSON.parse(l) as { url: string }).url, exited }));
    exited.then(() => resolve({ child, url: null, exited }));
  });
}
