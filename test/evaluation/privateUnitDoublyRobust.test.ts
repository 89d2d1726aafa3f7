// User-level private DR and the user-level parts of private evaluation (issue 27):
// - a unit's rows removed (contexts included, `--target`): the released reward model (Gram matrix and
//   reward statistic, sensitivity k sqrt 6) and DR statistic (k (1 + C) sqrt 3) move by at most their
//   sensitivity when every row of one unit leaves the log, including a unit built to reach the bound;
//   the test fails when the per-unit bound (first k rows, or the factor k) is removed;
// - the noise actually added has the calibrated sd for that sensitivity (fails if it is halved);
// - a unit's rewards (a learning private policy, contexts public): k x the event-level sensitivity;
// - hand values at a huge budget and coverage on small synthetic logs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DecisionLog } from '../../src/evaluation/DecisionLog.js';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { evaluationMechanism } from '../../src/evaluation/evaluationMechanism.js';
import { firstContributions } from '../../src/evaluation/firstContributions.js';
import { evaluableRounds, opeInputFromLog } from '../../src/evaluation/opeInputFromLog.js';
import { privateDoublyRobust } from '../../src/evaluation/privateDoublyRobust.js';
import { privateEstimates } from '../../src/evaluation/privateEstimates.js';
import { privateRewardModel } from '../../src/evaluation/privateRewardModel.js';
import { privateUnitDoublyRobust } from '../../src/evaluation/privateUnitDoublyRobust.js';
import { privateUnitRewardModel } from '../../src/evaluation/privateUnitRewardModel.js';
import { calibrateGaussian, type GaussianMechanism } from '../../src/mechanisms/index.js';
import { createRng } from '../../src/random/index.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

interface Call {
  stat: number[];
  out: number[];
  sensitivity: number;
}

/** Wraps a mechanism (or none: no noise) and records each release's statistic, output and sensitivity. */
function recorder(inner?: GaussianMechanism): { mechanism: GaussianMechanism; calls: Call[] } {
  const calls: Call[] = [];
  const mechanism = {
    calibration: inner?.calibration ?? { sigma: (s: number) => s },
    release(
      stat: Float64Array,
      start: number,
      end: number,
      sensitivity: number,
      out: Float64Array,
      outStart: number,
      round: number,
      partition: number,
      label: string,
    ) {
      if (inner === undefined) {
        for (let i = start; i < end; i++) out[outStart + i - start] = stat[i]!;
      } else inner.release(stat, start, end, sensitivity, out, outStart, round, partition, label);
      calls.push({
        stat: Array.from(stat.subarray(start, end)),
        out: Array.from(out.subarray(outStart, outStart + end - start)),
        sensitivity,
      });
    },
  } as unknown as GaussianMechanism;
  return { mechanism, calls };
}

const distance = (a: number[], b: number[]) => Math.hypot(...a.map((v, i) => v - b[i]!));

interface Row {
  unit: string;
  x: number[][];
  chosen: number;
  propensity: number;
  reward: number;
}

const logOf = (rows: Row[]) =>
  decisionLogFromRecords(
    rows.map((r, t) => ({
      eventId: `e${t}`,
      arms: r.x.map((features, a) => ({ id: `a${a}`, features })),
      chosen: r.chosen,
      propensity: r.propensity,
      reward: r.reward,
      unit: r.unit,
    })),
    'units.jsonl',
  );

/** 2-arm rows of 10 units; unit "hot" has 5 rows at the extreme (weight C, reward 1, model 0). */
function rowsWithHotUnit(seed: number): Row[] {
  const rng = createRng(seed, 'unit-dr-rows');
  const rows: Row[] = [];
  for (let t = 0; t < 60; t++) {
    const hot = t % 12 === 0;
    rows.push({
      unit: hot ? 'hot' : `u${rng.integer(10)}`,
      // the hot unit's chosen arm has features of norm 3 (scaled to norm 1 by the model)
      x: hot
        ? [
            [0, 0],
            [3, 0],
          ]
        : [
            [rng.uniform(), 0],
            [0, rng.uniform()],
          ],
      chosen: hot ? 1 : rng.integer(2),
      propensity: hot ? 0.1 : 0.5,
      reward: hot ? 1 : rng.uniform() < 0.5 ? 1 : 0,
    });
  }
  return rows;
}

