import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './runCli.js';

// in-process (the spawned program's exit code and stderr are test/cli/main.test.ts's)
const run = runCli;
type Run = Awaited<ReturnType<typeof run>>;

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-evaluate-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface EvalJson {
  log: { decisions: number; evaluableDecisions: number; dim: number; uniformLogging: boolean };
  logging: { value: number; interval: [number, number] };
  results: {
    policy: string;
    epsilon: number | null;
    epsilonSpent: number | null;
    noise: string;
    estimates: {
      estimator: string;
      value: number;
      interval: [number, number];
      effectiveSampleSize: number;
      relative: number;
    }[];
  }[];
  warnings: string[];
  files: string[];
}

const small = ['--dim', '4', '--arms', '20', '--rounds', '600', '--seed', '3'];
const evalFlags = ['--bootstrap', '100', '--samples', '50', '--batch', '50', '--noise-seed', '2', '--json'];

describe('adaprivate logs synthetic + evaluate, end to end', () => {
  const jsonl = join(dir, 'logs.jsonl');
  const csv = join(dir, 'logs.csv');
  let gen: Run;
  let genCsv: Run;
  before(async () => {
    gen = await run(['logs', 'synthetic', '--out', jsonl, ...small, '--json']);
    genCsv = await run(['logs', 'synthetic', '--out', csv, ...small]);
  });

  it('logs synthetic writes the decisions and reports the logging policy and its expected value', async () => {
    assert.equal(gen.status, 0, gen.stderr);
    const s = JSON.parse(gen.stdout) as {
      decisions: number;
      loggingExpectedValue: number;
      logging: { kind: string };
    };
    assert.equal(s.decisions, 600);
    assert.equal(s.logging.kind, 'softmax');
    assert.ok(s.loggingExpectedValue > 0 && s.loggingExpectedValue < 1);
    assert.equal(readFileSync(jsonl, 'utf8').trim().split('\n').length, 600);
    assert.equal(genCsv.status, 0, genCsv.stderr);
    assert.match(genCsv.stdout, /wrote 600 decisions/);
  });

  it('evaluate --json: every setting has the five estimates with intervals, ESS and the ledger; files are written', async () => {
    const out = join(dir, 'report');
    const r = await run([
      'evaluate',
      '--logs',
      jsonl,
      '--policy',
      'adaprivate-ts,linucb',
      '--epsilon',
      '1,5',
      ...evalFlags,
      '--out',
      out,
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /evaluate: \(1\/3\) AdaPrivate-TS epsilon=1/, 'progress lines on stderr');
    const j = JSON.parse(r.stdout) as EvalJson;
    assert.equal(j.log.decisions, 600);
    assert.equal(j.log.dim, 4);
    assert.deepEqual(
      j.results.map((s) => [s.policy, s.epsilon]),
      [
        ['adaprivate-ts', 1],
        ['adaprivate-ts', 5],
        ['linucb', null],
      ],
    );
    for (const s of j.results) {
      assert.deepEqual(
        s.estimates.map((e) => e.estimator),
        ['replay', 'ipw', 'snipw', 'dm', 'dr'],
      );
      for (const e of s.estimates) {
        assert.ok(e.interval[0] <= e.value && e.value <= e.interval[1], `${s.policy} ${e.estimator}`);
        assert.ok(e.effectiveSampleSize > 0 && e.effectiveSampleSize <= 600);
        assert.ok(Math.abs(e.relative - e.value / j.logging.value) < 1e-12);
      }
      if (s.epsilon !== null) {
        assert.ok(
          Math.abs(s.epsilonSpent! - s.epsilon) < 1e-6,
          'the ledger of the evaluated policy spent its budget',
        );
        assert.equal(s.noise, 'seeded');
      }
    }
    assert.ok(j.warnings.some((w) => /Replay: the logging policy is not uniformly random/.test(w)));
    for (const name of ['report.html', 'report.md', 'results.json', 'results.csv', 'value-by-epsilon.svg']) {
      assert.ok(existsSync(join(out, name)), name);
    }
    assert.match(readFileSync(join(out, 'value-by-epsilon.svg'), 'utf8'), /<svg/);
    assert.match(readFileSync(join(out, 'report.md'), 'utf8'), /\| AdaPrivate-TS \| 1 \|/);
  });

  it('the CSV form of the same log gives the same estimates, and a seeded run repeats exactly', async () => {
    const args = ['--policy', 'lints', '--estimators', 'ipw,dr', ...evalFlags];
    const a = JSON.parse((await run(['evaluate', '--logs', jsonl, ...args])).stdout) as EvalJson;
    const b = JSON.parse((await run(['evaluate', '--logs', csv, ...args])).stdout) as EvalJson;
    const c = JSON.parse((await run(['evaluate', '--logs', jsonl, ...args])).stdout) as EvalJson;
    assert.deepEqual(b.results, a.results);
    assert.deepEqual(c.results, a.results);
    assert.deepEqual(
      a.results[0]!.estimates.map((e) => e.estimator),
      ['ipw', 'dr'],
    );
  });

  it('reads a service export (contract 4, with model fields, a decision whose reward never came, unnormalised features)', async () => {
    const p = join(dir, 'export.jsonl');
    const arms = [
      { id: 'a', features: [0.5, 0.1] },
      { id: 'b', features: [-1.2, 0.3] }, // norm above 1: clipped by the policy, with a warning
    ];
    const lines = Array.from({ length: 40 }, (_, t) =>
      JSON.stringify({
        eventId: `d${t}`,
        time: new Date(Date.UTC(2026, 0, 1, 0, 0, t)).toISOString(),
        arms,
        chosen: t % 2,
        propensity: 0.5,
        probabilities: [0.5, 0.5],
        ...(t === 7 ? {} : { reward: t % 3 === 0 ? 1 : 0 }),
        model: 'adaprivate-ts',
        modelVersion: 3,
      }),
    );
    writeFileSync(p, `${lines.join('\n')}\n`);
    const r = await run(['evaluate', '--logs', p, '--policy', 'linucb', '--bootstrap', '50', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as EvalJson;
    assert.equal(j.log.evaluableDecisions, 39);
    assert.equal(j.log.uniformLogging, true);
    assert.ok(
      j.warnings.some((w) => /1 of 40 decisions have no reward \(first at .*export\.jsonl:8\)/.test(w)),
      j.warnings.join('\n'),
    );
  });
});

describe('adaprivate evaluate refuses bad input with exit code 2 and one line', () => {
  it('a log with propensity 0, naming the line', async () => {
    const p = join(dir, 'bad.jsonl');
    const ok = { eventId: 'e', arms: [{ id: 'a', features: [1] }], chosen: 0, propensity: 1, reward: 1 };
    writeFileSync(
      p,
      `${JSON.stringify(ok)}\n${JSON.stringify({ ...ok, eventId: 'f' })}\n${JSON.stringify({ ...ok, propensity: 0 })}\n`,
    );
    const r = await run(['evaluate', '--logs', p, '--policy', 'linucb']);
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /bad\.jsonl:3: propensity must be a number in \(0, 1\]\. Got 0\./);
  });

  for (const [name, args, pattern] of [
    ['an unknown policy', ['--policy', 'nope'], /--policy: unknown policy id "nope"\. Known ids: /],
    [
      'a private policy without --epsilon',
      ['--policy', 'adaprivate-ts'],
      /--epsilon E\[,E\.\.\] is required/,
    ],
    [
      'an unknown estimator',
      ['--policy', 'linucb', '--estimators', 'ipw,magic'],
      /--estimators "magic" is not an estimator/,
    ],
    ['a missing file', ['--policy', 'linucb', '--logs', '/nonexistent/x.jsonl'], /does not exist/],
  ] as const) {
    it(name, async () => {
      const r = await run(['evaluate', '--logs', join(dir, 'logs.jsonl'), ...args]);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, pattern);
    });
  }

  it('logs synthetic without --out', async () => {
    const r = await run(['logs', 'synthetic']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--out FILE is required/);
  });

  it('logs synthetic --units N gives decision t the unit u(t mod N); refused for CSV', async () => {
    const file = join(dir, 'units.jsonl');
    const r = await run(['logs', 'synthetic', '--out', file, '--rounds', '7', '--dim', '2', '--units', '3']);
    assert.equal(r.status, 0, r.stderr);
    const units = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { unit: string }).unit);
    assert.deepEqual(units, ['u0', 'u1', 'u2', 'u0', 'u1', 'u2', 'u0']);
    const csv = await run([
      'logs',
      'synthetic',
      '--out',
      join(dir, 'units.csv'),
      '--rounds',
      '3',
      '--units',
      '2',
    ]);
    assert.equal(csv.status, 2);
    assert.match(csv.stderr, /--units needs a \.jsonl output/);
  });
});

