// The policy surface every policy shares (BasePolicy): side-effect-free scoring, arm probabilities
// and propensities, learning from logs (observe), discard, and the misuse guards. Run for every id.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HorizonExceededError } from '../../src/policies/HorizonExceededError.js';
import {
  createPolicy,
  decodeFloat64Array,
  type Policy,
  type PolicyOptionsFor,
  policyIds,
  policyInfo,
} from '../../src/policies/index.js';
import { make, makeStream, play, roundFeatures } from './helpers.js';

const stream = makeStream(23, 600, 5, 4);
// the state only: the snapshot envelope also carries each instance's random id
const json = (p: Policy): string => JSON.stringify(p.snapshot().state);

for (const id of policyIds) {
  const info = policyInfo(id);
  const randomised = info.family === 'ts';

  describe(`policy surface: ${id}`, () => {
    test('scores and probabilities leave the state byte-identical and the streams untouched', () => {
      const a = make(id);
      const twin = make(id);
      play(a, stream, 0, 137);
      play(twin, stream, 0, 137);
      const before = json(a);
      const big = Float64Array.from(roundFeatures(stream, 500), (v) => 3 * v); // clipped, not counted
      for (const f of [roundFeatures(stream, 137), big]) {
        const s = a.scores(f, 5);
        assert.equal(s.length, 5);
        assert.ok(s.every(Number.isFinite));
        a.probabilities(f, 5, { samples: 300 });
      }
      assert.equal(json(a), before);
      assert.equal(a.clippedCount, twin.clippedCount);
      // a pending select survives scoring, and the run continues exactly like the twin's
      a.select(roundFeatures(stream, 137), 5);
      twin.select(roundFeatures(stream, 137), 5);
      a.scores(roundFeatures(stream, 300), 5);
      a.probabilities(roundFeatures(stream, 300), 5, { samples: 100 });
      a.update(0.5);
      twin.update(0.5);
      assert.deepEqual(play(a, stream, 138, 100), play(twin, stream, 138, 100));
      assert.equal(json(a), json(twin));
    });

    test('the same state gives the same probabilities (scratch generator keyed by the state)', () => {
      const a = make(id);
      play(a, stream, 0, 20);
      const f = roundFeatures(stream, 20);
      const p1 = a.probabilities(f, 5, { samples: 400 });
      const p2 = a.probabilities(f, 5, { samples: 400 });
      assert.deepEqual(p1, p2);
    });

    test('probabilities sum to 1 and match the frequencies of select', () => {
      const p = make(id);
      play(p, stream, 0, 12); // early: a wide posterior spreads the TS probabilities
      const f = roundFeatures(stream, 12);
      p.select(f, 5);
      p.discard(); // DGS-LinUCB releases its pending estimate here; later selects release nothing
      const probs = p.probabilities(f, 5, { samples: 20_000 });
      let sum = 0;
      for (const x of probs.probabilities) sum += x;
      assert.ok(Math.abs(sum - 1) < 1e-12, `sum ${sum}`);
      const n = randomised ? 3000 : 50;
      const freq = new Float64Array(5);
      for (let i = 0; i < n; i++) {
        const arm = p.select(f, 5);
        p.discard();
        freq[arm] = freq[arm]! + 1;
      }
      for (let a = 0; a < 5; a++) freq[a] = freq[a]! / n;
      if (!randomised) {
        assert.equal(probs.samples, 0);
        assert.equal(probs.standardErrors, null);
        assert.deepEqual(Array.from(probs.probabilities), Array.from(freq));
        const sc = p.scores(f, 5);
        assert.equal(probs.probabilities[sc.indexOf(Math.max(...sc))], 1);
        return;
      }
      assert.equal(probs.samples, 20_000);
      assert.ok(probs.standardErrors !== null);
      let spread = 0;
      for (let a = 0; a < 5; a++) {
        const q = probs.probabilities[a]!;
        if (q > 0.05 && q < 0.95) spread++;
        const tol = 5 * Math.sqrt(Math.max(q * (1 - q), 1e-4) * (1 / n + 1 / 20_000));
        assert.ok(
          Math.abs(q - freq[a]!) <= tol,
          `arm ${a}: probability ${q}, select frequency ${freq[a]} over ${n}, tolerance ${tol}`,
        );
        assert.ok(Math.abs(probs.standardErrors[a]! - Math.sqrt((q * (1 - q)) / 20_000)) < 1e-15);
      }
      assert.ok(spread >= 2, 'the state chosen for this test must spread the probabilities');
    });

    test('selectWithPropensity chooses as select does and reports the arm probability', () => {
      const a = make(id);
      const twin = make(id);
      play(a, stream, 0, 30);
      play(twin, stream, 0, 30);
      for (let t = 30; t < 60; t++) {
        const f = roundFeatures(stream, t);
        const r = a.selectWithPropensity(f, 5, { samples: 200 });
        assert.equal(r.arm, twin.select(f, 5));
        assert.equal(r.propensity, r.probabilities.probabilities[r.arm]);
        assert.ok(r.propensity > 0 && r.propensity <= 1);
        if (randomised)
          assert.equal(r.probabilities.samples, 201); // select's own draw counts once
        else assert.equal(r.propensity, 1);
        a.update(stream.means[t * 5 + r.arm]!);
        twin.update(stream.means[t * 5 + r.arm]!);
      }
      // the same state except the geometric-resampling stream, which moved only for a randomised policy
      const withoutResampling = (p: Policy): string => {
        const st = structuredClone(p.snapshot().state) as { base: { propensityRng?: unknown } };
        delete st.base.propensityRng;
        return JSON.stringify(st);
      };
      assert.equal(withoutResampling(a), withoutResampling(twin));
      assert.equal(json(a) === json(twin), !randomised);
    });

    test('observe goes through the same clipping, batching, noise and ledger as update', () => {
      const a = make(id);
      const b = make(id);
      const d = stream.d;
      for (let t = 0; t < 160; t++) {
        const f = Float64Array.from(roundFeatures(stream, t), (v) => (t % 7 === 0 ? 2 * v : v));
        const arm = a.select(f, 5);
        assert.equal(b.select(f, 5), arm);
        const r = stream.means[t * 5 + arm]!;
        a.update(r);
        b.discard();
        b.observe(f.subarray(arm * d, (arm + 1) * d), r);
      }
      a.finish();
      b.finish();
      // observe clips (and counts) the chosen arm once more: 23 rounds had a clipped chosen arm
      assert.equal(b.clippedCount, a.clippedCount + 23);
      const unclipped = (p: Policy) => json(p).replace(/"clipped":\d+/, '');
      assert.equal(unclipped(b), unclipped(a));
      assert.deepEqual(b.privacy(), a.privacy());
      assert.equal(b.roundsLearned, 160);
      if (info.isPrivate && !id.startsWith('dgs')) assert.ok(b.privacy().releases > 0);
    });

    test('observeMany equals observe row by row and is all-or-nothing', () => {
      const a = make(id);
      const b = make(id);
      const d = stream.d;
      const n = 90;
      const rows = new Float64Array(n * d);
      const rewards: number[] = [];
      for (let t = 0; t < n; t++) {
        rows.set(roundFeatures(stream, t).subarray(0, d), t * d);
        rewards.push(stream.means[t * 5]!);
        a.observe(rows.subarray(t * d, (t + 1) * d), rewards[t]!);
      }
      b.observeMany(rows, rewards);
      assert.equal(json(b), json(a));
      const before = json(b);
      const bad = Float64Array.from(rows.subarray(0, 3 * d));
      bad[2 * d + 1] = Number.NaN;
      assert.throws(() => b.observeMany(bad, [0.1, 0.2, 0.3]), /finite. Got NaN at row 2, coordinate 1/);
      assert.throws(
        () => b.observeMany(rows.subarray(0, 3 * d), [0.1, 0.2, 1.5]),
        /in \[0, 1\]. Got 1.5 at row 2/,
      );
      assert.throws(() => b.observeMany(rows.subarray(0, 3 * d), [0.1, 0.2]), /n x d = 2 x 4 = 8 values/);
      assert.equal(json(b), before);
    });

    test('misuse is refused: wrong-length features (longer too), a second select, a stray discard', () => {
      const p = make(id);
      const f = roundFeatures(stream, 0);
      const longer = new Float64Array(f.length + 1);
      longer.set(f);
      const shorter = f.subarray(0, f.length - 1);
      for (const bad of [longer, shorter]) {
        assert.throws(() => p.select(bad, 5), /exactly k x d = 5 x 4 = 20 values/);
        assert.throws(() => p.selectTicket(bad, 5), /exactly k x d = 5 x 4 = 20 values/);
        assert.throws(() => p.selectWithPropensity(bad, 5), /exactly k x d = 5 x 4 = 20 values/);
        assert.throws(() => p.scores(bad, 5), /exactly k x d = 5 x 4 = 20 values/);
        assert.throws(() => p.probabilities(bad, 5), /exactly k x d = 5 x 4 = 20 values/);
      }
      const x = f.subarray(0, 4);
      assert.throws(() => p.observe(f.subarray(0, 5), 0.5), /d = 4 values. Got a Float64Array of length 5/);
      assert.throws(() => p.observe(f.subarray(0, 3), 0.5), /d = 4 values. Got a Float64Array of length 3/);
      assert.throws(
        () => p.observe([0.1, 0.2, 0.3, 0.4] as unknown as Float64Array, 0.5),
        /convert it with Float64Array.from/,
      );
      assert.throws(() => p.observe(x, 2), /reward must be a finite number in \[0, 1\]/);
      assert.throws(() => p.discard(), /discard called without a pending select/);
      assert.throws(() => p.probabilities(f, 5, { samples: 0 }), /samples must be a positive integer/);
      assert.equal(p.roundsLearned, 0);
      p.select(f, 5);
      assert.throws(() => p.select(f, 5), /select called again before update or discard/);
      const { ticket } = p.selectTicket(f, 5); // tickets may overlap a pending select
      p.updateTicket(ticket, 0.5);
      p.discard();
      p.select(f, 5);
      p.update(0.5);
      p.select(f, 5);
      p.discard();
      assert.throws(() => p.discard(), /discard called without a pending select/);
      assert.throws(() => p.update(0.5), /update called without a pending select/);
      assert.equal(p.roundsLearned, 2);
    });

    test(
      info.boundedByHorizon
        ? 'rounds beyond the horizon are refused (the guarantee covers T rounds)'
        : 'rounds beyond the horizon go on and privacy() says so',
      () => {
        const T = 10;
        const p = make(id, { horizon: T, ...(id.startsWith('adaprivate') ? { batchSize: 4 } : {}) });
        const f = roundFeatures(stream, 0);
        play(p, stream, 0, T - 2);
        p.observe(f.subarray(0, 4), 0.5);
        const { arm, ticket } = p.selectTicket(f, 5);
        assert.equal(p.privacy().beyondHorizon, undefined);
        p.updateTicket(ticket, stream.means[arm]!);
        assert.equal(p.roundsLearned, T);
        assert.equal(p.privacy().beyondHorizon, undefined);
        if (info.boundedByHorizon) {
          const before = json(p);
          for (const call of [
            () => p.select(f, 5),
            () => p.selectTicket(f, 5),
            () => p.selectWithPropensity(f, 5),
            () => p.observe(f.subarray(0, 4), 0.5),
            () => p.observeMany(f.subarray(0, 8), [0.5, 0.5]),
          ]) {
            assert.throws(call, (e: unknown) => {
              assert.ok(e instanceof HorizonExceededError);
              assert.equal(e.horizon, T);
              assert.match(e.message, /covers horizon = 10 rounds only/);
              return true;
            });
          }
          assert.equal(json(p), before);
          assert.equal(p.scores(f, 5).length, 5); // a server keeps serving from the last release
          assert.equal(p.probabilities(f, 5).probabilities.length, 5);
          return;
        }
        play(p, stream, T, 3);
        p.finish();
        const spent = p.privacy();
        assert.equal(spent.beyondHorizon?.rounds, T + 3);
        assert.equal(spent.beyondHorizon?.horizon, T);
        assert.match(spent.beyondHorizon?.note ?? '', /beyond the planned horizon 10/);
      },
    );
  });
}

