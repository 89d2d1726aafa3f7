// Private DR, user-level private IPW/SNIPW and the privately released reward model (issue 27): each
// released statistic moves by at most its stated sensitivity between neighbouring logs (checked on
// the statistic the mechanism receives), hand-computed values at a huge budget, and coverage.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitRidgeRewardModel } from '../../src/evaluation/crossFitRewardModel.js';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { evaluationMechanism } from '../../src/evaluation/evaluationMechanism.js';
import { firstContributions } from '../../src/evaluation/firstContributions.js';
import type { OpeInput } from '../../src/evaluation/OpeInput.js';
import { evaluableRounds, opeInputFromLog } from '../../src/evaluation/opeInputFromLog.js';
import { privateDoublyRobust } from '../../src/evaluation/privateDoublyRobust.js';
import { privateEstimates } from '../../src/evaluation/privateEstimates.js';
import { privateRewardModel } from '../../src/evaluation/privateRewardModel.js';
import { privateUnitEstimates } from '../../src/evaluation/privateUnitEstimates.js';
import type { GaussianMechanism } from '../../src/mechanisms/index.js';
import { createRng } from '../../src/random/index.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

/** A mechanism that records what it is asked to release and adds no noise. */
function recorder(): { mechanism: GaussianMechanism; calls: { stat: number[]; sensitivity: number }[] } {
  const calls: { stat: number[]; sensitivity: number }[] = [];
  const mechanism = {
    calibration: { sigma: (s: number) => s },
    release(
      stat: Float64Array,
      start: number,
      end: number,
      sensitivity: number,
      out: Float64Array,
      outStart: number,
    ) {
      calls.push({ stat: Array.from(stat.subarray(start, end)), sensitivity });
      for (let i = start; i < end; i++) out[outStart + i - start] = stat[i]!;
    },
  } as unknown as GaussianMechanism;
  return { mechanism, calls };
}

const distance = (a: number[], b: number[]) => Math.hypot(...a.map((v, i) => v - b[i]!));

function randomInput(seed: number, n: number, k: number): OpeInput {
  const rng = createRng(seed, 'private-dr-test');
  const target = new Float64Array(n * k);
  const q = new Float64Array(n * k);
  const actions = new Int32Array(n);
  const rewards = new Float64Array(n);
  const propensities = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    let sum = 0;
    for (let a = 0; a < k; a++) {
      target[t * k + a] = rng.uniform();
      sum += target[t * k + a]!;
      q[t * k + a] = rng.uniform();
    }
    for (let a = 0; a < k; a++) target[t * k + a] = target[t * k + a]! / sum;
    actions[t] = rng.integer(k);
    rewards[t] = rng.uniform();
    propensities[t] = 0.02 + 0.98 * rng.uniform();
  }
  return {
    rewards,
    actions,
    propensities,
    offsets: Int32Array.from({ length: n + 1 }, (_, t) => t * k),
    target,
    rewardModel: q,
  };
}