describe('adaprivate evaluate output (issue 27: each defect fixed)', () => {
  const jsonl = join(dir, 'out-logs.jsonl');
  before(async () => {
    await run([
      'logs',
      'synthetic',
      '--out',
      jsonl,
      '--dim',
      '4',
      '--arms',
      '20',
      '--rounds',
      '300',
      '--seed',
      '5',
    ]);
  });
  const twoArms = (features: number[][], reward: (t: number) => number | undefined, n = 60) =>
    Array.from({ length: n }, (_, t) => {
      const r = reward(t);
      return JSON.stringify({
        eventId: `z${t}`,
        arms: features.map((f, i) => ({ id: String(i), features: f })),
        chosen: t % 2,
        propensity: 0.5,
        ...(r === undefined ? {} : { reward: r }),
      });
    }).join('\n');

  it('report files: DM marked model-based, results.csv with intervals, the command reproduces (--noise-seed), the band is named, runs pooled, the undecidable log said', async () => {
    const out = join(dir, 'report-27');
    const r = await run([
      'evaluate',
      '--logs',
      jsonl,
      '--policy',
      'adaprivate-ts,linucb',
      '--epsilon',
      '1',
      ...evalFlags,
      '--runs',
      '3',
      '--out',
      out,
    ]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as Omit<EvalJson, 'results'> & {
      findings: string[];
      results: { runs: number; estimates: { estimator: string; modelBased?: string }[] }[];
      config: { command: string };
    };
    assert.deepEqual(
      j.results.map((s) => s.runs),
      [3, 1],
      'the randomised private policy runs 3 times, deterministic LinUCB once',
    );
    for (const s of j.results) {
      assert.equal(s.estimates.find((e) => e.estimator === 'dm')!.modelBased, 'model-based, for comparison');
    }
    assert.ok(j.config.command.includes('--noise-seed 2'), j.config.command);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    assert.match(
      md,
      /`adaprivate evaluate [^`]*--noise-seed 2\b[^`]*`/,
      'the printed command carries the noise seed',
    );
    assert.ok(md.includes('DM (model-based, for comparison)'));
    const csvText = readFileSync(join(out, 'results.csv'), 'utf8');
    const header = csvText.split('\n')[0]!.split(',');
    for (const c of ['value', 'lo', 'hi', 'change_lo', 'change_hi']) assert.ok(header.includes(c), c);
    assert.match(csvText, /\ndm,|,dm,[^\n]*model-based, for comparison/);
    const svg = readFileSync(join(out, 'value-by-epsilon.svg'), 'utf8');
    assert.ok(!svg.includes('CI over seeds'), 'the band is not called a CI over seeds');
    assert.ok(svg.includes('bootstrap interval over the logged rounds'));
    // the finding is there exactly when no interval of the change (DM aside) excludes 0
    const full = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      results: { estimates: { estimator: string; relativeInterval: [number, number] }[] }[];
    };
    const separated = full.results.some((s) =>
      s.estimates.some(
        (e) => e.estimator !== 'dm' && (e.relativeInterval[0] > 1 || e.relativeInterval[1] < 1),
      ),
    );
    assert.equal(j.findings.length, separated ? 0 : 1);
  });

  it('zero clicks: an exact one-sided interval and a sentence that the log cannot decide (not 0.0000 [0.0000, 0.0000])', async () => {
    const p = join(dir, 'zero.jsonl');
    writeFileSync(
      p,
      `${twoArms(
        [
          [0.5, 0.1],
          [0.1, 0.5],
        ],
        () => 0,
      )}\n`,
    );
    const r = await run(['evaluate', '--logs', p, '--policy', 'linucb', '--bootstrap', '50']);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!r.stdout.includes('0.0000 [0.0000, 0.0000]'), r.stdout);
    assert.match(r.stdout, /one-sided: the log cannot decide/);
    assert.match(r.stdout, /cannot decide the value, only bound it from above/);
    // logging: 0 successes in 60 rounds, exact upper bound 1 - 0.05^(1/60)
    const j = JSON.parse(
      (await run(['evaluate', '--logs', p, '--policy', 'linucb', '--bootstrap', '50', '--json'])).stdout,
    ) as EvalJson;
    assert.ok(Math.abs(j.logging.interval[1] - (1 - 0.05 ** (1 / 60))) < 1e-12, String(j.logging.interval));
  });

  it('unit vectors normalised in float32 are not called clipped; vectors above 1 are named as rescaled', async () => {
    const p = join(dir, 'f32.jsonl');
    const unit32 = (a: number) => [Math.fround(Math.cos(a)), Math.fround(Math.sin(a))];
    writeFileSync(p, `${twoArms([unit32(0.3), unit32(1.1)], (t) => (t % 3 === 0 ? 1 : 0))}\n`);
    const r = await run(['evaluate', '--logs', p, '--policy', 'linucb', '--bootstrap', '50', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as EvalJson & { findings: string[] };
    assert.ok(!j.warnings.some((w) => /clipped|norm above 1/.test(w)), j.warnings.join('\n'));
    void j.findings;
    const q = join(dir, 'big.jsonl');
    writeFileSync(
      q,
      `${twoArms(
        [
          [1.2, 0.3],
          [0.1, 0.2],
        ],
        (t) => (t % 3 === 0 ? 1 : 0),
      )}\n`,
    );
    const big = JSON.parse(
      (await run(['evaluate', '--logs', q, '--policy', 'linucb', '--bootstrap', '50', '--json'])).stdout,
    ) as EvalJson;
    assert.ok(
      big.warnings.some((w) => /60 of 120 candidate feature vectors have a norm above 1/.test(w)),
      big.warnings.join('\n'),
    );
    assert.ok(!big.warnings.some((w) => /clipped/.test(w)));
  });

  it('a log too small to separate any policy from the logging one says so', async () => {
    const p = join(dir, 'tiny.jsonl');
    await run([
      'logs',
      'synthetic',
      '--out',
      p,
      '--dim',
      '4',
      '--arms',
      '20',
      '--rounds',
      '80',
      '--seed',
      '6',
      '--logging',
      'uniform',
    ]);
    const j = JSON.parse(
      (
        await run([
          'evaluate',
          '--logs',
          p,
          '--policy',
          'linucb',
          '--estimators',
          'ipw,snipw,dr',
          '--bootstrap',
          '200',
          '--json',
        ])
      ).stdout,
    ) as EvalJson & { findings: string[] };
    assert.equal(j.findings.length, 1, JSON.stringify(j.results));
    assert.match(j.findings[0]!, /No evaluated policy is distinguishable from the logging policy/);
    const text = (
      await run([
        'evaluate',
        '--logs',
        p,
        '--policy',
        'linucb',
        '--estimators',
        'ipw,snipw,dr',
        '--bootstrap',
        '200',
      ])
    ).stdout;
    assert.match(text, /No evaluated policy is distinguishable from the logging policy/);
  });

  it('a log without rewards exits 2 with a clear message, not an internal function name', async () => {
    const p = join(dir, 'norewards.jsonl');
    writeFileSync(
      p,
      `${twoArms(
        [
          [0.5, 0.1],
          [0.1, 0.5],
        ],
        () => undefined,
      )}\n`,
    );
    const r = await run(['evaluate', '--logs', p, '--policy', 'linucb']);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('evaluate: ')).length,
      1,
      r.stderr,
    );
    assert.match(r.stderr, /has no decision with a reward \(60 decisions\)/);
    assert.ok(!r.stderr.includes('evaluateOnLog'), r.stderr);
  });

  it('--logs DIR exits 2 with a clear message, not a raw EISDIR', async () => {
    const r = await run(['evaluate', '--logs', dir, '--policy', 'linucb']);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--logs .* is a directory/);
    assert.ok(!r.stderr.includes('EISDIR'), r.stderr);
  });
});