test('a policy bounded by its horizon refuses an observeMany that would cross it, as a whole', () => {
  const p = make('jdp-linucb', { horizon: 5 });
  const rows = roundFeatures(stream, 0); // 5 rows of d = 4
  p.observeMany(rows.subarray(0, 12), [0.1, 0.2, 0.3]);
  assert.throws(() => p.observeMany(rows.subarray(0, 12), [0.1, 0.2, 0.3]), HorizonExceededError);
  assert.equal(p.roundsLearned, 3);
  p.observeMany(rows.subarray(0, 8), [0.1, 0.2]);
  assert.equal(p.roundsLearned, 5);
});

test('which policies are bounded by their horizon', () => {
  assert.deepEqual(
    policyIds.filter((id) => policyInfo(id).boundedByHorizon),
    ['jdp-linucb', 'zcdp-episodic', 'dgs-linucb'],
  );
});

// Secret noise by default: the privacy noise comes from the secure source unless the caller passes
// noiseSeed (research mode); the exploration seed never determines the noise.

const noiseStream = makeStream(5, 200, 5, 4);

type BatchedOptions = PolicyOptionsFor<'adaprivate-ucb'> & PolicyOptionsFor<'adaprivate-ts'>;
function opts(extra: Record<string, unknown>): BatchedOptions {
  return { dim: 4, horizon: 200, seed: 1, epsilon: 1, batchSize: 20, ...extra } as unknown as BatchedOptions;
}