/** Target: all mass on arm 1 (the hot unit's weight 10 is clipped to C). */
const armOne = (log: DecisionLog) => {
  const target = new Float64Array(log.armOffsets[log.rounds]!);
  for (let t = 0; t < log.rounds; t++) target[log.armOffsets[t]! + 1] = 1;
  return target;
};

/** What the user-level DR pipeline hands the mechanism on `rows`, keeping k rows per unit. */
function unitReleases(rows: Row[], k: number, clip: number, q?: Float64Array) {
  const log = logOf(rows);
  const kept = firstContributions(log, evaluableRounds(log), k);
  const model = recorder();
  const fitted = privateUnitRewardModel(log, kept.rounds, model.mechanism, {
    contributions: k,
    round: 0,
    label: 'model',
  });
  const dr = recorder();
  const input = opeInputFromLog(log, armOne(log), q ?? new Float64Array(fitted.length), kept.rounds);
  privateUnitDoublyRobust(input, dr.mechanism, { clip, contributions: k, z: 1.96, round: 1, label: 'dr' });
  return { model: model.calls[0]!, dr: dr.calls[0]! };
}

describe('user-level private DR (a unit removed, contexts included)', () => {
  it('at a huge budget returns the hand-computed DR 1.58 / 3 (the released count divides)', () => {
    const { mechanism, ledger } = evaluationMechanism({ epsilon: 1e9, delta: 1e-5 }, 1, {
      noiseSeed: 2,
      accountant: 'zcdp',
    });
    const dr = privateUnitDoublyRobust(HAND, mechanism, {
      clip: 10,
      contributions: 1,
      z: 1.96,
      round: 0,
      label: 'hand',
    });
    assert.ok(Math.abs(dr.value - 1.58 / 3) < 1e-3, String(dr.value));
    assert.equal(ledger.spent().releases, 1);
  });

  it("removing every row of one unit moves the model's and DR's statistics by at most k sqrt 6 and k (1 + C) sqrt 3", () => {
    const clip = 4;
    for (const k of [1, 2, 3]) {
      for (const seed of [1, 2]) {
        const rows = rowsWithHotUnit(seed);
        // a fixed model (0 everywhere) reaches |d_t| = 1 + C on the hot unit's rows
        const full = unitReleases(rows, k, clip, new Float64Array(2 * rows.length));
        assert.equal(full.model.sensitivity, k * Math.sqrt(6));
        assert.equal(full.dr.sensitivity, k * (1 + clip) * Math.sqrt(3));
        let hotMoved = 0;
        for (const unit of new Set(rows.map((r) => r.unit))) {
          const rest = rows.filter((r) => r.unit !== unit);
          const without = unitReleases(rest, k, clip, new Float64Array(2 * rest.length));
          // the sensitivity does not depend on the data (the removed rows are private)
          assert.equal(without.dr.sensitivity, full.dr.sensitivity);
          const m = distance(full.model.stat, without.model.stat);
          const d = distance(full.dr.stat, without.dr.stat);
          assert.ok(m <= full.model.sensitivity * (1 + 1e-12), `k ${k} ${unit}: model moved ${m}`);
          assert.ok(d <= full.dr.sensitivity * (1 + 1e-12), `k ${k} ${unit}: DR moved ${d}`);
          if (unit === 'hot') hotMoved = d;
        }
        // the hot unit's k rows move (D, DQ / (1 + C), N (1 + C)) by k (C, C^2 / (1 + C), 1 + C): from
        // k = 2 on, more than the bound without the factor k
        const perRow = Math.hypot(clip, (clip * clip) / (1 + clip), 1 + clip);
        assert.ok(Math.abs(hotMoved - k * perRow) < 1e-9, `k ${k}: ${hotMoved}`);
        if (k >= 2) assert.ok(hotMoved > (1 + clip) * Math.sqrt(3));
      }
    }
  });

  it('without the first-k rule the hot unit (5 rows) would move DR past the stated bound', () => {
    // the negative control: keeping every row of a unit breaks the sensitivity the release states
    const rows = rowsWithHotUnit(1);
    const log = logOf(rows);
    const all = evaluableRounds(log);
    const q = new Float64Array(2 * rows.length);
    const stat = (l: DecisionLog, rounds: Int32Array) => {
      const rec = recorder();
      privateUnitDoublyRobust(
        opeInputFromLog(l, armOne(l), q.subarray(0, 2 * l.rounds), rounds),
        rec.mechanism,
        {
          clip: 4,
          contributions: 2,
          z: 1.96,
          round: 0,
          label: 'x',
        },
      );
      return rec.calls[0]!;
    };
    const rest = logOf(rows.filter((r) => r.unit !== 'hot'));
    const full = stat(log, all);
    const moved = distance(full.stat, stat(rest, evaluableRounds(rest)).stat);
    assert.ok(moved > full.sensitivity, `${moved} vs ${full.sensitivity}`);
  });

  it('adds noise of the calibrated sd for k (1 + C) sqrt 3 (a halved noise fails), one ledger entry per release', () => {
    const rows = rowsWithHotUnit(3);
    const log = logOf(rows);
    const kept = firstContributions(log, evaluableRounds(log), 2);
    const input = opeInputFromLog(log, armOne(log), new Float64Array(2 * rows.length).fill(0.5), kept.rounds);
    const budget = { epsilon: 1, delta: 1e-5 };
    const want = calibrateGaussian('t', budget, { compositions: 1, q: 1 }, 'exact').sigma(
      2 * 5 * Math.sqrt(3),
    );
    let ss = 0;
    let count = 0;
    for (let s = 0; s < 300; s++) {
      const { mechanism, ledger } = evaluationMechanism(budget, 1, { noiseSeed: 1000 + s });
      const rec = recorder(mechanism);
      privateUnitDoublyRobust(input, rec.mechanism, {
        clip: 4,
        contributions: 2,
        z: 1.96,
        round: 0,
        label: 'n',
      });
      const c = rec.calls[0]!;
      for (let i = 0; i < 3; i++) {
        ss += (c.out[i]! - c.stat[i]!) ** 2;
        count++;
      }
      if (s === 0) {
        assert.equal(ledger.spent().releases, 1);
        assert.ok(Math.abs(ledger.spent().epsilon - 1) < 1e-6, String(ledger.spent().epsilon));
      }
    }
    const sd = Math.sqrt(ss / count);
    // 900 draws: the sample sd is within ~3% of the truth; half the noise would be 50% off
    assert.ok(Math.abs(sd / want - 1) < 0.1, `noise sd ${sd} vs calibrated ${want}`);
  });

  it('the released reward model equals the ridge fit on the scaled features at a huge budget', () => {
    const rows = rowsWithHotUnit(4);
    const log = logOf(rows);
    const kept = firstContributions(log, evaluableRounds(log), 1);
    const { mechanism } = evaluationMechanism({ epsilon: 1e12, delta: 1e-5 }, 1, {
      noiseSeed: 1,
      accountant: 'zcdp',
      coordinates: 10,
    });
    const q = privateUnitRewardModel(log, kept.rounds, mechanism, { contributions: 1, round: 0, label: 'm' });
    // the same fit by hand: [x scaled to norm <= 1, 1], lambda 1, normal equations by Cramer's rule
    const a = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    const b = [0, 0, 0];
    for (const t of kept.rounds) {
      const x = rows[t]!.x[rows[t]!.chosen]!;
      const n = Math.hypot(...x);
      const z = [...x.map((v) => (n > 1 ? v / n : v)), 1];
      for (let i = 0; i < 3; i++) {
        b[i] = b[i]! + rows[t]!.reward * z[i]!;
        for (let j = 0; j < 3; j++) a[i]![j] = a[i]![j]! + z[i]! * z[j]!;
      }
    }
    const det = (m: number[][]) =>
      m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
      m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
      m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
    const beta = [0, 1, 2].map(
      (c) => det(a.map((row, i) => row.map((v, j) => (j === c ? b[i]! : v)))) / det(a),
    );
    for (let t = 0; t < log.rounds; t++) {
      for (let arm = 0; arm < 2; arm++) {
        const x = rows[t]!.x[arm]!;
        const n = Math.hypot(...x);
        const s = (n > 1 ? x[0]! / n : x[0]!) * beta[0]! + (n > 1 ? x[1]! / n : x[1]!) * beta[1]! + beta[2]!;
        const j = log.armOffsets[t]! + arm;
        assert.ok(Math.abs(q[j]! - Math.min(1, Math.max(0, s))) < 1e-4, `${t}/${arm}: ${q[j]} vs ${s}`);
      }
    }
  });

  it('the 95% intervals of DR cover the true value in >= 90% of 200 small logs at epsilon 1 (model released too)', () => {
    const rng = createRng(31, 'unit-dr-coverage');
    const k = 4;
    const means = [0.2, 0.4, 0.6, 0.8];
    const pi = [0.1, 0.2, 0.3, 0.4]; // truth 0.6
    let covered = 0;
    for (let l = 0; l < 200; l++) {
      const rows: Row[] = [];
      for (let t = 0; t < 600; t++) {
        const a = rng.integer(k);
        rows.push({
          unit: `u${t % 300}`,
          x: [0, 1, 2, 3].map((j) => [j === 0 ? 1 : 0, j === 1 ? 1 : 0, j === 2 ? 1 : 0]),
          chosen: a,
          propensity: 1 / k,
          reward: rng.uniform() < means[a]! ? 1 : 0,
        });
      }
      const log = logOf(rows);
      const kept = firstContributions(log, evaluableRounds(log), 2);
      const target = new Float64Array(4 * rows.length);
      for (let t = 0; t < rows.length; t++) target.set(pi, 4 * t);
      const { mechanism } = evaluationMechanism({ epsilon: 1, delta: 1e-5 }, 2, {
        noiseSeed: 500 + l,
        coordinates: 20,
      });
      const q = privateUnitRewardModel(log, kept.rounds, mechanism, {
        contributions: 2,
        round: 0,
        label: 'm',
      });
      const dr = privateUnitDoublyRobust(opeInputFromLog(log, target, q, kept.rounds), mechanism, {
        clip: 4,
        contributions: 2,
        z: 1.959964,
        round: 1,
        label: 'cov',
      });
      if (dr.interval[0] <= 0.6 && 0.6 <= dr.interval[1]) covered++;
    }
    assert.ok(covered >= 180, `DR covered ${covered}/200`);
  });
});

