// `adaprivate evaluate --private` (issue 27): private DR, --unit user, the exact accountant by
// default, --accountant zcdp, and --out with the ledger, seeds and version.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createRng } from '../../src/random/index.js';

const here = fileURLToPath(import.meta.url);
const cli = here.endsWith('.ts')
  ? fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))
  : fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const nodeArgs = here.endsWith('.ts') ? ['--import', 'tsx', cli] : [cli];
const run = (args: string[]) => spawnSync(process.execPath, [...nodeArgs, ...args], { encoding: 'utf8' });

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-evaluate-private-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// 300 decisions of 60 units (5 each), 3 arms, uniform logging; the target always plays arm 2
const logFile = join(dir, 'units.jsonl');
const targetFile = join(dir, 'target.jsonl');
{
  const rng = createRng(21, 'evaluate-private-cli');
  const lines: string[] = [];
  const targets: string[] = [];
  for (let t = 0; t < 300; t++) {
    const arms = [0, 1, 2].map((a) => ({
      id: `i${a}`,
      features: [a === 0 ? 1 : 0, a === 1 ? 1 : 0, a === 2 ? 0.5 : 0],
    }));
    const chosen = rng.integer(3);
    const reward = rng.uniform() < [0.2, 0.4, 0.6][chosen]! ? 1 : 0;
    lines.push(
      JSON.stringify({ eventId: `e${t}`, arms, chosen, propensity: 1 / 3, reward, unit: `u${t % 60}` }),
    );
    targets.push(JSON.stringify({ eventId: `e${t}`, probabilities: [0, 0, 1] }));
  }
  writeFileSync(logFile, `${lines.join('\n')}\n`);
  writeFileSync(targetFile, `${targets.join('\n')}\n`);
}

interface PrivateJson {
  config: { noiseSeed: number | null; seed: number };
  privateEvaluation: {
    unit: string;
    accountant: string;
    clipBias?: string;
    contributions?: { perUnit: number; units: number; kept: number; dropped: number };
    ledger: { releases: number; epsilon: number; noise: string };
    guarantee: { words: string; epsilon: number };
    results: {
      estimates: { estimator: string; value: number; interval: [number, number]; noiseSd: number }[];
    }[];
  };
}

const base = ['evaluate', '--logs', logFile, '--target', targetFile, '--private', '--private-epsilon', '1'];

