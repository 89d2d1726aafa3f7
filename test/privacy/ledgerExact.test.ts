import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  composedEvent,
  gaussianEpsilon,
  gaussianEvent,
  gaussianPlanEpsilon,
  PrivacyLedger,
  parallelEvent,
  selfComposedEvent,
  subsampledGaussianEvent,
  subsampledGaussianExactEpsilon,
  UnsupportedPrivacyEventError,
  zcdpEvent,
  zcdpToEpsilon,
} from '../../src/privacy/index.js';
import { relClose } from './reference.js';

const info = (round: number, partition: number, label = 'batch') => ({ round, partition, label });
const exact = (composition: 'parallel' | 'sequential') =>
  new PrivacyLedger({ delta: 1e-5, composition, accountant: 'exact', noise: 'continuous' });

test('exact ledger, sequential Gaussian releases: Gaussian DP (mu^2 adds), the zCDP figure beside it', () => {
  const l = exact('sequential');
  for (let k = 0; k < 10; k++) l.record(gaussianEvent(2, 10), info(k, 0));
  const s = l.spent();
  assert.equal(s.accountant, 'exact');
  assert.equal(s.method, 'gdp');
  relClose(s.epsilon, gaussianEpsilon(1e-5, Math.sqrt(10) * 0.2), 1e-12, 'gdp');
  assert.equal(s.epsilonLower, s.epsilon);
  assert.equal(s.comparison!.accountant, 'zcdp');
  assert.equal(s.comparison!.rho, s.rho);
  assert.equal(s.comparison!.order, null);
  relClose(s.comparison!.epsilon, zcdpToEpsilon(10 * 0.02, 1e-5), 1e-12, 'zcdp comparison');
  assert.ok(s.comparison!.epsilon > s.epsilon);
});

test('exact ledger, parallel partitions: the epsilon is the largest partition (each record in one)', () => {
  const l = exact('parallel');
  for (let p = 0; p < 50; p++) l.record(gaussianEvent(1, 5), info(p, p));
  l.record(gaussianEvent(1, 5), info(60, 7)); // partition 7 twice
  relClose(l.spent().epsilon, gaussianEpsilon(1e-5, Math.sqrt(2) / 5), 1e-12, 'max partition');
  // a subsampled partition with a larger curve wins
  l.record(subsampledGaussianEvent(0.5, 1), info(61, 99));
  const sub = subsampledGaussianExactEpsilon(1e-5, 0.5, 1);
  assert.ok(sub > gaussianEpsilon(1e-5, Math.sqrt(2) / 5));
  const s = l.spent();
  relClose(s.epsilon, sub, 1e-12, 'subsampled partition');
  assert.equal(s.method, 'subsampled-exact');
  assert.equal(s.comparison!.accountant, 'rdp');
  assert.ok(s.comparison!.epsilon >= s.epsilon);
});

test('exact ledger, subsampled compositions go through PLD: upper >= lower, below RDP, equal to the calibrator', () => {
  const l = exact('sequential');
  l.record(selfComposedEvent(subsampledGaussianEvent(0.3, 2), 6), info(0, 0));
  const s = l.spent();
  assert.equal(s.method, 'pld');
  assert.equal(s.releases, 6);
  assert.ok(s.epsilonLower! <= s.epsilon && s.epsilon < s.comparison!.epsilon);
  const plan = gaussianPlanEpsilon(2, { sensitivity: 1, compositions: 6, q: 0.3 }, 1e-5, 'exact', {
    noise: 'continuous',
  });
  assert.equal(s.epsilon, plan.epsilon);
  assert.equal(l.spent(), s, 'cached until the next record');
});

