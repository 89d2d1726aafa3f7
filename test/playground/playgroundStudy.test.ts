import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandGrid } from '../../src/experiments/expandGrid.js';
import { userStudyPlan } from '../../src/experiments/reproduce/userLevel/userStudyPlan.js';
import { userStudyScale } from '../../src/experiments/reproduce/userLevel/userStudyScale.js';
import { runCell } from '../../src/experiments/runCell.js';
import { hasOption, playgroundConfig, runPlaygroundStudy } from '../../src/playground/playgroundStudy.js';

const settings = {
  policies: ['adaprivate-ts', 'adaprivate-ts-amp', 'lints'],
  epsilon: 1,
  batchSize: 50,
  q: 0.3,
  seeds: 2,
  horizon: 200,
};

test('the playground runs the same cells as runCell (the CLI path) and gets the same numbers', () => {
  const runs = runPlaygroundStudy(settings);
  const cells = expandGrid(playgroundConfig(settings));
  assert.equal(runs.length, cells.length);
  assert.deepEqual(
    cells.map((c) => [c.policy, c.seed, c.params]),
    [
      ['adaprivate-ts', 1, { batchSize: 50 }],
      ['adaprivate-ts', 2, { batchSize: 50 }],
      ['adaprivate-ts-amp', 1, { batchSize: 50, q: 0.3 }],
      ['adaprivate-ts-amp', 2, { batchSize: 50, q: 0.3 }],
      ['lints', 1, {}],
      ['lints', 2, {}],
    ],
  );
  for (const [i, cell] of cells.entries()) {
    const node = runCell(cell);
    assert.equal(runs[i]!.meanReward, node.meanReward, `${cell.policy} seed ${cell.seed}`);
    assert.equal(runs[i]!.regret, node.regret);
    assert.equal(runs[i]!.privacy?.epsilon ?? null, node.privacy?.epsilon ?? null);
    assert.deepEqual(
      runs[i]!.points.map((p) => p.round),
      node.checkpoints.map((c) => c.round),
    );
  }
  // privacy spent over time: from the ledger, non-decreasing, ending at the final guarantee
  const ts = runs[0]!;
  for (let k = 1; k < ts.points.length; k++) assert.ok(ts.points[k]!.epsilon >= ts.points[k - 1]!.epsilon);
  assert.equal(ts.points.at(-1)!.epsilon, ts.privacy!.epsilon);
  assert.equal(runs[4]!.privacy, null, 'LinTS is not private');
});

test('options a policy lacks are not passed to it; a wrong value is refused with the option named', () => {
  const cfg = playgroundConfig({
    ...settings,
    policies: ['lints'],
    accountant: 'exact',
    privacyUnit: 'user',
  });
  assert.deepEqual(cfg.policies[0]!.params, {});
  // the accountant reaches the policies that have the option (privacyUnit: once a policy has it)
  const ts = playgroundConfig({ ...settings, policies: ['adaprivate-ts'], accountant: 'rdp' });
  assert.deepEqual(
    ts.policies[0]!.params.accountant,
    hasOption('adaprivate-ts', 'accountant') ? ['rdp'] : undefined,
  );
  const [run] = runPlaygroundStudy({ ...settings, policies: ['adaprivate-ts'], seeds: 1, accountant: 'rdp' });
  const [cell] = expandGrid(ts).filter((c) => c.seed === 1);
  assert.equal(run!.meanReward, runCell(cell!).meanReward);
  assert.equal(run!.privacy!.epsilon, runCell(cell!).privacy!.epsilon);
  assert.throws(() => playgroundConfig({ ...settings, epsilon: -1 }), /epsilon/);
});

test("privacy unit 'user': the synthetic users study of `adaprivate reproduce users` (k arrivals per user, bounds c and m = k), with the CLI's numbers", () => {
  // the study's tiny scale, contribution-bounds variant in zCDP, for k = 4
  const scale = userStudyScale('tiny');
  const plan = userStudyPlan(scale);
  const bounds = plan.cells.find((c) => c.k === 4 && c.variant === 'bounds-zcdp')!;
  const users = {
    policies: ['adaprivate-ts', 'lints'],
    epsilon: scale.userEpsilon,
    batchSize: scale.batchSize,
    q: 1,
    seeds: scale.seeds,
    horizon: scale.horizon,
    checkpoints: scale.checkpoints,
    accountant: 'zcdp',
    privacyUnit: 'user',
    arrivalsPerUnit: 4,
    dim: scale.env.dim,
    arms: scale.env.arms,
    armsPerRound: scale.env.armsPerRound,
  };
  const cells = expandGrid(playgroundConfig(users));
  const studyCells = expandGrid(bounds.config);
  const ts = cells.filter((c) => c.policy === 'adaprivate-ts');
  assert.equal(ts.length, studyCells.length);
  for (const [i, c] of ts.entries()) {
    const s = studyCells[i]!;
    assert.deepEqual(c.env, s.env, 'the same users environment (k = 4 arrivals per user)');
    assert.deepEqual(c.params, s.params, 'the same bounds: c = 1, m = k');
    assert.deepEqual([c.seed, c.epsilon, c.delta, c.horizon], [s.seed, s.epsilon, s.delta, s.horizon]);
  }
  const runs = runPlaygroundStudy(users);
  assert.equal(runs.length, cells.length);
  for (const [i, cell] of cells.entries()) {
    const node = runCell(cell);
    assert.equal(runs[i]!.meanReward, node.meanReward, `${cell.policy} seed ${cell.seed}: page = CLI`);
    assert.equal(runs[i]!.privacy?.epsilon ?? null, node.privacy?.epsilon ?? null);
  }
  for (const [i, s] of studyCells.entries()) assert.equal(runs[i]!.meanReward, runCell(s).meanReward);
  const p = runs[0]!.privacy!;
  assert.equal(p.unit, 'user');
  assert.ok(p.dropped! > 0, 'a user arriving twice in one batch has its second reward dropped (c = 1)');
  assert.equal(p.offered, scale.horizon);
  assert.ok(p.perEpochEpsilon! <= scale.userEpsilon + 1e-9, 'within the user-level budget');
  assert.equal(runs.at(-1)!.privacy, null, 'LinTS: the non-private reference on the same rounds');
  // a private policy without a user-level mode is refused with the reason; bounds need 'user'
  assert.throws(
    () => runPlaygroundStudy({ ...users, policies: ['jdp-linucb'], seeds: 1 }),
    /privacyUnit 'user' is not supported/,
  );
  assert.throws(() => playgroundConfig({ ...settings, arrivalsPerUnit: 3 }), /need privacyUnit 'user'/);
});
