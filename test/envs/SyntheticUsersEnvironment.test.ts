// The synthetic environment with users (issue 25, study (a)): every user arrives exactly k times,
// the rounds are those of the plain synthetic environment for the same seed, arrivals are seeded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSyntheticEnvironment, createSyntheticUsersEnvironment } from '../../src/envs/index.js';

function units(k: number, horizon: number, seed: number): string[] {
  const env = createSyntheticUsersEnvironment({ dim: 3, arms: 10, arrivalsPerUnit: k, horizon }, seed);
  const x = new Float64Array(env.armsPerRound * env.dim);
  const mu = new Float64Array(env.armsPerRound);
  const out: string[] = [];
  for (let t = 0; t < horizon; t++) {
    env.nextRound(x, mu);
    out.push(env.unit());
  }
  return out;
}

describe('SyntheticUsersEnvironment', () => {
  test('each of the T / k users arrives exactly k times', () => {
    for (const k of [1, 5, 10]) {
      const seen = new Map<string, number>();
      for (const u of units(k, 200, 3)) seen.set(u, (seen.get(u) ?? 0) + 1);
      assert.equal(seen.size, 200 / k);
      for (const [u, n] of seen) assert.equal(n, k, `user ${u} at k = ${k}`);
    }
  });

  test('when k does not divide T only the n k - T arrivals cut off by the horizon are missing', () => {
    const env = createSyntheticUsersEnvironment({ dim: 3, arms: 10, arrivalsPerUnit: 7, horizon: 100 }, 1);
    const counts = Array.from(env.arrivalCounts());
    assert.equal(env.units, 15);
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      100,
    );
    assert.ok(counts.every((c) => c <= 7 && c >= 1));
    assert.ok(counts.filter((c) => c === 7).length >= 15 - 5);
  });

  test('arrivals are spread at random and seeded', () => {
    const a = units(5, 100, 1);
    assert.deepEqual(units(5, 100, 1), a);
    assert.notDeepEqual(units(5, 100, 2), a);
    // not in blocks: user u0's arrivals are not consecutive rounds
    const first = a.flatMap((u, i) => (u === a[0] ? [i] : []));
    assert.ok(first[first.length - 1]! - first[0]! > 5, `arrivals of ${a[0]}: ${first.join(', ')}`);
  });

  test('the rounds and rewards are those of the plain environment (common random numbers)', () => {
    const plain = createSyntheticEnvironment({ dim: 3, arms: 10 }, 4);
    const users = createSyntheticUsersEnvironment({ dim: 3, arms: 10, arrivalsPerUnit: 5, horizon: 50 }, 4);
    const x1 = new Float64Array(15);
    const x2 = new Float64Array(15);
    const m1 = new Float64Array(5);
    const m2 = new Float64Array(5);
    for (let t = 0; t < 50; t++) {
      plain.nextRound(x1, m1);
      users.nextRound(x2, m2);
      assert.deepEqual(x2, x1);
      assert.deepEqual(m2, m1);
      assert.equal(users.reward(t % 5), plain.reward(t % 5));
    }
    assert.throws(() => users.nextRound(x2, m2), /all 50 rounds have been served/);
  });

  test('bad options are refused with the option named', () => {
    assert.throws(
      () => createSyntheticUsersEnvironment({ arrivalsPerUnit: 0, horizon: 10 }, 1),
      /arrivalsPerUnit must be a positive integer. Got 0/,
    );
    assert.throws(
      () => createSyntheticUsersEnvironment({ arrivalsPerUnit: 2, horizon: 1.5 }, 1),
      /horizon must be a positive integer. Got 1.5/,
    );
    const env = createSyntheticUsersEnvironment({ arrivalsPerUnit: 2, horizon: 10 }, 1);
    assert.throws(() => env.unit(), /before the first nextRound/);
  });
});
