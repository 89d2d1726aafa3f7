#!/usr/bin/env node
// Re-checks the mutants a StrykerJS run did not kill outright (docs/privacy.md, "Mutation testing").
// On a loaded machine a slow test file makes a mutant "Timeout" although the tests would kill it, and
// Stryker counts every timeout as detected; this script applies each such mutant alone, in a scratch
// copy of src/ and test/, runs the scope's test command with a longer limit, and says what really
// happened: killed (and by which file), survived, or still running at the limit (a real timeout:
// the mutant makes the code loop).
//
// Usage: node scripts/mutation-recheck.mjs [--scope policies|privacy] [--status Timeout,Survived]
//                                          [--limit SECONDS] [--json FILE] [--shard I/N]
// Reads reports/mutation/<scope>.json (written by `npm run mutation:<scope>`); the test command is the
// one stryker.config.mjs gives that scope. Prints a line per mutant (also when piped) and a summary.
// --shard I/N takes every N-th mutant from the I-th (1-based), to run N processes side by side.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    scope: { type: 'string', default: 'policies' },
    status: { type: 'string', default: 'Timeout,Survived' },
    limit: { type: 'string', default: '240' },
    json: { type: 'string' },
    shard: { type: 'string', default: '1/1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    readFileSync(new URL(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 13)
      .join('\n'),
  );
  process.exit(0);
}
const scope = values.scope;
if (scope !== 'policies' && scope !== 'privacy') {
  console.error(`mutation-recheck: --scope must be policies or privacy. Got '${scope}'.`);
  process.exit(2);
}
const limit = Number(values.limit);
if (!Number.isFinite(limit) || limit <= 0) {
  console.error(`mutation-recheck: --limit must be a positive number of seconds. Got '${values.limit}'.`);
  process.exit(2);
}
const shard = /^(\d+)\/(\d+)$/.exec(values.shard);
if (shard === null || Number(shard[1]) < 1 || Number(shard[1]) > Number(shard[2])) {
  console.error(`mutation-recheck: --shard must be I/N with 1 <= I <= N. Got '${values.shard}'.`);
  process.exit(2);
}
const [shardIndex, shardCount] = [Number(shard[1]) - 1, Number(shard[2])];
const statuses = new Set(values.status.split(',').map((s) => s.trim()));
const root = process.cwd();
const reportPath = join(root, 'reports', 'mutation', `${scope}.json`);
if (!existsSync(reportPath)) {
  console.error(`mutation-recheck: ${reportPath} does not exist; run \`npm run mutation:${scope}\` first.`);
  process.exit(2);
}
process.env.MUTATION_SCOPE = scope;
const config = (await import(resolve(root, 'stryker.config.mjs'))).default;
const testFiles = config.commandRunner.command.split(/\s+/).filter((w) => w.endsWith('.test.ts'));
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

/** Offset in `text` of a 1-based line and column (Stryker's report locations). */
function offsetOf(text, { line, column }) {
  let at = 0;
  for (let l = 1; l < line; l++) at = text.indexOf('\n', at) + 1;
  return at + column - 1;
}

// the scratch copy: src/ and test/ copied (mutated there), the rest linked
const scratch = mkdtempSync(join(tmpdir(), 'adaprivate-recheck-'));
for (const dir of ['src', 'test', 'scripts'])
  cpSync(join(root, dir), join(scratch, dir), { recursive: true });
for (const f of ['package.json', 'tsconfig.json', 'node_modules'])
  symlinkSync(join(root, f), join(scratch, f));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/** Runs the test files in order; resolves with the first failing file, 'survived' or 'timeout'. */
function runTests() {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['scripts/mutation-tests.mjs', ...testFiles], {
      cwd: scratch,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let err = '';
    child.stderr.on('data', (b) => {
      err += b;
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      done({ outcome: 'timeout', by: null });
    }, limit * 1000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const m = /mutation-tests: (\S+) failed/.exec(err);
      done(
        code === 0 ? { outcome: 'survived', by: null } : { outcome: 'killed', by: m ? m[1] : `exit ${code}` },
      );
    });
  });
}

const all = [];
for (const [file, entry] of Object.entries(report.files)) {
  for (const m of entry.mutants) if (statuses.has(m.status)) all.push({ file, source: entry.source, m });
}
const todo = all.filter((_, i) => i % shardCount === shardIndex);
console.log(
  `mutation-recheck: ${todo.length} mutants (${[...statuses].join(', ')}) of ${reportPath}, limit ${limit} s`,
);
const results = [];
let i = 0;
for (const { file, source, m } of todo) {
  i++;
  const target = join(scratch, file);
  const a = offsetOf(source, m.location.start);
  const b = offsetOf(source, m.location.end);
  writeFileSync(target, source.slice(0, a) + m.replacement + source.slice(b));
  const started = process.hrtime.bigint();
  const r = await runTests();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  writeFileSync(target, source);
  const where = `${file}:${m.location.start.line}`;
  const original = source.slice(a, b).replace(/\s+/g, ' ').slice(0, 60);
  const replacement = m.replacement.replace(/\s+/g, ' ').slice(0, 60);
  results.push({
    id: m.id,
    file,
    line: m.location.start.line,
    mutator: m.mutatorName,
    original,
    replacement,
    was: m.status,
    ...r,
    seconds,
  });
  console.log(
    `[${i}/${todo.length}] ${where} ${m.mutatorName} '${original}' -> '${replacement}' (was ${m.status}): ${r.outcome}${r.by ? ` by ${r.by}` : ''} in ${seconds.toFixed(1)} s`,
  );
}
const count = (o) => results.filter((r) => r.outcome === o).length;
console.log(
  `mutation-recheck: killed ${count('killed')}, survived ${count('survived')}, still running at ${limit} s ${count('timeout')}`,
);
if (values.json)
  writeFileSync(values.json, `${JSON.stringify({ scope, limit, testFiles, results }, null, 2)}\n`);
