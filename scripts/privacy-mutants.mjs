#!/usr/bin/env node
// The 20 mutation classes of issue 12 (weakened release mechanisms) and 3 of the mechanisms room
// (issue 24: record skipped, state committed before the noise, scratch reused), applied one at a time to a
// scratch copy of the sources, each followed by the policy privacy tests run straight from
// TypeScript (tsx). A mutant is killed when at least one test fails; the script prints the table
// mutation -> killing tests (docs/privacy.md, "Mutation testing") and exits 1 if any survives or
// if a mutation site is no longer found (then update the `find` text below).
// Each mutant runs the test files one at a time (its likely killers first, FIRST below) and stops at
// the first failing file, which the table names with its failing tests.
// Usage: node scripts/privacy-mutants.mjs [--json] [--check] [id ...]   (ids like M01; default: all;
// --check only checks that each mutation site is still found)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const P = 'src/policies/';
const M = 'src/mechanisms/';
const LEAK = (v) => `for (let i = 0; i < d; i++) this.${v}[i] = this.${v}[i]! + 1e-9 * reward * x[i]!;`;

/** [id, description, file, find, replace]: `find` must occur exactly once in `file`. */
export const MUTANTS = [
  [
    'M01',
    'AdaPrivate-TS/UCB/Adaptive: batch noise halved (ledger unchanged)',
    `${P}BatchedRidgePolicy.ts`,
    'this.b[i] = this.b[i]! + out[i]! * invQ;',
    'this.b[i] = this.b[i]! + (0.5 * out[i]! + 0.5 * sum[i]!) * invQ;',
  ],
  [
    'M02',
    'AdaPrivate family: the partial last batch released with half the noise',
    `${P}BatchedRidgePolicy.ts`,
    '      this.release(this.s);',
    '      const raw = Float64Array.from(this.s);\n      const b0 = Float64Array.from(this.b);\n      this.release(this.s);\n      for (let i = 0; i < this.d; i++) this.b[i] = b0[i]! + 0.5 * (this.b[i]! - b0[i]!) + 0.5 * raw[i]!;',
  ],
  [
    'M03',
    'AdaPrivate family: the partial last batch never released',
    `${P}BatchedRidgePolicy.ts`,
    'if (this.batch !== null && this.inBatch > 0) {',
    'if (this.batch !== null && this.inBatch < 0) {',
  ],
  [
    'M04',
    'AdaPrivate-TS-Amp: every reward kept instead of rate q',
    `${P}BatchedRidgePolicy.ts`,
    'if (this.q < 1) keep = this.unitDraw ?? this.mechanism!.sample(this.q);',
    'if (this.q < 0) keep = this.unitDraw ?? this.mechanism!.sample(this.q);',
  ],
  [
    'M05',
    'AdaPrivate-TS-Amp: noise not rescaled by 1/q (only the sum is)',
    `${P}BatchedRidgePolicy.ts`,
    'this.b[i] = this.b[i]! + out[i]! * invQ;',
    'this.b[i] = this.b[i]! + sum[i]! * invQ + (out[i]! - sum[i]!);',
  ],
  [
    'M06',
    'AdaPrivate family: a tiny multiple of raw own-batch rewards enters b (and theta)',
    `${P}BatchedRidgePolicy.ts`,
    '    this.inBatch++;',
    `    ${LEAK('b')}\n    this.inBatch++;`,
  ],
  [
    'M07',
    'AdaPrivate family: one noise vector reused for every batch',
    `${P}BatchedRidgePolicy.ts`,
    'this.b[i] = this.b[i]! + out[i]! * invQ;',
    'const kept = ((this as unknown as { kept?: Float64Array }).kept ??= out.map((v, j) => v - sum[j]!));\n      this.b[i] = this.b[i]! + (sum[i]! + kept[i]!) * invQ;',
  ],
  [
    'M08',
    'zCDP-Episodic: episode noise halved (ledger unchanged)',
    `${P}ZcdpEpisodicPolicy.ts`,
    '    this.active.copyFrom(this.gram);\n    this.sens = sens;',
    '    for (let i = 0; i < this.d; i++) this.theta[i] = this.exact[i]! + 0.5 * (this.theta[i]! - this.exact[i]!);\n    this.active.copyFrom(this.gram);\n    this.sens = sens;',
  ],
  [
    'M09',
    'zCDP-Episodic: a tiny multiple of raw own-episode rewards enters theta',
    `${P}ZcdpEpisodicPolicy.ts`,
    '    this.inEpisode++;',
    `    ${LEAK('theta')}\n    this.inEpisode++;`,
  ],
  [
    'M10',
    'zCDP-Episodic: sensitivity under-stated (noise and ledger both use half of ||V^-1||)',
    `${P}ZcdpEpisodicPolicy.ts`,
    'sens = this.gram.inverseNormBound(this.eigWork, sens);',
    'sens = 0.5 * this.gram.inverseNormBound(this.eigWork, sens);',
  ],
  [
    'M11',
    'zCDP-Episodic: the whole budget spent per episode (rho_e = rho, not rho / M_max)',
    `${P}createPolicy.ts`,
    '{ compositions: episodes, q: 1 }',
    '{ compositions: 1, q: 1 }',
  ],
  [
    'M12',
    'DGS-LinUCB: per-step noise halved (ledger unchanged)',
    `${P}DgsLinUcbPolicy.ts`,
    '    this.sens = sens;\n    this.nextRefresh = nextRefresh;',
    '    for (let i = 0; i < d; i++) this.theta[i] = this.exact[i]! + 0.5 * (this.theta[i]! - this.exact[i]!);\n    this.sens = sens;\n    this.nextRefresh = nextRefresh;',
  ],
  [
    'M13',
    'DGS-LinUCB: sensitivity under-stated (noise and ledger both use half of ||A^-1||)',
    `${P}DgsLinUcbPolicy.ts`,
    'sens = this.factor.inverseNormBound(this.eigWork, sens);',
    'sens = 0.5 * this.factor.inverseNormBound(this.eigWork, sens);',
  ],
  [
    'M14',
    'JDP-LinUCB: tree levels composed in parallel instead of sequentially',
    `${P}createPolicy.ts`,
    "new JdpLinUcbPolicy('jdp-linucb', c, budgetEpsilon(c), makeLedger(c.delta, 'sequential'))",
    "new JdpLinUcbPolicy('jdp-linucb', c, budgetEpsilon(c), makeLedger(c.delta, 'parallel'))",
  ],
  [
    'M15',
    'JDP-LinUCB: tree node noise halved (ledger unchanged)',
    `${M}GaussianMechanism.ts`,
    'for (let i = 0; i < n; i++) sc[i] = sigma * sc[i]!;',
    'for (let i = 0; i < n; i++) sc[i] = 0.5 * sigma * sc[i]!;',
  ],
  [
    'M16',
    'JDP-LinUCB: the prefix sum adds only the level-0 node noise',
    `${P}JdpLinUcbPolicy.ts`,
    'for (let j = 0; j < this.levels; j++) {\n      if (Math.floor(t / 2 ** j) % 2 === 1) {',
    'for (let j = 0; j < 1; j++) {\n      if (Math.floor(t / 2 ** j) % 2 === 1) {',
  ],
  [
    'M17',
    'AdaC-OFUL / RarelySwitching: episode noise halved (ledger unchanged)',
    `${P}SwitchingOfulPolicy.ts`,
    'const released = out[i]!;',
    'const released = 0.5 * out[i]! + 0.5 * this.s[i]!;',
  ],
  [
    'M18',
    'AdaC-OFUL / RarelySwitching: a tiny multiple of raw own-episode rewards enters theta',
    `${P}SwitchingOfulPolicy.ts`,
    '    this.inEpisode++;',
    `    ${LEAK('theta')}\n    this.inEpisode++;`,
  ],
  [
    'M19',
    'all policies: a clipped feature counted but not rescaled',
    `${P}BasePolicy.ts`,
    'const s = 1 / Math.sqrt(n2);\n    for (let i = 0; i < d; i++) dst[doff + i] = dst[doff + i]! * s;',
    'const s = 1 / Math.sqrt(n2);\n    for (let i = 0; i < d; i++) dst[doff + i] = dst[doff + i]! * 1;',
  ],
  [
    'M20',
    'all policies: features up to norm 2 pass unclipped',
    `${P}BasePolicy.ts`,
    'if (n2 > 1 && n2 < Number.POSITIVE_INFINITY) {',
    'if (n2 > 4 && n2 < Number.POSITIVE_INFINITY) {',
  ],
  // the mechanisms room (issue 24): one release call must draw, record and commit together
  [
    'M21',
    'mechanisms room: a release not recorded in the ledger',
    `${M}GaussianMechanism.ts`,
    'for (let i = 0; i < n; i++) sc[i] = stat[start + i]! + sigma * sc[i]!;\n    }\n    this.host.ledger().record(event, round, partition, label);',
    'for (let i = 0; i < n; i++) sc[i] = stat[start + i]! + sigma * sc[i]!;\n    }\n    void event;',
  ],
  [
    'M22',
    'mechanisms room: the statistic committed to the released slot before the noise is drawn',
    `${M}GaussianMechanism.ts`,
    '    const event = this.eventFor(sensitivity);\n    const sigma = this.calibration.sigma(sensitivity);\n    const secure = this.host.secureWords();\n    if (secure !== null && this.discrete) {\n      try {\n        discreteGaussianRelease(stat,',
    '    for (let i = 0; i < n; i++) out[outStart + i] = stat[start + i]!;\n    const event = this.eventFor(sensitivity);\n    const sigma = this.calibration.sigma(sensitivity);\n    const secure = this.host.secureWords();\n    if (secure !== null && this.discrete) {\n      try {\n        discreteGaussianRelease(stat,',
  ],
  [
    'M23',
    'mechanisms room: the noise scratch reused (drawn once, added to every later release)',
    `${M}GaussianMechanism.ts`,
    'this.host.noiseRng().fillNormal(sc, 0, n);\n      for (let i = 0; i < n; i++) sc[i] = stat[start + i]! + sigma * sc[i]!;',
    'if (this.zeros[0] === 0) this.host.noiseRng().fillNormal(this.zeros, 0, n);\n      for (let i = 0; i < n; i++) sc[i] = stat[start + i]! + sigma * this.zeros[i]!;',
  ],
];