describe('adaprivate evaluate --private (DR, unit, accountant, --out)', () => {
  it('releases IPW, SNIPW and DR through the exact accountant: the reward model and two releases per setting', () => {
    const r = run([...base, '--noise-seed', '3', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const pe = (JSON.parse(r.stdout) as PrivateJson).privateEvaluation;
    assert.equal(pe.accountant, 'exact');
    assert.equal(pe.unit, 'event');
    assert.equal(pe.ledger.releases, 3);
    assert.ok(Math.abs(pe.ledger.epsilon - 1) < 1e-6, String(pe.ledger.epsilon));
    assert.deepEqual(
      pe.results[0]!.estimates.map((e) => e.estimator),
      ['ipw', 'snipw', 'dr'],
    );
    for (const e of pe.results[0]!.estimates) assert.ok(e.noiseSd > 0 && e.interval[0] < e.interval[1]);
    // every weight is <= 3 (propensity 1/3) <= the clip 20: no clipping bias, and the report says so
    assert.match(pe.clipBias ?? '', /no clipping bias/);
  });

  it('--accountant zcdp calibrates larger noise for the same budget', () => {
    const exact = JSON.parse(run([...base, '--noise-seed', '3', '--json']).stdout) as PrivateJson;
    const z = run([...base, '--noise-seed', '3', '--accountant', 'zcdp', '--json']);
    assert.equal(z.status, 0, z.stderr);
    const zj = JSON.parse(z.stdout) as PrivateJson;
    assert.equal(zj.privateEvaluation.accountant, 'zcdp');
    const sd = (j: PrivateJson) => j.privateEvaluation.results[0]!.estimates[0]!.noiseSd;
    assert.ok(sd(zj) > sd(exact) * 1.1, `${sd(zj)} vs ${sd(exact)}`);
  });

  it("--unit user --contributions 2 keeps each unit's first 2 decisions, releases once, and states the unit", () => {
    const r = run([
      ...base,
      '--unit',
      'user',
      '--contributions',
      '2',
      '--estimators',
      'ipw,snipw',
      '--noise-seed',
      '3',
      '--json',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const pe = (JSON.parse(r.stdout) as PrivateJson).privateEvaluation;
    assert.equal(pe.unit, 'user');
    assert.deepEqual(
      { ...pe.contributions, rule: undefined },
      { perUnit: 2, units: 60, kept: 120, dropped: 180, rule: undefined },
    );
    assert.equal(pe.ledger.releases, 1);
    assert.match(pe.guarantee.words, /^user level: protects all the decisions of one unit/);
    const text = run([...base, '--unit', 'user', '--estimators', 'ipw,snipw', '--noise-seed', '3']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /Guarantee \(user level: protects all the decisions of one unit/);
    // one release: "1 Gaussian release", not "1 Gaussian releases"
    assert.match(text.stdout, /the evaluation's ledger \(1 Gaussian release, /);
    assert.match(
      text.stdout,
      /Contribution bound: 60 of 300 evaluable decisions kept from 60 units \(240 left out/,
    );
  });

  it('--unit user releases DR too: the reward model (Gram matrix and rewards) and DR through the same ledger', () => {
    const r = run([...base, '--unit', 'user', '--weight-clip', '3', '--noise-seed', '3', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const pe = (JSON.parse(r.stdout) as PrivateJson).privateEvaluation;
    assert.equal(pe.ledger.releases, 3);
    assert.ok(Math.abs(pe.ledger.epsilon - 1) < 1e-6, String(pe.ledger.epsilon));
    assert.deepEqual(
      pe.results[0]!.estimates.map((e) => e.estimator),
      ['ipw', 'snipw', 'dr'],
    );
    assert.match(pe.guarantee.words, /contexts and propensities included/);
    assert.match((pe as unknown as { rewardModel: string }).rewardModel, /Gram matrix and reward statistic/);
  });

  it("--unit user with a private policy runs it with user-level privacy and protects a unit's rewards; mixing with --target is refused", () => {
    const r = run([
      'evaluate',
      '--logs',
      logFile,
      '--policy',
      'adaprivate-ts',
      '--epsilon',
      '1',
      '--private',
      '--private-epsilon',
      '1',
      '--unit',
      'user',
      '--contributions',
      '2',
      '--runs',
      '1',
      '--samples',
      '50',
      '--noise-seed',
      '3',
      '--json',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const pe = (JSON.parse(r.stdout) as PrivateJson).privateEvaluation;
    assert.equal(pe.ledger.releases, 3);
    assert.match(pe.guarantee.words, /^user level \(rewards\): protects all the rewards of one unit/);
    assert.match(pe.guarantee.words, /at most 2 rewards to each private policy/);
    // the policy's own user-level releases compose with the evaluation's: epsilon 1 + at most 1
    assert.ok(pe.guarantee.epsilon > 1 && pe.guarantee.epsilon <= 2 + 1e-9, String(pe.guarantee.epsilon));
    assert.deepEqual(
      { ...pe.contributions, rule: undefined },
      { perUnit: 2, units: 60, kept: 120, dropped: 180, rule: undefined },
    );
    const mixed = run([...base, '--policy', 'adaprivate-ts', '--epsilon', '1', '--unit', 'user']);
    assert.equal(mixed.status, 2);
    assert.match(mixed.stderr, /either --target files .* or private policies/);
  });

  it('--unit user refuses a log without units, naming the reason', () => {
    const noUnits = join(dir, 'no-units.jsonl');
    writeFileSync(noUnits, readFileSync(logFile, 'utf8').replace(/,"unit":"u[0-9]+"/g, ''));
    const r = run([
      'evaluate',
      '--logs',
      noUnits,
      '--target',
      targetFile,
      '--private',
      '--private-epsilon',
      '1',
      '--unit',
      'user',
      '--estimators',
      'ipw',
    ]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /needs the unit of every decision/);
  });

  it('a released estimate outside [0, 1] (tiny budget: large noise) says the noise moved it there', () => {
    const r = run([
      'evaluate',
      '--logs',
      logFile,
      '--target',
      targetFile,
      '--private',
      '--private-epsilon',
      '0.05',
      '--noise-seed',
      '11',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => / (IPW|SNIPW|DR) -?[0-9]/.test(l));
    assert.equal(lines.length, 3);
    let outside = 0;
    for (const l of lines) {
      const v = Number(/ (?:IPW|SNIPW|DR) (-?[0-9.]+) /.exec(l)![1]);
      if (v < 0 || v > 1) {
        outside++;
        assert.match(l, /outside the reward range \[0, 1\]: the privacy noise moved it there/);
      } else assert.ok(!l.includes('outside the reward range'));
    }
    assert.ok(outside > 0, r.stdout);
  });

  it('--out writes results.json (version, seeds, config, ledger) and report.md', () => {
    const out = join(dir, 'private-out');
    const r = run([...base, '--noise-seed', '7', '--seed', '4', '--out', out]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as PrivateJson & {
      version: string;
    };
    assert.match(j.version, /^\d+\.\d+\.\d+/);
    assert.equal(j.config.noiseSeed, 7);
    assert.equal(j.config.seed, 4);
    assert.equal(j.privateEvaluation.ledger.releases, 3);
    assert.equal(j.privateEvaluation.ledger.noise, 'seeded');
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    assert.match(md, /--noise-seed 7/);
    assert.match(md, /DR -?[0-9.]+ \[/);
  });
});
