import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { expandGrid } from '../../src/experiments/expandGrid.js';
import { loadExperimentConfig } from '../../src/experiments/loadExperimentConfig.js';
import { validateExperimentConfig } from '../../src/experiments/validateExperimentConfig.js';
import { policyInfo } from '../../src/policies/index.js';

test('defaults are filled in, the result is frozen and itself valid', () => {
  const c = validateExperimentConfig({ policies: ['adaprivate-ts'], epsilons: [1], seeds: 3, horizon: 1000 });
  assert.deepEqual(c.env, {
    kind: 'synthetic',
    dim: 20,
    arms: 100,
    armsPerRound: 5,
    thetaNorm: 2,
    link: 'logistic',
  });
  assert.equal(c.protocol, 'full-information');
  assert.equal(c.delta, 1e-5);
  assert.deepEqual(c.seeds, [1, 2, 3]);
  assert.equal(c.checkpoints, 20);
  assert.ok(Object.isFrozen(c) && Object.isFrozen(c.env));
  assert.deepEqual(validateExperimentConfig(JSON.parse(JSON.stringify(c))), c);
});

test('grid expansion: params cartesian product x epsilons x seeds; non-private policies once per seed', () => {
  const c = validateExperimentConfig({
    policies: [{ policy: 'adaprivate-ts', params: { v: [0.5, 1], batchSize: [100, 300, 500] } }, 'lints'],
    epsilons: [1, 5],
    seeds: [7, 9],
    horizon: 100,
  });
  const cells = expandGrid(c);
  assert.equal(cells.length, 2 * 3 * 2 * 2 + 2);
  assert.deepEqual(Object.keys(cells[0]!.params), ['batchSize', 'v']);
  const lints = cells.filter((x) => x.policy === 'lints');
  assert.deepEqual(
    lints.map((x) => [x.epsilon, x.delta, x.seed]),
    [
      [null, null, 7],
      [null, null, 9],
    ],
  );
  assert.equal(cells[0]!.checkpointEvery, 5);
});

test('tune: true sweeps the SPEC tuning grid; explicit params override it', () => {
  const c = validateExperimentConfig({
    policies: [{ policy: 'adaprivate-ucb', tune: true, params: { batchSize: 300 } }],
    epsilons: [1],
    seeds: 1,
    horizon: 100,
  });
  assert.deepEqual(c.policies[0]!.params.alpha, policyInfo('adaprivate-ucb').tuningGrid.alpha);
  assert.deepEqual(c.policies[0]!.params.batchSize, [300]);
});

test('bad configs are refused with the field, the value and the rule', () => {
  const base = { policies: ['adaprivate-ts'], epsilons: [1], seeds: 2, horizon: 100 };
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...base, horizon: 0 }, /horizon must be a positive integer\. Got 0\./],
    [{ ...base, epsilons: [1, -2] }, /epsilons\[1\] must be a finite number > 0\. Got -2\./],
    [{ ...base, epsilons: [] }, /epsilons must list at least one budget/],
    [{ ...base, policies: ['nope'] }, /policies\[0\]\.policy must be a known policy id\. Got "nope"\./],
    [
      { ...base, policies: [{ policy: 'lints', params: { alpha: 1 } }] },
      /params\.alpha is not a hyperparameter of lints/,
    ],
    [
      { ...base, policies: [{ policy: 'adaprivate-ts', params: { epsilon: 1 } }] },
      /params\.epsilon is not a hyperparameter/,
    ],
    [{ ...base, seeds: [1, 1] }, /seeds must be distinct/],
    [{ ...base, seeds: [-1] }, /seeds\[0\] must be a non-negative integer/],
    [{ ...base, delta: 2 }, /delta must be a number in \(0, 1\)\. Got 2\./],
    [
      { ...base, env: { kind: 'synthetic', armsPerRound: 500 } },
      /env\.armsPerRound must be an integer in \[2, arms = 100\]\. Got 500\./,
    ],
    [{ ...base, env: { kind: 'mars' } }, /env\.kind must be 'synthetic' or 'ratings'/],
    [{ ...base, protocol: 'online' }, /protocol must be 'full-information' or 'replay'/],
    [{ ...base, checkpoints: 101 }, /checkpoints must be at most horizon \(100\)/],
    [{ ...base, bogus: 1 }, /unknown field "bogus"/],
    [{ ...base, seeds: undefined }, /seeds is required/],
  ];
  for (const [raw, re] of cases) {
    assert.throws(
      () => validateExperimentConfig(raw),
      (err: Error) => {
        assert.equal(err.name, 'ExperimentConfigError');
        assert.match(err.message, re);
        return true;
      },
    );
  }
});

test('config files: YAML and JSON load to the same config; a broken file is a clear error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-cfg-'));
  try {
    const yaml = join(dir, 'e.yaml');
    writeFileSync(
      yaml,
      'name: demo\nenv: { kind: synthetic, dim: 5 }\npolicies:\n  - policy: adaprivate-ts\n    params: { v: [1, 2] }\n  - lints\nepsilons: [1, 5]\nseeds: 2\nhorizon: 500\n',
    );
    const json = join(dir, 'e.json');
    writeFileSync(
      json,
      JSON.stringify({
        name: 'demo',
        env: { kind: 'synthetic', dim: 5 },
        policies: [{ policy: 'adaprivate-ts', params: { v: [1, 2] } }, 'lints'],
        epsilons: [1, 5],
        seeds: 2,
        horizon: 500,
      }),
    );
    assert.deepEqual(loadExperimentConfig(yaml), loadExperimentConfig(json));
    const broken = join(dir, 'b.json');
    writeFileSync(broken, '{ "policies": ');
    assert.throws(() => loadExperimentConfig(broken), /is not valid JSON/);
    assert.throws(() => loadExperimentConfig(join(dir, 'missing.yaml')), /cannot read config file/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