describe('private DR', () => {
  it('at a huge budget returns the hand-computed DR (1.58 / 3) and records one release', () => {
    const { mechanism, ledger } = evaluationMechanism({ epsilon: 1e7, delta: 1e-5 }, 1, {
      noiseSeed: 2,
      accountant: 'zcdp',
    });
    const dr = privateDoublyRobust(HAND, mechanism, { clip: 10, z: 1.96, round: 0, label: 'hand' });
    assert.equal(dr.estimator, 'dr');
    assert.ok(Math.abs(dr.value - 1.58 / 3) < 1e-3, String(dr.value));
    assert.equal(ledger.spent().releases, 1);
    // clip 2 lowers round 1's weight 4 to 2: its correction -0.8 becomes -0.4
    const clipped = evaluationMechanism({ epsilon: 1e7, delta: 1e-5 }, 1, {
      noiseSeed: 2,
      accountant: 'zcdp',
    });
    const c = privateDoublyRobust(HAND, clipped.mechanism, { clip: 2, z: 1.96, round: 0, label: 'clip' });
    assert.ok(Math.abs(c.value - 1.98 / 3) < 1e-3, String(c.value));
  });

  it('refuses a reward model outside [0, 1] (it bounds the sensitivity)', () => {
    const { mechanism } = recorder();
    const bad = { ...HAND, rewardModel: Float64Array.of(0.3, 1.2, 0.2, 0.4, 0.5, 0.5) };
    assert.throws(
      () => privateDoublyRobust(bad, mechanism, { clip: 10, z: 1.96, round: 0, label: 'x' }),
      /reward model must predict in \[0, 1\]/,
    );
  });

  it('one reward changed anywhere in [0, 1] moves the released DR and IPW statistics by at most their sensitivity', () => {
    for (const seed of [1, 2, 3]) {
      const input = randomInput(seed, 40, 3);
      for (let t = 0; t < 40; t++) {
        for (const r of [0, 1]) {
          const other = { ...input, rewards: Float64Array.from(input.rewards) };
          other.rewards[t] = r;
          const a = recorder();
          const b = recorder();
          privateDoublyRobust(input, a.mechanism, { clip: 8, z: 1.96, round: 0, label: 'a' });
          privateDoublyRobust(other, b.mechanism, { clip: 8, z: 1.96, round: 0, label: 'b' });
          privateEstimates(input, a.mechanism, { clip: 8, z: 1.96, round: 0, label: 'a' });
          privateEstimates(other, b.mechanism, { clip: 8, z: 1.96, round: 0, label: 'b' });
          for (let i = 0; i < 2; i++) {
            // the sensitivity is computed from public data: the same on both sides
            assert.equal(a.calls[i]!.sensitivity, b.calls[i]!.sensitivity);
            const moved = distance(a.calls[i]!.stat, b.calls[i]!.stat);
            assert.ok(moved <= a.calls[i]!.sensitivity * (1 + 1e-12), `seed ${seed} t ${t}: ${moved}`);
          }
        }
      }
    }
  });

  it('the 95% intervals cover the true value in >= 90% of 200 logs at epsilon 1 (fixed target and model)', () => {
    const rng = createRng(12, 'private-dr-coverage');
    const n = 2000;
    const k = 4;
    const means = [0.2, 0.4, 0.6, 0.8];
    const pi = [0.1, 0.2, 0.3, 0.4]; // truth 0.6
    const q = [0.3, 0.3, 0.5, 0.7]; // a misspecified model: DR stays unbiased
    let covered = 0;
    for (let l = 0; l < 200; l++) {
      const actions = new Int32Array(n);
      const rewards = new Float64Array(n);
      const target = new Float64Array(n * k);
      const model = new Float64Array(n * k);
      for (let t = 0; t < n; t++) {
        const a = rng.integer(k);
        actions[t] = a;
        rewards[t] = rng.uniform() < means[a]! ? 1 : 0;
        target.set(pi, t * k);
        model.set(q, t * k);
      }
      const input = {
        rewards,
        actions,
        propensities: new Float64Array(n).fill(1 / k),
        offsets: Int32Array.from({ length: n + 1 }, (_, t) => t * k),
        target,
        rewardModel: model,
      };
      const { mechanism } = evaluationMechanism({ epsilon: 1, delta: 1e-5 }, 1, { noiseSeed: 300 + l });
      const dr = privateDoublyRobust(input, mechanism, { clip: 10, z: 1.959964, round: 0, label: 'cov' });
      if (dr.interval[0] <= 0.6 && 0.6 <= dr.interval[1]) covered++;
    }
    assert.ok(covered >= 180, `DR covered ${covered}/200`);
  });
});

const twoArmLog = (units: (string | null)[], rewards: number[]) =>
  decisionLogFromRecords(
    units.map((u, t) => ({
      eventId: `e${t}`,
      arms: [
        { id: 'a', features: [1, 0] },
        { id: 'b', features: [0, t % 3 === 0 ? 1 : 0.5] },
      ],
      chosen: t % 2,
      propensity: 0.5,
      reward: rewards[t],
      ...(u === null ? {} : { unit: u }),
    })),
    'units.jsonl',
  );

describe('privateRewardModel', () => {
  it('at a huge budget equals the ridge fit on the same rounds, clamped to [0, 1]; its sensitivity is max ||[x, 1]||', () => {
    const log = twoArmLog(['u', 'v', 'u', 'w', 'v', 'x'], [1, 0, 1, 0, 1, 1]);
    const rounds = evaluableRounds(log);
    const { mechanism, ledger } = evaluationMechanism({ epsilon: 1e12, delta: 1e-5 }, 1, {
      noiseSeed: 1,
      accountant: 'zcdp',
    });
    const q = privateRewardModel(log, rounds, mechanism, { round: 0, label: 'model' });
    const beta = fitRidgeRewardModel(log, rounds, 1);
    for (let j = 0; j < q.length; j++) {
      const s = beta[0]! * log.features[2 * j]! + beta[1]! * log.features[2 * j + 1]! + beta[2]!;
      assert.ok(Math.abs(q[j]! - Math.min(1, Math.max(0, s))) < 1e-4, `${j}: ${q[j]} vs ${s}`);
    }
    assert.equal(ledger.spent().releases, 1);
    const rec = recorder();
    privateRewardModel(log, rounds, rec.mechanism, { round: 0, label: 'model' });
    assert.ok(Math.abs(rec.calls[0]!.sensitivity - Math.SQRT2) < 1e-12);
  });
});

