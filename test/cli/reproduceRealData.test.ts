import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { registerReproduceRealData } from '../../src/cli/commands/reproduceRealData.js';
import { cacheVersion } from '../../src/experiments/codeFingerprint.js';
import { createRng } from '../../src/random/index.js';
import { VERSION } from '../../src/version.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-rrd-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `reproduce jester --quick` on `data` in this process and returns what it printed. */
async function runQuick(data: string, out: string, doc: string): Promise<string> {
  const program = new Command();
  program.exitOverride();
  const reproduce = program.command('reproduce');
  registerReproduceRealData(reproduce);
  const write = process.stdout.write;
  let printed = '';
  process.stdout.write = ((s: string) => {
    printed += s;
    return true;
  }) as typeof process.stdout.write;
  try {
    await program.parseAsync(
      [
        'reproduce',
        'jester',
        '--data',
        data,
        '--quick',
        '--out',
        out,
        '--workers',
        '1',
        '--horizon',
        '300',
        '--seeds',
        '2',
        '--rank',
        '5',
        '--doc',
        doc,
      ],
      { from: 'user' },
    );
  } finally {
    process.stdout.write = write;
  }
  return printed;
}

describe('reproduce jester --quick (tiny generated dataset)', () => {
  it('runs the real-data tables end to end and writes results, curves and the section', async () => {
    const rng = createRng(3, 'jester');
    const rows: string[] = [];
    for (let u = 0; u < 60; u++) {
      const taste = rng.normal();
      const vals = Array.from({ length: 100 }, (_, j) =>
        j < 20
          ? Math.max(-10, Math.min(10, Math.round((taste * 5 * Math.cos(j) + 2 * rng.normal()) * 100) / 100))
          : 99,
      );
      rows.push([20, ...vals].join(','));
    }
    const data = join(dir, 'jester-data-1.csv');
    writeFileSync(data, `${rows.join('\n')}\n`);
    const out = join(dir, 'out');
    const doc = join(dir, 'section.md');
    const printed = await runQuick(data, out, doc);
    assert.ok(existsSync(join(out, 'features.bin')));
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    assert.ok(results.main.cells.length > 0);
    for (const c of results.main.cells) {
      assert.equal(c.config.protocol, 'replay');
      assert.equal(c.config.env.options.warmStart, false, 'Jester is cold-started by default');
      assert.ok(c.policyConfig.priorMean.every((v: number) => v === 0));
      assert.ok(c.effectiveSteps > 0 && c.effectiveSteps < 300);
      assert.ok(c.meanReward >= 0 && c.meanReward <= 1);
    }
    assert.ok(
      results.amp.cells.some((c: { config: { params: { q?: number } } }) => c.config.params.q === 0.3),
    );
    assert.match(readFileSync(join(out, 'ctr-over-time-eps1.csv'), 'utf8'), /^policy,round,ctr_mean/);
    const md = readFileSync(doc, 'utf8');
    assert.match(md, /## Real data: jester \(quick run\)/);
    assert.match(md, /\*\*Paper:\*\*/);
    assert.match(md, /cold start \(theta_0 = 0\)/);
    // the summary table: ours beside the paper, the verdict with its counts; a bottom line first
    assert.match(
      md,
      /\| Jester: AdaPrivate-TS is the best private method at every eps \| eps = 1: best private method: .* \(paper AdaPrivate-TS\) \| [a-z :]+ \(\d+\)/,
    );
    assert.match(
      md,
      /## Real data: jester \(quick run\)\n\n\*\*Bottom line\.\*\* Of the paper's 2 claims tested here, /,
    );
    assert.match(md, /This is a \*\*quick\*\* run/);
    assert.match(md, /!\[CTR over time at eps = 1\]\(img\/reproduction\/jester-ctr-over-time-eps1\.svg\)/);
    assert.ok(existsSync(join(dir, 'img', 'reproduction', 'jester-ctr-over-time-eps1.svg')));
    assert.ok(existsSync(join(out, 'jester-ctr-over-time-eps1.svg')));
    assert.match(printed, /## Real data: jester \(quick run\)/);
    assert.match(printed, /\| policy \| eps=1 \| eps=5 \|/);
    // the document names the real version, and its run time counts this code's invocations only
    assert.ok(md.includes(`(adaprivate ${VERSION})`) && !md.includes('0.0.0-unknown'));
    const timingPath = join(out, 'timing.json');
    const timing = JSON.parse(readFileSync(timingPath, 'utf8'));
    assert.equal(timing.invocations, 1);
    assert.equal(timing.cacheVersion, cacheVersion());
    await runQuick(data, out, doc);
    assert.equal(JSON.parse(readFileSync(timingPath, 'utf8')).invocations, 2, 'a re-render adds its share');
    writeFileSync(
      timingPath,
      JSON.stringify({ ...timing, cacheVersion: 'other', wallSeconds: 1e6, invocations: 7 }),
    );
    await runQuick(data, out, doc);
    const fresh = JSON.parse(readFileSync(timingPath, 'utf8'));
    assert.equal(fresh.invocations, 1, 'time spent under another cache version is not counted');
    assert.ok(fresh.wallSeconds < 1e6);
    assert.match(readFileSync(doc, 'utf8'), /summed over the 1 invocation\(s\)/);
  });
});

describe('reproduce movielens|jester: option errors', () => {
  it('--warm-start with --cold-start exits 2 with one line naming both', () => {
    const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
    const r = spawnSync(
      process.execPath,
      [cli, 'reproduce', 'movielens', '--data', dir, '--warm-start', '--cold-start'],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--warm-start and --cold-start exclude each other/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });
});
