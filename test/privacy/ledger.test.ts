import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  composedEvent,
  epsilonToRho,
  gaussianEvent,
  type PrivacyEvent,
  PrivacyLedger,
  parallelEvent,
  selfComposedEvent,
  subsampledGaussianEpsilon,
  subsampledGaussianEvent,
  UnsupportedPrivacyEventError,
  zcdpEvent,
  zcdpToEpsilon,
} from '../../src/privacy/index.js';
import { relClose } from './reference.js';

const info = (round: number, partition: number, label = 'batch') => ({ round, partition, label });

test('an empty ledger reports nothing spent', () => {
  const s = new PrivacyLedger({ delta: 1e-5, composition: 'parallel' }).spent();
  assert.equal(s.epsilon, 0);
  assert.equal(s.releases, 0);
  assert.equal(s.composition, 'none');
});

test('parallel composition over disjoint batches: the total is the max, and it matches the budget', () => {
  const rho = epsilonToRho(1, 1e-5);
  const sigma = 1 / Math.sqrt(2 * rho);
  const ledger = new PrivacyLedger({ delta: 1e-5, composition: 'parallel' });
  for (let k = 0; k < 34; k++) ledger.record(gaussianEvent(1, sigma), info(300 * (k + 1), k));
  const s = ledger.spent();
  relClose(s.rho!, rho, 1e-12, 'rho');
  relClose(s.epsilon, 1, 1e-9, 'epsilon');
  assert.equal(s.releases, 34);
  assert.equal(s.partitions, 34);
  assert.equal(s.composition, 'parallel');
  assert.equal(s.conversion, 'zcdp-classic');
  assert.equal(s.order, null);
  // two releases in one partition compose sequentially within it
  ledger.record(zcdpEvent(rho), info(10_300, 3));
  relClose(ledger.spent().rho!, 2 * rho, 1e-12, 'rho after a second release in partition 3');
});

test('sequential composition adds rho (DGS-LinUCB style, 10^5 releases in bounded memory)', () => {
  const T = 100_000;
  const rho = 0.5;
  const ledger = new PrivacyLedger({ delta: 1e-5, composition: 'sequential', logLimit: 8 });
  for (let t = 0; t < T; t++) {
    const sens = 1 / (1 + t); // dynamic sensitivity, constant per-step rho
    ledger.record(gaussianEvent(sens, sens / Math.sqrt((2 * rho) / T)), info(t + 1, 0, 'theta'));
  }
  const s = ledger.spent();
  relClose(s.rho!, rho, 1e-9, 'rho');
  relClose(s.epsilon, zcdpToEpsilon(rho, 1e-5), 1e-9, 'epsilon');
  assert.equal(s.releases, T);
  const entries = ledger.entries();
  assert.equal(entries.length, 16);
  assert.equal(ledger.droppedEntryCount(), T - 16);
  assert.equal(entries[0]!.round, 1);
  assert.equal(entries.at(-1)!.round, T);
  assert.equal(entries.at(-2)!.round, T - 1);
});

test('identical consecutive releases are merged into one counted entry', () => {
  const ledger = new PrivacyLedger({ delta: 1e-5, composition: 'sequential' });
  for (let t = 1; t <= 1000; t++) ledger.record(zcdpEvent(1e-4), info(t, 0, 'step'));
  ledger.record(zcdpEvent(2e-4), info(1001, 0, 'step'));
  const e = ledger.entries();
  assert.equal(e.length, 2);
  assert.equal(e[0]!.count, 1000);
  assert.equal(e[0]!.lastRound, 1000);
  assert.equal(e[0]!.rho, 1e-4);
  relClose(ledger.spent().rho!, 0.1002, 1e-12, 'rho');
});

test('subsampled releases are accounted with RDP and match the direct accountant', () => {
  const q = 0.3;
  const sigma = 3;
  const batches = 20;
  const par = new PrivacyLedger({ delta: 1e-5, composition: 'parallel', orders: 'paper' });
  for (let k = 0; k < batches; k++) par.record(subsampledGaussianEvent(q, sigma), info(k * 300, k, 'amp'));
  const direct = subsampledGaussianEpsilon(sigma, { q, delta: 1e-5, orders: 'paper' });
  const s = par.spent();
  assert.equal(s.rho, null);
  assert.equal(s.conversion, 'rdp-classic');
  relClose(s.epsilon, direct.epsilon, 1e-12, 'parallel = one release');
  assert.equal(s.order, direct.order);
  const seq = new PrivacyLedger({
    delta: 1e-5,
    composition: 'sequential',
    orders: 'paper',
    conversion: 'improved',
  });
  for (let k = 0; k < batches; k++) seq.record(subsampledGaussianEvent(q, sigma), info(k * 300, k, 'amp'));
  const d20 = subsampledGaussianEpsilon(sigma, {
    q,
    delta: 1e-5,
    orders: 'paper',
    steps: batches,
    conversion: 'improved',
  });
  relClose(seq.spent().epsilon, d20.epsilon, 1e-12, 'sequential = 20 steps');
  assert.equal(seq.spent().conversion, 'rdp-improved');
});

