#!/usr/bin/env node
// The 20 mutation classes of issue 12 (weakened release mechanisms), applied one at a time to a
// scratch copy of the sources, each followed by the policy privacy tests run straight from
// TypeScript (tsx). A mutant is killed when at least one test fails; the script prints the table
// mutation -> killing tests (docs/privacy.md, "Mutation testing") and exits 1 if any survives or
// if a mutation site is no longer found (then update the `find` text below).
// Usage: node scripts/privacy-mutants.mjs [--json] [--check] [id ...]   (ids like M01; default: all;
// --check only checks that each mutation site is still found)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const P = 'src/policies/';
const LEAK = (v) => `for (let i = 0; i < d; i++) this.${v}[i] = this.${v}[i]! + 1e-9 * reward * x[i]!;`;

/** [id, description, file, find, replace]: `find` must occur exactly once in `file`. */
export const MUTANTS = [
  [
    'M01',
    'AdaPrivate-TS/UCB/Adaptive: batch noise halved (ledger unchanged)',
    `${P}BatchedRidgePolicy.ts`,
    'const sigma = batch.sigma;',
    'const sigma = batch.sigma * 0.5;',
  ],
  [
    'M02',
    'AdaPrivate family: the partial last batch released with half the noise',
    `${P}BatchedRidgePolicy.ts`,
    'const sigma = batch.sigma;',
    'const sigma = this.inBatch < batch.batchSize ? batch.sigma * 0.5 : batch.sigma;',
  ],
  [
    'M03',
    'AdaPrivate family: the partial last batch never released',
    `${P}BatchedRidgePolicy.ts`,
    'if (this.batch !== null && this.inBatch > 0) this.release();',
    'if (this.batch !== null && this.inBatch < 0) this.release();',
  ],
  [
    'M04',
    'AdaPrivate-TS-Amp: every reward kept instead of rate q',
    `${P}BatchedRidgePolicy.ts`,
    'if (batch.q >= 1 || this.noiseRng.uniform() < batch.q)',
    'if (batch.q >= 0 || this.noiseRng.uniform() < batch.q)',
  ],
  [
    'M05',
    'AdaPrivate-TS-Amp: noise not rescaled by 1/q (only the sum is)',
    `${P}BatchedRidgePolicy.ts`,
    '(this.s[i]! + sigma * this.noise[i]!) * invQ',
    'this.s[i]! * invQ + sigma * this.noise[i]!',
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
    'this.noiseRng.fillNormal(this.noise);',
    'if (this.batchIndex === 1) this.noiseRng.fillNormal(this.noise);',
  ],
  [
    'M08',
    'zCDP-Episodic: episode noise halved (ledger unchanged)',
    `${P}ZcdpEpisodicPolicy.ts`,
    'this.theta[i] = this.theta[i]! + sigma * this.noise[i]!;',
    'this.theta[i] = this.theta[i]! + 0.5 * sigma * this.noise[i]!;',
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
    'const sens = this.gram.inverseNormBound(',
    'const sens = 0.5 * this.gram.inverseNormBound(',
  ],
  [
    'M11',
    'zCDP-Episodic: the whole budget spent per episode (rho_e = rho, not rho / M_max)',
    `${P}ZcdpEpisodicPolicy.ts`,
    'this.rhoEpisode = rho / this.maxEpisodes;',
    'this.rhoEpisode = rho;',
  ],
  [
    'M12',
    'DGS-LinUCB: per-step noise halved (ledger unchanged)',
    `${P}DgsLinUcbPolicy.ts`,
    'const sigma = this.sens / Math.sqrt(2 * this.rhoStep);',
    'const sigma = (0.5 * this.sens) / Math.sqrt(2 * this.rhoStep);',
  ],
  [
    'M13',
    'DGS-LinUCB: sensitivity under-stated (noise and ledger both use half of ||A^-1||)',
    `${P}DgsLinUcbPolicy.ts`,
    'const sens = this.factor.inverseNormBound(',
    'const sens = 0.5 * this.factor.inverseNormBound(',
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
    `${P}JdpLinUcbPolicy.ts`,
    'this.nodeNoise[i] = s * this.nodeNoise[i]!;',
    'this.nodeNoise[i] = 0.5 * s * this.nodeNoise[i]!;',
  ],
  [
    'M16',
    'JDP-LinUCB: the prefix sum adds only the level-0 node noise',
    `${P}JdpLinUcbPolicy.ts`,
    'for (let j = 0; j < this.levels; j++) {',
    'for (let j = 0; j < 1; j++) {',
  ],
  [
    'M17',
    'AdaC-OFUL / RarelySwitching: episode noise halved (ledger unchanged)',
    `${P}SwitchingOfulPolicy.ts`,
    'const released = this.s[i]! + this.sigma * this.noise[i]!;',
    'const released = this.s[i]! + 0.5 * this.sigma * this.noise[i]!;',
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
    'for (let i = 0; i < d; i++) dst[doff + i] = dst[doff + i]! * s;',
    'for (let i = 0; i < d; i++) dst[doff + i] = dst[doff + i]! * 1;',
  ],
  [
    'M20',
    'all policies: features up to norm 2 pass unclipped',
    `${P}BasePolicy.ts`,
    'if (n2 > 1 && n2 < Number.POSITIVE_INFINITY) {',
    'if (n2 > 4 && n2 < Number.POSITIVE_INFINITY) {',
  ],
];

const TESTS = [
  'test/policies/mechanisms.test.ts',
  'test/policies/privacy.test.ts',
  'test/policies/contract.test.ts',
];

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
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...TESTS], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // TAP: failing leaf tests are `not ok N - name` lines; suites that fail because a child failed too
    const killedBy = [];
    const lines = r.stdout.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i]);
      if (m === null) continue;
      const depth = m[1].length;
      const next = lines.slice(i + 1).find((l) => /^\s*(not )?ok \d+ - /.test(l));
      const isSuite = lines.slice(i + 1, i + 12).some((l) => /type: 'suite'/.test(l));
      if (!isSuite || next === undefined || depth > 0) killedBy.push(m[2].trim());
    }
    const leaves = killedBy.filter((n) => !/^test\//.test(n));
    results.push({
      id,
      what,
      file,
      status: r.status === 0 ? 'SURVIVED' : 'killed',
      killedBy: leaves,
      seconds: (Date.now() - started) / 1000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const last = results.at(-1);
  if (!json)
    console.log(
      `${last.id} ${last.status.padEnd(8)} ${last.what}\n      ${last.killedBy.slice(0, 4).join(' | ')}`,
    );
}
if (json) console.log(JSON.stringify(results, null, 2));
const bad = results.filter((r) => r.status !== 'killed');
if (!json) console.log(`${results.length - bad.length}/${results.length} mutants killed`);
process.exit(bad.length === 0 ? 0 : 1);