describe('adaprivate evaluate of a built-in policy on a log with slots', () => {
  it('prints position-wise IPW for the policy (its probability at each slot): LinUCB, by hand', async () => {
    // 3 impressions x 2 slots, candidates a = [1, 0] and b = [0, 0.1], p 0.5; LinUCB puts 1 on a at
    // every row (test/evaluation/slotIpw.test.ts): w r = 2, 0, 0 at slot 0 and 0, 2, 0 at slot 1
    const shown = [
      ['a', 1, 0],
      ['b', 0, 1],
      ['b', 1, 0],
      ['a', 1, 1],
      ['a', 0, 0],
      ['b', 0, 1],
    ] as const;
    const file = join(dir, 'slots.jsonl');
    writeFileSync(
      file,
      `${shown
        .map(([item, click, slot], t) =>
          JSON.stringify({
            eventId: `r${t}`,
            arms: [
              { id: 'a', features: [1, 0] },
              { id: 'b', features: [0, 0.1] },
            ],
            chosen: item === 'a' ? 0 : 1,
            propensity: 0.5,
            reward: click,
            slot,
          }),
        )
        .join('\n')}\n`,
    );
    const r = await run([
      'evaluate',
      '--logs',
      file,
      '--policy',
      'linucb',
      '--estimators',
      'ipw',
      '--bootstrap',
      '20',
      '--json',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as {
      slots?: unknown;
      results: {
        slots: {
          policy: string;
          runs: number;
          perRow: number;
          perImpression: number;
          bySlot: { slot: number; value: number; interval: [number, number] }[];
        };
      }[];
    };
    assert.equal(j.slots, undefined); // no --target
    const s = j.results[0]!.slots;
    assert.equal(s.policy, 'LinUCB');
    assert.equal(s.runs, 1);
    assert.ok(Math.abs(s.perRow - 2 / 3) < 1e-15);
    assert.ok(Math.abs(s.perImpression - 4 / 3) < 1e-15);
    const half = (1.959964 * Math.sqrt(4 / 3)) / Math.sqrt(3);
    for (const b of s.bySlot) {
      assert.ok(Math.abs(b.value - 2 / 3) < 1e-15);
      assert.ok(Math.abs(b.interval[1] - (2 / 3 + half)) < 1e-5);
    }
  });
});

describe('adaprivate evaluate --target (a policy from elsewhere)', () => {
  it('evaluates per-decision probabilities from a file: hand-computed replay, IPW and SNIPW', async () => {
    const { TARGET_LOG, TARGET_LINES, HAND_VALUES } = await import('../fixtures/evaluation/targetInput.js');
    const logFile = join(dir, 'target-log.jsonl');
    const targetFile = join(dir, 'target.jsonl');
    writeFileSync(logFile, `${TARGET_LOG.map((l) => JSON.stringify(l)).join('\n')}\n`);
    writeFileSync(targetFile, `${TARGET_LINES.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = await run([
      'evaluate',
      '--logs',
      logFile,
      '--target',
      targetFile,
      '--estimators',
      'replay,ipw,snipw',
      '--bootstrap',
      '20',
      '--json',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as EvalJson;
    assert.equal(j.results.length, 1);
    assert.equal(j.results[0]!.policy, 'target');
    for (const e of j.results[0]!.estimates) {
      assert.ok(Math.abs(e.value - HAND_VALUES[e.estimator as 'ipw']) < 1e-12, `${e.estimator} ${e.value}`);
    }
    const bad = join(dir, 'target-bad.jsonl');
    writeFileSync(bad, `${JSON.stringify({ eventId: 'e1', probabilities: [1] })}\n`);
    const b = await run(['evaluate', '--logs', logFile, '--target', bad]);
    assert.equal(b.status, 2);
    assert.match(b.stderr, /target-bad\.jsonl:1: probabilities must be an array of 2 numbers/);
  });
});

describe('adaprivate evaluate --private', () => {
  const p = join(dir, 'private-logs.jsonl');
  before(async () => {
    const g = await run([
      'logs',
      'synthetic',
      '--out',
      p,
      '--dim',
      '4',
      '--arms',
      '20',
      '--rounds',
      '400',
      '--seed',
      '8',
      '--logging',
      'uniform',
    ]);
    assert.equal(g.status, 0, g.stderr);
  });

  it('releases IPW and SNIPW through a ledger and states the unit and the guarantee (composed with the policy runs)', async () => {
    const r = await run([
      'evaluate',
      '--logs',
      p,
      '--policy',
      'adaprivate-ts',
      '--epsilon',
      '1',
      '--private',
      '--private-epsilon',
      '0.5',
      '--noise-seed',
      '4',
      '--runs',
      '2',
      '--samples',
      '50',
      '--batch',
      '100',
      '--estimators',
      'ipw,snipw',
      '--json',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as {
      command: string;
      privateEvaluation: {
        unit: string;
        ledger: { releases: number; epsilon: number; noise: string };
        guarantee: { epsilon: number; delta: number };
        results: {
          estimates: { estimator: string; value: number; interval: [number, number]; noiseSd: number }[];
        }[];
      };
    };
    const pe = j.privateEvaluation;
    assert.equal(pe.unit, 'event');
    assert.equal(pe.ledger.releases, 1);
    assert.ok(Math.abs(pe.ledger.epsilon - 0.5) < 1e-6, String(pe.ledger.epsilon));
    assert.equal(pe.ledger.noise, 'seeded');
    // 0.5 (evaluation) + 2 runs x 1 (the policy's own releases while evaluated)
    assert.ok(Math.abs(pe.guarantee.epsilon - 2.5) < 1e-6, String(pe.guarantee.epsilon));
    assert.deepEqual(
      pe.results[0]!.estimates.map((e) => e.estimator),
      ['ipw', 'snipw'],
    );
    for (const e of pe.results[0]!.estimates)
      assert.ok(e.noiseSd > 0 && e.interval[0] < e.value && e.value < e.interval[1]);
    assert.match(j.command, /--private --private-epsilon 0\.5/);
    const text = await run([
      'evaluate',
      '--logs',
      p,
      '--policy',
      'adaprivate-ts',
      '--epsilon',
      '1',
      '--private',
      '--private-epsilon',
      '0.5',
      '--noise-seed',
      '4',
      '--runs',
      '2',
      '--samples',
      '50',
      '--batch',
      '100',
      '--estimators',
      'ipw,snipw',
    ]);
    assert.match(
      text.stdout,
      /Guarantee \(event level: one logged reward; [^)]*\): the released estimates are \(2\.500, /,
    );
    assert.ok(!/Doubly robust|DR /.test(text.stdout), 'nothing but the released estimates');
  });

  for (const [name, args, pattern] of [
    [
      'a non-private learning policy',
      ['--policy', 'lints', '--private', '--epsilon', '1'],
      /--private cannot evaluate LinTS: it learns from the raw logged rewards/,
    ],
    [
      '--unit user with a private policy that has no user level',
      ['--policy', 'jdp-linucb', '--epsilon', '1', '--private', '--private-epsilon', '1', '--unit', 'user'],
      /--unit user cannot evaluate .*: /,
    ],
    [
      '--unit user with a private policy on a log without units',
      [
        '--policy',
        'adaprivate-ts',
        '--epsilon',
        '1',
        '--private',
        '--private-epsilon',
        '1',
        '--unit',
        'user',
        '--estimators',
        'ipw,snipw',
      ],
      /a user-level evaluation needs the unit of every decision \(the 'unit' field\); no decision has one/,
    ],
    [
      'an unknown unit',
      [
        '--policy',
        'adaprivate-ts',
        '--epsilon',
        '1',
        '--private',
        '--private-epsilon',
        '1',
        '--unit',
        'team',
      ],
      /--unit must be 'event' \(one logged reward\) or 'user'/,
    ],
    [
      'replay under --private',
      ['--target', 'x.jsonl', '--private', '--epsilon', '1', '--estimators', 'replay'],
      /--private releases ipw, snipw and dr; --estimators "replay"/,
    ],
    [
      'no evaluation budget',
      ['--policy', 'adaprivate-ts', '--epsilon', '1', '--private'],
      /--private needs the evaluation's own budget/,
    ],
  ] as const) {
    it(`refuses ${name} with exit code 2`, async () => {
      const r = await run(['evaluate', '--logs', p, ...args]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, pattern);
    });
  }
});