test('mixing zCDP and subsampled releases in parallel takes the per-order maximum', () => {
  const ledger = new PrivacyLedger({ delta: 1e-5, composition: 'parallel', orders: [2, 4, 8, 16, 32] });
  ledger.record(zcdpEvent(0.5), info(1, 0));
  ledger.record(subsampledGaussianEvent(0.1, 1), info(2, 1));
  const both = ledger.spent();
  const zOnly = new PrivacyLedger({ delta: 1e-5, composition: 'parallel', orders: [2, 4, 8, 16, 32] });
  zOnly.record(composedEvent([zcdpEvent(0.5)]), info(1, 0));
  zOnly.record(parallelEvent([zcdpEvent(0.1)]), info(2, 1));
  // the subsampled release costs less than rho = 0.5, so the max is the zCDP partition, on the grid
  const grid = Math.min(...[2, 4, 8, 16, 32].map((a) => a * 0.5 + Math.log(1e5) / (a - 1)));
  relClose(both.epsilon, grid, 1e-12, 'max');
  assert.ok(both.epsilon >= zOnly.spent().epsilon);
});

test('nested events: self-composition and composition', () => {
  const ledger = new PrivacyLedger({ delta: 1e-5, composition: 'sequential' });
  ledger.record(selfComposedEvent(composedEvent([zcdpEvent(0.01), gaussianEvent(1, 10)]), 10), info(0, 0));
  relClose(ledger.spent().rho!, 10 * (0.01 + 0.005), 1e-12, 'rho');
  assert.equal(ledger.spent().releases, 20);
});

test('an unknown event is refused with a typed error and nothing is recorded', () => {
  const ledger = new PrivacyLedger({ delta: 1e-5, composition: 'sequential' });
  const bogus = { kind: 'laplace', scale: 1 } as unknown as PrivacyEvent;
  assert.throws(() => ledger.record(bogus, info(0, 0)), RangeError);
  assert.equal(ledger.spent().releases, 0);
  assert.throws(
    () => ledger.record(gaussianEvent(1, 1), { round: -1, partition: 0, label: 'x' }),
    /round must be an integer >= 0/,
  );
});

test('the zCDP accountant refuses a subsampled event with a typed error naming it', async () => {
  const { eventRho } = await import('../../src/privacy/index.js');
  assert.throws(
    () => eventRho(subsampledGaussianEvent(0.5, 1)),
    (e: unknown) => e instanceof UnsupportedPrivacyEventError && e.eventKind === 'subsampledGaussian',
  );
  assert.equal(eventRho(subsampledGaussianEvent(1, 1)), 0.5);
});

test('toJSON / fromJSON round trip continues identically', () => {
  const a = new PrivacyLedger({ delta: 1e-6, composition: 'parallel', logLimit: 2, conversion: 'improved' });
  for (let k = 0; k < 10; k++) a.record(gaussianEvent(1, 2 + k), info(k, k, `b${k}`));
  a.record(subsampledGaussianEvent(0.2, 2), info(11, 4));
  const json = JSON.parse(JSON.stringify(a.toJSON()));
  const b = PrivacyLedger.fromJSON(json);
  assert.deepEqual(b.spent(), a.spent());
  assert.deepEqual(b.entries(), a.entries());
  a.record(gaussianEvent(1, 1), info(12, 11));
  b.record(gaussianEvent(1, 1), info(12, 11));
  assert.deepEqual(b.spent(), a.spent());
  assert.throws(
    () => PrivacyLedger.fromJSON({ format: 'other' }),
    /not a privacy ledger snapshot of version 1, 2/,
  );
});

test('options are validated', () => {
  assert.throws(() => new PrivacyLedger({ delta: 0, composition: 'parallel' }), /delta must be in \(0, 1\)/);
  assert.throws(
    () => new PrivacyLedger({ delta: 1e-5, composition: 'both' as never }),
    /composition must be 'parallel' or 'sequential'/,
  );
  assert.throws(() => new PrivacyLedger({ delta: 1e-5, composition: 'parallel', orders: [1] }), /> 1/);
});
