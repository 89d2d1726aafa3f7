#!/usr/bin/env node
// Measures every compiled test file on its own: wall time and CPU time (user + system, the file's
// process and every child it waited for: servers, PostgreSQL, npm, tsc), via /usr/bin/time (Linux).
// Usage: node scripts/test-timings.mjs [--out file.tsv] [--write-times] [--concurrency N] [substring ...]
// Files run N at a time (default 2, like `npm test` on 2 cores), in the order run-tests.mjs gives
// them. Output: one line per file, sorted by CPU, and the totals; --out also writes a TSV
// (file, wall_s, user_s, sys_s, cpu_s, rc); --write-times puts the measured CPU-seconds of the files run
// into scripts/test-times.json (the order of run-tests.mjs). On a loaded machine compare CPU, not wall.
// Each file's figure includes ~0.3-0.5 CPU-s of one extra `node --test` parent process.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { listTestFiles, timesFile } from './test-files.mjs';

const args = process.argv.slice(2);
let out;
let writeTimes = false;
let concurrency = 2;
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out') out = args[++i];
  else if (args[i] === '--write-times') writeTimes = true;
  else if (args[i] === '--concurrency') concurrency = Number(args[++i]);
  else filters.push(args[i]);
}
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error('test-timings: --concurrency must be a positive integer.');
  process.exit(2);
}
if (!existsSync('/usr/bin/time')) {
  console.error('test-timings: needs /usr/bin/time (GNU time).');
  process.exit(2);
}
const files = listTestFiles(filters);
const rows = [];
const t0 = Date.now();
let next = 0;
const runOne = (file) =>
  new Promise((resolve) => {
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'TIMING %e %U %S', process.execPath, '--test', '--test-reporter=dot', file],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (rc) => {
      const m = /TIMING ([0-9.]+) ([0-9.]+) ([0-9.]+)\s*$/.exec(stderr);
      const [wall, user, sys] = m ? m.slice(1).map(Number) : [Number.NaN, Number.NaN, Number.NaN];
      const row = { file, wall, user, sys, cpu: user + sys, rc };
      rows.push(row);
      const status = rc === 0 ? 'ok  ' : 'FAIL';
      console.log(
        `${status} ${wall.toFixed(1).padStart(6)} s wall ${row.cpu.toFixed(1).padStart(6)} s CPU  ${file}`,
      );
      if (rc !== 0) console.log(stdout.slice(-4000), stderr.slice(-4000));
      resolve();
    });
  });
const worker = async () => {
  while (next < files.length) await runOne(files[next++]);
};
await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
const total = (Date.now() - t0) / 1000;
rows.sort((a, b) => b.cpu - a.cpu);
const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
console.log('\nby CPU:');
for (const r of rows)
  console.log(
    `${r.cpu.toFixed(1).padStart(6)} CPU ${r.wall.toFixed(1).padStart(6)} wall  ${r.file}${r.rc ? '  FAILED' : ''}`,
  );
console.log(
  `\n${rows.length} files, ${rows.filter((r) => r.rc !== 0).length} failed; wall ${total.toFixed(1)} s ` +
    `(concurrency ${concurrency}); sum of file walls ${sum('wall').toFixed(1)} s; CPU ${sum('cpu').toFixed(1)} s ` +
    `(user ${sum('user').toFixed(1)} + sys ${sum('sys').toFixed(1)})`,
);
if (out) {
  const lines = ['file\twall_s\tuser_s\tsys_s\tcpu_s\trc'];
  for (const r of rows) lines.push([r.file, r.wall, r.user, r.sys, r.cpu.toFixed(2), r.rc].join('\t'));
  writeFileSync(out, `${lines.join('\n')}\n`);
}
if (writeTimes) {
  const doc = JSON.parse(readFileSync(timesFile, 'utf8'));
  for (const r of rows)
    if (r.rc === 0) doc.cpuSeconds[r.file.replace(/^dist\/test\//, '')] = Math.round(r.cpu * 10) / 10;
  doc.cpuSeconds = Object.fromEntries(Object.entries(doc.cpuSeconds).sort((a, b) => b[1] - a[1]));
  writeFileSync(timesFile, `${JSON.stringify(doc, null, 2)}\n`);
}
process.exit(rows.some((r) => r.rc !== 0) ? 1 : 0);
