#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's built-in test runner, each file
// in its own node process (`node --test-reporter=spec <file>`: node:test runs the file's tests and
// exits non-zero when one fails), and a time limit per file.
// Usage: node scripts/run-tests.mjs [substring ...]   (only files whose path contains a substring)
//
// Files run in parallel processes, as many as the machine has cores (at most 4; node's own default
// leaves one core idle, which on 2 cores means one file at a time); TEST_CONCURRENCY overrides.
// Many files wait on child processes (servers, PostgreSQL), so 2 at a time on 2 cores saves wall time.
// The longest files start first (CPU-seconds measured by scripts/test-timings.mjs, kept in
// scripts/test-times.json; a file not listed counts as 2 s), so the run does not end on one long file
// while the other core idles. The order changes no result: each file runs in its own process.
//
// Time limit (a guard against a hung file, not a speed check): a file still running after
// 600 s + 10 s per CPU-second of its entry in test-times.json (TEST_FILE_TIMEOUT=<seconds> sets one
// limit for all files) is reported by name with what it printed and what its threads were doing,
// then killed with everything it started (its own process group), and the run fails. Node 20's
// `--test-timeout` is per test, and is not used: a hang outside a test (a hook, the module's top
// level, the process not exiting after its last test) would escape it, and a per-test limit would
// make slow-but-correct tests on a loaded machine fail.
//
// `--no-concurrent-recompilation`: Node 20 can deadlock while a process shuts down (nodejs/node#54918:
// the main thread drains the platform's background tasks before 'beforeExit', while a background
// TurboFan job waits for the main thread to collect garbage). It hung a plain synchronous test file
// here (gdb: main thread in NodePlatform::DrainTasks, a TurboFan job in
// CollectionBarrier::AwaitCollectionBackground; node:test prints its summary only at 'beforeExit', so
// the file looked like a hang of its tests). With the flag TurboFan compiles on the main thread, so
// no compile job is left for the drain.
// Each file's output is printed in one piece when it ends; a summary of all files comes last.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileCost, listTestFiles } from './test-files.mjs';

const chosen = listTestFiles(process.argv.slice(2));
const requested = process.env.TEST_CONCURRENCY;
const concurrency =
  requested !== undefined && /^[1-9][0-9]*$/.test(requested)
    ? Number(requested)
    : Math.max(1, Math.min(4, availableParallelism()));
const fixedLimit = process.env.TEST_FILE_TIMEOUT;
if (fixedLimit !== undefined && !/^[1-9][0-9]*$/.test(fixedLimit)) {
  console.error(
    `run-tests: TEST_FILE_TIMEOUT must be a positive whole number of seconds. Got ${fixedLimit}.`,
  );
  process.exit(2);
}
/** Seconds a file may run before it counts as hung. */
const limitFor = (file) => (fixedLimit !== undefined ? Number(fixedLimit) : 600 + 10 * fileCost(file));

const reports = mkdtempSync(join(tmpdir(), 'adaprivate-test-reports-'));
const running = new Set();
const killGroup = (child, signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child, 'SIGKILL');
    rmSync(reports, { recursive: true, force: true });
    process.exit(130);
  });
}

/** What the process and its threads are doing (Linux /proc), for the hung-file report. */
function threadStates(pid) {
  const lines = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const at = `/proc/${pid}/task/${tid}`;
      const comm = readFileSync(`${at}/comm`, 'utf8').trim();
      const state = readFileSync(`${at}/stat`, 'utf8').split(') ')[1]?.split(' ')[0];
      const wchan = existsSync(`${at}/wchan`) ? readFileSync(`${at}/wchan`, 'utf8').trim() : '?';
      lines.push(`  thread ${tid} ${comm}: state ${state}, waiting in ${wchan || '-'}`);
    }
  } catch {
    lines.push('  (no /proc information)');
  }
  return lines.join('\n');
}

/** The JavaScript stack and the libuv handles from node's diagnostic report, if one was written. */
function reportSummary(dir) {
  const name = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.json')) : undefined;
  if (name === undefined) return '  (no diagnostic report: the main thread did not answer SIGUSR2)';
  try {
    const r = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    const js = (r.javascriptStack?.stack ?? []).slice(0, 12).map((l) => `    ${l}`);
    const handles = (r.libuv ?? [])
      .filter((h) => h.is_active)
      .map((h) => `    ${h.type}${h.is_referenced ? '' : ' (unref)'}${h.details ? ` ${h.details}` : ''}`);
    const native = (r.nativeStack ?? []).slice(0, 12).map((f) => `    ${f.symbol}`);
    return [
      ...(js.length > 0 ? ['  JavaScript stack:', ...js] : []),
      '  active libuv handles:',
      ...handles,
      '  native stack (main thread):',
      ...native,
    ].join('\n');
  } catch (e) {
    return `  (unreadable diagnostic report: ${e.message})`;
  }
}

const results = [];
const t0 = Date.now();
const runOne = (file, index) =>
  new Promise((resolve) => {
    const reportDir = join(reports, String(index));
    mkdirSync(reportDir);
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [
        '--no-concurrent-recompilation',
        '--report-on-signal',
        '--report-signal=SIGUSR2',
        `--report-directory=${reportDir}`,
        '--test-reporter=spec',
        file,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, FORCE_COLOR: '0' } },
    );
    running.add(child);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    let hung;
    const limit = limitFor(file);
    const timer = setTimeout(() => {
      hung = `${threadStates(child.pid)}\n`;
      killGroup(child, 'SIGUSR2');
      setTimeout(() => {
        hung += reportSummary(reportDir);
        killGroup(child, 'SIGKILL');
      }, 5000);
    }, limit * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const wall = (Date.now() - started) / 1000;
      const count = (what) => Number(new RegExp(`^ℹ ${what} (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
      const ok = code === 0 && hung === undefined;
      results.push({ file, ok, hung: hung !== undefined, tests: count('tests'), fail: count('fail') });
      const head = ok
        ? `▶ ${file} (${wall.toFixed(1)} s)`
        : hung !== undefined
          ? `✖ ${file}: HUNG, still running after ${limit} s; killed`
          : `✖ ${file}: FAILED (exit ${code ?? signal}, ${wall.toFixed(1)} s)`;
      process.stdout.write(`${head}\n${out}${hung !== undefined ? `what it was doing:\n${hung}\n` : ''}\n`);
      resolve();
    });
  });

let next = 0;
const worker = async () => {
  while (next < chosen.length) {
    const i = next++;
    await runOne(chosen[i], i);
  }
};
await Promise.all(Array.from({ length: Math.min(concurrency, chosen.length) }, worker));
rmSync(reports, { recursive: true, force: true });

const failed = results.filter((r) => !r.ok);
const sum = (k) => results.reduce((s, r) => s + r[k], 0);
console.log(
  `${results.length} files (concurrency ${concurrency}), ${sum('tests')} tests, ${sum('fail')} failed; ` +
    `wall ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
if (failed.length > 0) {
  console.log('failed files:');
  for (const r of failed) console.log(`  ${r.file}${r.hung ? ' (hung: killed at its time limit)' : ''}`);
}
process.exit(failed.length > 0 ? 1 : 0);