describe('user-level private evaluation', () => {
  it('firstContributions keeps the first k decisions of each unit in log order, whatever the rewards', () => {
    const log = twoArmLog(['a', 'b', 'a', 'c', 'a', 'b'], [1, 0, 1, 0, 1, 1]);
    const kept = firstContributions(log, evaluableRounds(log), 2);
    assert.deepEqual(Array.from(kept.rounds), [0, 1, 2, 3, 5]);
    assert.equal(kept.dropped, 1);
    assert.equal(kept.units, 3);
    const flipped = twoArmLog(['a', 'b', 'a', 'c', 'a', 'b'], [0, 1, 0, 1, 0, 0]);
    assert.deepEqual(
      Array.from(firstContributions(flipped, evaluableRounds(flipped), 2).rounds),
      [0, 1, 2, 3, 5],
    );
    const missing = twoArmLog(['a', null], [1, 0]);
    assert.throws(
      () => firstContributions(missing, evaluableRounds(missing), 1),
      /units\.jsonl:2: .*needs the unit/,
    );
    const none = twoArmLog([null], [1]);
    assert.throws(() => firstContributions(none, evaluableRounds(none), 1), /no decision has one/);
  });

  it('at a huge budget returns the hand-computed IPW and SNIPW of the kept rows', () => {
    const log = twoArmLog(['a', 'b', 'a', 'c'], [1, 0, 1, 1]);
    const kept = firstContributions(log, evaluableRounds(log), 1); // rounds 0, 1, 3
    // target: always arm 0 -> weights 2, 0, 0 (rounds 0, 1, 3 chose arms 0, 1, 1)
    const target = new Float64Array(8);
    for (let t = 0; t < 4; t++) target[2 * t] = 1;
    const input = opeInputFromLog(log, target, undefined, kept.rounds);
    const { mechanism } = evaluationMechanism({ epsilon: 1e9, delta: 1e-5 }, 1, {
      noiseSeed: 5,
      accountant: 'zcdp',
    });
    const [ipw, snipw] = privateUnitEstimates(input, mechanism, {
      clip: 4,
      contributions: 1,
      z: 1.96,
      round: 0,
      label: 'user',
    });
    assert.ok(Math.abs(ipw!.value - 2 / 3) < 1e-3, String(ipw!.value));
    assert.ok(Math.abs(snipw!.value - 1) < 1e-3, String(snipw!.value));
  });

  it("removing all of one unit's kept rows moves the released statistic by at most k C sqrt(6)", () => {
    const rng = createRng(4, 'unit-removal');
    for (const k of [1, 3]) {
      const n = 60;
      const units = Array.from({ length: n }, () => `u${rng.integer(12)}`);
      const rewards = Array.from({ length: n }, () => (rng.uniform() < 0.5 ? 1 : 0));
      const log = twoArmLog(units, rewards);
      const target = new Float64Array(2 * n);
      for (let t = 0; t < n; t++) target[2 * t + (t % 3 === 0 ? 1 : 0)] = 1;
      const all = firstContributions(log, evaluableRounds(log), k);
      const full = recorder();
      privateUnitEstimates(opeInputFromLog(log, target, undefined, all.rounds), full.mechanism, {
        clip: 3,
        contributions: k,
        z: 1.96,
        round: 0,
        label: 'all',
      });
      for (let u = 0; u < 12; u++) {
        const without = Int32Array.from(Array.from(all.rounds).filter((t) => units[t] !== `u${u}`));
        if (without.length === all.rounds.length || without.length === 0) continue;
        const rec = recorder();
        privateUnitEstimates(opeInputFromLog(log, target, undefined, without), rec.mechanism, {
          clip: 3,
          contributions: k,
          z: 1.96,
          round: 0,
          label: 'without',
        });
        const moved = distance(full.calls[0]!.stat, rec.calls[0]!.stat);
        assert.equal(rec.calls[0]!.sensitivity, k * 3 * Math.sqrt(6));
        assert.ok(moved <= k * 3 * Math.sqrt(6) * (1 + 1e-12), `k ${k} unit ${u}: ${moved}`);
      }
    }
  });
});