/** The released statistic b of a batched policy (base64 of its bytes). */
function released(p: Policy): string {
  return (p.snapshot().state as { own: { b: string } }).own.b;
}

describe('privacy noise: secure by default, seeded only with noiseSeed', () => {
  test('without noiseSeed two policies with the same seed and data release different noise', () => {
    const a = createPolicy('adaprivate-ucb', opts({}));
    const b = createPolicy('adaprivate-ucb', opts({}));
    play(a, noiseStream, 0, 20); // exactly one release, same public inputs and rewards
    play(b, noiseStream, 0, 20);
    assert.notEqual(released(a), released(b));
    assert.equal(a.privacy().noise, 'secure');
    assert.equal(a.privacy().releases, 1);
  });

  test('with noiseSeed the noise is reproducible and privacy() says seeded', () => {
    const a = createPolicy('adaprivate-ucb', opts({ noiseSeed: 3 }));
    const b = createPolicy('adaprivate-ucb', opts({ noiseSeed: 3 }));
    play(a, noiseStream, 0, 60);
    play(b, noiseStream, 0, 60);
    assert.equal(released(a), released(b));
    assert.equal(a.privacy().noise, 'seeded');
    const c = createPolicy('adaprivate-ucb', opts({ noiseSeed: 4 }));
    play(c, noiseStream, 0, 60);
    assert.notEqual(released(c), released(a));
  });

  test('the exploration seed never determines the noise', () => {
    // UCB is deterministic given its noise: with the same noiseSeed, any seed gives the same state
    for (const id of [
      'adaprivate-ucb',
      'dgs-linucb',
      'zcdp-episodic',
      'adac-oful-zcdp',
      'jdp-linucb',
    ] as const) {
      const batch = id === 'adaprivate-ucb' ? { batchSize: 20 } : {};
      const o = { dim: 4, horizon: 200, epsilon: 1, noiseSeed: 9, ...batch };
      const a = createPolicy(id, { ...o, seed: 1 });
      const b = createPolicy(id, { ...o, seed: 2 });
      assert.deepEqual(play(a, noiseStream, 0, 100), play(b, noiseStream, 0, 100), id);
      assert.deepEqual(
        (a.snapshot().state as { own: unknown }).own,
        (b.snapshot().state as { own: unknown }).own,
        id,
      );
    }
  });

  test('noiseSeed is validated, and refused by non-private policies (they add no noise)', () => {
    assert.throws(
      () => createPolicy('adaprivate-ts', opts({ noiseSeed: -1 })),
      /AdaPrivate-TS: noiseSeed must be a non-negative safe integer\. Got -1\./,
    );
    assert.throws(
      () =>
        createPolicy('lints', {
          dim: 4,
          horizon: 10,
          seed: 1,
          noiseSeed: 1,
        } as unknown as PolicyOptionsFor<'lints'>),
      /unknown option 'noiseSeed' for policy 'lints'/,
    );
    assert.equal(createPolicy('lints', { dim: 4, horizon: 10, seed: 1 }).privacy().noise, 'none');
  });

  test('secure noise goes through the discrete Gaussian release: released values lie on the grid', () => {
    const a = createPolicy('adaprivate-ucb', opts({}));
    play(a, stream, 0, 20); // one release; b = 0 + released s (lambda theta_0 = 0)
    const b = decodeFloat64Array(released(a));
    const gamma = 2 ** -21; // d = 4, sensitivity 1: 2^floor(log2(1 / (2 * 2^20)))
    for (const v of b) assert.ok(Number.isInteger(v / gamma) && v !== 0, `${v} is not on the grid`);
    // research mode keeps the continuous (seeded) noise: not on the grid
    const s = createPolicy('adaprivate-ucb', opts({ noiseSeed: 2 }));
    play(s, stream, 0, 20);
    assert.ok(decodeFloat64Array(released(s)).some((v) => !Number.isInteger(v / gamma)));
  });

  test('finite features whose squared norm overflows (1e200) are clipped to a unit vector, not zero', () => {
    const p = createPolicy('lints', { dim: 4, horizon: 10, seed: 1 });
    p.select(Float64Array.of(1e200, -1e200, 0, 3e199), 1); // one arm: its clipped copy waits in slot 0
    assert.equal(p.clippedCount, 1);
    const pending = decodeFloat64Array((p.snapshot().state as { base: { pending: string } }).base.pending);
    const want = [1, -1, 0, 0.3].map((v) => v / Math.hypot(1, 1, 0.3));
    for (let i = 0; i < 4; i++)
      assert.ok(Math.abs(pending[i]! - want[i]!) < 1e-12, `${pending[i]} vs ${want[i]}`);
    // observe goes through the same clipping: the design matrix gains a unit vector
    const q = createPolicy('lints', { dim: 4, horizon: 10, seed: 1 });
    q.observe(Float64Array.of(1e200, -1e200, 0, 3e199), 1);
    assert.equal(q.clippedCount, 1);
    const pt = q.scores(Float64Array.of(1, -1, 0, 0.3), 1)[0]!;
    assert.ok(pt > 0.1, `the observed direction was learned (score ${pt}), not a zero vector`);
    assert.throws(() => q.observe(Float64Array.of(Number.POSITIVE_INFINITY, 0, 0, 0), 1), /finite/);
  });

  test('a snapshot of a secure policy carries no noise state', () => {
    const a = createPolicy('adaprivate-ts', opts({}));
    play(a, noiseStream, 0, 30);
    const base = (a.snapshot().state as { base: { noiseRng: unknown } }).base;
    assert.equal(base.noiseRng, null);
    const s = createPolicy('adaprivate-ts', opts({ noiseSeed: 1 }));
    assert.notEqual((s.snapshot().state as { base: { noiseRng: unknown } }).base.noiseRng, null);
  });
});