test('exact ledger refuses events without an exact curve with the typed error, recording nothing', () => {
  const l = exact('sequential');
  l.record(gaussianEvent(1, 4), info(0, 0));
  const before = l.spent();
  for (const bad of [
    zcdpEvent(0.1),
    composedEvent([gaussianEvent(1, 3), zcdpEvent(0.1)]),
    parallelEvent([gaussianEvent(1, 3)]),
  ]) {
    assert.throws(
      () => l.record(bad, info(1, 0)),
      (e: unknown) => e instanceof UnsupportedPrivacyEventError && /exact accountant/.test(e.message),
    );
  }
  assert.throws(() => l.record({ kind: 'laplace', b: 1 } as never, info(2, 0)), /unknown privacy event kind/);
  assert.equal(l.spent().epsilon, before.epsilon);
  assert.equal(l.spent().releases, 1);
  const z = new PrivacyLedger({ delta: 1e-5, composition: 'sequential', accountant: 'zcdp' });
  assert.throws(() => z.record(subsampledGaussianEvent(0.3, 2), info(0, 0)), UnsupportedPrivacyEventError);
  assert.equal(z.spent().releases, 0);
});

test("JSON: an exact ledger round-trips (version 2); an old ledger without accountant keeps today's figures", () => {
  const l = exact('parallel');
  l.record(gaussianEvent(1, 3), info(0, 0));
  l.record(subsampledGaussianEvent(0.2, 1.5), info(1, 1));
  l.record(subsampledGaussianEvent(0.2, 1.5), info(2, 1));
  const j = JSON.parse(JSON.stringify(l.toJSON()));
  assert.equal(j.version, 2);
  assert.equal(j.accountant, 'exact');
  const back = PrivacyLedger.fromJSON(j);
  assert.equal(back.spent().epsilon, l.spent().epsilon);
  assert.equal(back.spent().accountant, 'exact');
  // version 1 (written before accountants existed): no accountant, today's zCDP figure
  const old = new PrivacyLedger({ delta: 1e-5, composition: 'parallel' });
  old.record(gaussianEvent(1, 4.9), info(0, 0));
  const v1 = JSON.parse(JSON.stringify(old.toJSON()));
  assert.equal(v1.version, 1);
  assert.equal(v1.accountant, undefined);
  const restored = PrivacyLedger.fromJSON(v1).spent();
  assert.equal(restored.accountant, 'zcdp');
  relClose(restored.epsilon, zcdpToEpsilon(1 / (2 * 4.9 * 4.9), 1e-5), 1e-14, 'v1');
  // forged or inconsistent snapshots are refused
  assert.throws(
    () => PrivacyLedger.fromJSON({ ...v1, accountant: 'exact' }),
    /version-1 snapshot has no accountant/,
  );
  assert.throws(() => PrivacyLedger.fromJSON({ ...j, exact: undefined }), /must have its exact state/);
  assert.throws(() => PrivacyLedger.fromJSON({ ...j, exact: [[0, -1, []]] }), /bad mu2/);
  assert.throws(
    () => PrivacyLedger.fromJSON({ ...j, exact: [[1, 0, [[1.5, 1, 1]]]] }),
    /is not \[q in \(0,1\)/,
  );
});

test('record() stays O(1) for Gaussian events: a million releases keep one mu^2 per partition', () => {
  const l = exact('sequential');
  for (let k = 0; k < 1_000_000; k++) l.record(gaussianEvent(1, 1000), info(k, 0));
  relClose(l.spent().epsilon, gaussianEpsilon(1e-5, Math.sqrt(1e6) / 1000), 1e-9, 'million');
  assert.equal((l.toJSON().exact ?? []).length, 1);
});

test('the discrete default adds its margin: never below the continuous figure', () => {
  const d = new PrivacyLedger({ delta: 1e-5, composition: 'sequential', accountant: 'exact' });
  const c = exact('sequential');
  for (const l of [d, c]) l.record(gaussianEvent(1, 3), info(0, 0));
  assert.equal(d.noise, 'discrete');
  assert.ok(d.spent().epsilon >= c.spent().epsilon);
  assert.ok(d.spent().epsilon <= c.spent().epsilon * (1 + 1e-7));
});