const TESTS = [
  'test/policies/mechanisms.test.ts',
  'test/policies/privacy.test.ts',
  'test/policies/contract.test.ts',
  'test/policies/failClosed.test.ts',
  'test/policies/jdpRewind.test.ts',
];

/** A test file that runs longer than this under a mutant counts as failing (it hung). */
const FILE_TIMEOUT_MS = 600_000;

/** Test files tried first for a mutant (the rest of TESTS follow, in order). */
const FIRST = {
  M14: ['test/policies/privacy.test.ts', 'test/policies/jdpRewind.test.ts'],
  M08: ['test/policies/mechanisms.test.ts'],
  M12: ['test/policies/mechanisms.test.ts'],
  M21: ['test/policies/failClosed.test.ts', 'test/policies/contract.test.ts'],
  M22: ['test/policies/failClosed.test.ts'],
};

const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.filter((a) => !a.startsWith('--'));
const root = resolve('.');
const chosen = MUTANTS.filter(([id]) => only.length === 0 || only.includes(id));
if (args.includes('--check')) {
  // only check that every mutation site is found exactly once (after the code moved)
  let bad = 0;
  for (const [id, , file, find] of chosen) {
    const hits = readFileSync(join(root, file), 'utf8').split(find).length - 1;
    if (hits !== 1) bad++;
    console.log(`${id} ${file}: site found ${hits} time(s)`);
  }
  process.exit(bad === 0 ? 0 : 1);
}
const results = [];
for (const [id, what, file, find, replace] of chosen) {
  const dir = mkdtempSync(join(tmpdir(), `adaprivate-mutant-${id}-`));
  try {
    for (const d of ['src', 'test', 'package.json', 'tsconfig.json'])
      cpSync(join(root, d), join(dir, d), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    const hits = text.split(find).length - 1;
    if (hits !== 1) {
      results.push({ id, what, file, status: `site found ${hits} times`, killedBy: [] });
      continue;
    }
    writeFileSync(path, text.replace(find, replace));
    const started = Date.now();
    // one test file at a time, the mutant's likely killers first, stopping at the first file that
    // fails (a killed mutant needs one failing test; the whole list ran > 7 min per mutant under load)
    const files = [...(FIRST[id] ?? []), ...TESTS.filter((f) => !(FIRST[id] ?? []).includes(f))];
    const killedBy = [];
    let failedFile = null;
    let status = 0;
    for (const f of files) {
      // the file runs in this one child (no --test runner process in between), so the timeout's
      // SIGKILL ends it: a mutant can make a test loop forever (M14 did in mechanisms.test.ts)
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--test-reporter=tap', f], {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        timeout: FILE_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      });
      if (r.status === 0) continue;
      if (r.error?.code === 'ETIMEDOUT') {
        status = 1;
        failedFile = f;
        killedBy.push(`(${f} did not finish within ${FILE_TIMEOUT_MS / 1000} s: a test hung)`);
        break;
      }
      status = r.status ?? 1;
      failedFile = f;
      // TAP: failing leaf tests are `not ok N - name` lines; suites that fail because a child failed too
      const lines = r.stdout.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const m = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i]);
        if (m === null) continue;
        const depth = m[1].length;
        const next = lines.slice(i + 1).find((l) => /^\s*(not )?ok \d+ - /.test(l));
        const isSuite = lines.slice(i + 1, i + 12).some((l) => /type: 'suite'/.test(l));
        if (!isSuite || next === undefined || depth > 0) killedBy.push(m[2].trim());
      }
      if (killedBy.length === 0)
        killedBy.push(`(${f} exited ${r.status}: ${r.stderr.split('\n').slice(-3).join(' ')})`);
      break;
    }
    const leaves = killedBy.filter((n) => !/^test\//.test(n));
    results.push({
      id,
      what,
      site: file,
      status: status === 0 ? 'SURVIVED' : 'killed',
      file: failedFile,
      killedBy: leaves,
      seconds: (Date.now() - started) / 1000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const last = results.at(-1);
  if (!json)
    console.log(
      `${last.id} ${last.status.padEnd(8)} ${last.what} (${last.seconds ?? 0} s)\n      ${last.file ?? ''}: ${last.killedBy.slice(0, 4).join(' | ')}`,
    );
}
if (json) console.log(JSON.stringify(results, null, 2));
const bad = results.filter((r) => r.status !== 'killed');
if (!json) console.log(`${results.length - bad.length}/${results.length} mutants killed`);
process.exit(bad.length === 0 ? 0 : 1);