describe("user-level private evaluation of a learning policy (a unit's rewards, contexts public)", () => {
  it("changing every reward of one unit's k kept rows moves IPW's, DR's and the model's statistics by at most k x the event-level bound", () => {
    const rows = rowsWithHotUnit(5);
    for (const k of [1, 2, 3]) {
      const release = (rs: Row[]) => {
        const log = logOf(rs);
        const kept = firstContributions(log, evaluableRounds(log), k);
        const model = recorder();
        privateRewardModel(log, kept.rounds, model.mechanism, { contributions: k, round: 0, label: 'm' });
        const input = opeInputFromLog(log, armOne(log), new Float64Array(2 * rs.length), kept.rounds);
        const ratio = recorder();
        const dr = recorder();
        const opts = { clip: 4, contributions: k, z: 1.96, round: 1, label: 'x' };
        privateEstimates(input, ratio.mechanism, opts);
        privateDoublyRobust(input, dr.mechanism, opts);
        return [model.calls[0]!, ratio.calls[0]!, dr.calls[0]!];
      };
      const full = release(rows);
      // c = 4 (the hot unit's clipped weight), largest ||[x, 1]|| = sqrt(10)
      assert.ok(Math.abs(full[0]!.sensitivity - k * Math.sqrt(10)) < 1e-12);
      assert.ok(Math.abs(full[1]!.sensitivity - k * 4 * Math.sqrt(3)) < 1e-12);
      assert.ok(Math.abs(full[2]!.sensitivity - k * 4 * Math.SQRT2) < 1e-12);
      for (const unit of new Set(rows.map((r) => r.unit))) {
        for (const r of [0, 1]) {
          const other = release(rows.map((row) => (row.unit === unit ? { ...row, reward: r } : row)));
          for (let i = 0; i < 3; i++) {
            assert.equal(other[i]!.sensitivity, full[i]!.sensitivity);
            const moved = distance(full[i]!.stat, other[i]!.stat);
            assert.ok(
              moved <= full[i]!.sensitivity * (1 + 1e-12),
              `k ${k} ${unit} -> ${r}, release ${i}: ${moved}`,
            );
          }
        }
      }
      // the hot unit's k rewards 1 -> 0 move IPW's S by k c = 4 k: beyond the event-level bound for k > 1
      const zeroed = release(rows.map((row) => (row.unit === 'hot' ? { ...row, reward: 0 } : row)));
      assert.ok(Math.abs(full[1]!.stat[0]! - zeroed[1]!.stat[0]! - 4 * k) < 1e-9);
    }
  });
});
