// The empirical privacy audit (src/audit): reference values of its statistics, no false alarm on
// the correct policies, and a lower bound above the claim for broken mechanisms built here (half
// the noise of the ledger's sigma; a raw reward leaking into decisions). Each audit is seeded, so
// these tests are deterministic; each bound holds with probability >= 95% by construction, so a
// correct policy's audit passes with probability >= 95% for any seed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type AuditMechanism,
  audit,
  auditMechanism,
  clopperPearsonLower,
  clopperPearsonUpper,
  gdpDelta,
  gdpEpsilon,
  gdpMuBound,
  gdpTester,
  policyActionsMechanism,
  policyReleaseMechanism,
  rewardNeighbours,
  thresholdTester,
} from '../../src/audit/index.js';
import { type PolicyId, policyIds, policyInfo } from '../../src/policies/index.js';
import { createRng } from '../../src/random/index.js';

const close = (got: number, want: number, rel: number, what: string) =>
  assert.ok(
    Math.abs(got - want) <= rel * Math.abs(want),
    `${what}: got ${got}, expected ${want} (rel ${rel})`,
  );

describe('statistics of the testers (references from scipy 1.17)', () => {
  test('Clopper-Pearson bounds', () => {
    // scipy.stats.beta.ppf(0.975, 1, 1000) and beta.ppf(0.025, 15, 986)
    close(clopperPearsonUpper(0, 1000, 0.025), 0.0036821, 1e-4, 'upper(0/1000)');
    close(clopperPearsonLower(15, 1000, 0.025), 0.00841905, 1e-4, 'lower(15/1000)');
    assert.equal(clopperPearsonUpper(10, 10, 0.025), 1);
    assert.equal(clopperPearsonLower(0, 10, 0.025), 0);
  });

  test('epsilon of mu-GDP at delta', () => {
    // brentq on norm.cdf(-e/mu + mu/2) - exp(e) norm.cdf(-e/mu - mu/2) - delta
    close(gdpEpsilon(0.20405851288067106, 1e-5), 0.741637422436681, 1e-6, 'mu = 0.204');
    close(gdpEpsilon(0.4081170257613421, 1e-5), 1.5900070899533032, 1e-6, 'mu = 0.408');
    close(gdpDelta(0.741637422436681, 0.20405851288067106), 1e-5, 1e-5, 'delta');
    assert.equal(gdpEpsilon(0, 1e-5), 0);
  });

  test('on two Gaussians N(0, 1) and N(mu, 1) both testers stay below the truth and see the shift', () => {
    const rng = createRng(3, 'audit-test');
    const n = 4000;
    const mu = 1;
    const a = Array.from({ length: n }, () => Float64Array.of(rng.normal()));
    const b = Array.from({ length: n }, () => Float64Array.of(mu + rng.normal()));
    const g = gdpTester.lowerBound(a, b, 1e-5, 0.95);
    const t = thresholdTester.lowerBound(a, b, 1e-5, 0.95);
    const truth = gdpEpsilon(mu, 1e-5);
    assert.ok(g.mu! <= mu && g.mu! > 0.8, `gdp mu bound ${g.mu}`);
    assert.ok(g.epsilon <= truth && g.epsilon > 0.7 * truth, `gdp ${g.epsilon} vs ${truth}`);
    assert.ok(t.epsilon <= truth && t.epsilon > 0.15 * truth, `threshold ${t.epsilon} vs ${truth}`);
    // identical inputs: nothing to see
    const same = gdpTester.lowerBound(a, a, 1e-5, 0.95);
    assert.equal(same.epsilon, 0);
  });
});

describe('the gdp bound is a valid lower bound at its confidence', () => {
  test("the pooled Clopper-Pearson bound on (alpha + beta) / 2 covers, computed exactly (Hoeffding's theorem)", () => {
    // S = Bin(n, alpha) + Bin(n, beta) exactly (convolution); the bound fails when its upper bound on
    // p = (alpha + beta) / 2 is below p. That probability must be <= gamma, even for very unequal
    // alpha and beta (where S is least like Bin(2n, p)). Fails if the bound used Bin(2n, .) with a
    // wrong tail, or the quantile at 1 - gamma / 2 instead of 1 - gamma were replaced by a point estimate.
    const n = 150;
    const pmf = (p: number): Float64Array => {
      const out = new Float64Array(n + 1);
      let logC = 0;
      for (let k = 0; k <= n; k++) {
        if (k > 0) logC += Math.log((n - k + 1) / k);
        out[k] = Math.exp(logC + k * Math.log(p) + (n - k) * Math.log1p(-p));
      }
      return out;
    };
    for (const gamma of [0.05, 0.01]) {
      const upper = Array.from({ length: 2 * n + 1 }, (_, s) => clopperPearsonUpper(s, 2 * n, gamma));
      for (const [alpha, beta] of [
        [0.45, 0.45],
        [0.05, 0.85],
        [0.3, 0.6],
        [0.01, 0.5],
        [0.2, 0.2],
        [0.49, 0.02],
      ] as const) {
        const pa = pmf(alpha);
        const pb = pmf(beta);
        const p = (alpha + beta) / 2;
        let miss = 0;
        for (let i = 0; i <= n; i++)
          for (let j = 0; j <= n; j++) if (upper[i + j]! < p) miss += pa[i]! * pb[j]!;
        assert.ok(miss <= gamma, `alpha ${alpha}, beta ${beta}, gamma ${gamma}: miss ${miss}`);
        // where S is Bin(2n, p) the bound is not trivially loose (unequal rates: S is less spread)
        if (alpha === beta) assert.ok(miss > gamma / 4, `the bound should be near gamma: miss ${miss}`);
      }
    }
  });

  test('on N(0, 1) vs N(mu, 1) the mu bound exceeds the truth in at most ~5% of 400 audits', () => {
    const rng = createRng(21, 'audit-coverage');
    const mu = 0.268; // AdaPrivate-TS at eps 1 under the exact accountant
    let over = 0;
    let sum = 0;
    const reps = 400;
    for (let r = 0; r < reps; r++) {
      const a = Array.from({ length: 1000 }, () => Float64Array.of(rng.normal()));
      const b = Array.from({ length: 1000 }, () => Float64Array.of(mu + rng.normal()));
      const g = gdpTester.lowerBound(a, b, 1e-5, 0.95);
      if (g.mu! > mu) over++;
      sum += g.mu!;
    }
    // Bin(400, 0.05) exceeds 35 with probability ~3e-4; the seed makes it deterministic
    assert.ok(over <= 35, `the bound exceeded mu in ${over} of ${reps} audits`);
    assert.ok(sum / reps > 0.1, `mean bound ${sum / reps}: the tester should see most of mu`);
  });

  test('gdpMuBound: the pooled bound, and the split bound below confidence 0.75', () => {
    const c = { threshold: 0, region: 'above' as const, countA: 450, countB: 550, n: 1000 };
    // p <= clopperPearsonUpper(900, 2000, 0.05), mu >= -2 Phi^{-1}(p)
    const p = clopperPearsonUpper(900, 2000, 0.05);
    assert.ok(p > 0.45 && p < 0.47, `p ${p}`);
    const mu = gdpMuBound(c, 0.05);
    assert.ok(mu > 0 && mu < 0.25, `mu ${mu}`);
    assert.ok(gdpMuBound(c, 0.3) >= 0);
    assert.equal(gdpMuBound({ ...c, countA: 600, countB: 400 }, 0.05), 0);
  });
});

describe('no false alarm on the correct policies (lower bound below the claim)', () => {
  const ids = policyIds.filter((id) => policyInfo(id).isPrivate);
  for (const id of ids) {
    test(`${id}: release mode`, () => {
      const r = audit({ policy: id, epsilon: 1, samples: 500, seed: 4, noiseSeed: 4 });
      assert.ok(r.claim.epsilon > 0 && r.claim.epsilon <= 1 + 1e-9, `claim ${r.claim.epsilon}`);
      assert.equal(r.method, id === 'adaprivate-ts-amp' ? 'threshold' : 'gdp');
      assert.ok(
        r.lowerBound < r.claim.epsilon,
        `${id}: lower bound ${r.lowerBound} >= claim ${r.claim.epsilon}`,
      );
      assert.equal(r.refuted, false);
    });
  }
  for (const id of ['adaprivate-ts', 'zcdp-episodic'] as const) {
    test(`${id}: actions mode`, () => {
      const r = audit({ policy: id, epsilon: 1, samples: 400, mode: 'actions', seed: 4, noiseSeed: 4 });
      assert.ok(
        r.lowerBound < r.claim.epsilon,
        `${id}: lower bound ${r.lowerBound} >= claim ${r.claim.epsilon}`,
      );
    });
  }
});

describe('broken mechanisms are caught (lower bound above the claim)', () => {
  test('AdaPrivate-TS whose release carries half the ledger sigma', () => {
    // The real release of one batch (d = 1, x = 1, B = 4, so A = 5 and the noiseless estimate is
    // s / 5), with half of its noise removed while the ledger still claims eps = 4. (At eps = 4 the
    // gap between the claim and half the noise is 0.62 in mu, so 2000 samples detect it with a wide
    // margin; at eps = 1 it is 0.27, see the exact-accountant tests below and docs/audit.md.)
    // the paper's zCDP calibration (the exact accountant's is checked below and in scripts/audit-exact.mjs)
    const real = policyReleaseMechanism('adaprivate-ts', {
      policyOptions: { epsilon: 4, accountant: 'zcdp' },
      seed: 6,
      noiseSeed: 6,
    });
    const halfNoise: AuditMechanism<Float64Array> = {
      name: 'adaprivate-ts with half the noise',
      claim: () => real.claim(),
      run: (data, index) => {
        const out = real.run(data, index);
        const exact = data.reduce((s, r) => s + r, 0) / (1 + data.length);
        return out.map((v) => exact + 0.5 * (v - exact));
      },
    };
    const pair = rewardNeighbours(4, 0, 0.5);
    const r = auditMechanism(halfNoise, pair, { samples: 2000 });
    assert.ok(Math.abs(r.claim.epsilon - 4) < 1e-9);
    assert.equal(r.method, 'gdp');
    assert.ok(r.lowerBound > 4, `lower bound ${r.lowerBound} (mu >= ${r.gdp.mu}) should exceed the claim 4`);
    assert.equal(r.refuted, true);
    // the same audit of the real release stays below the claim, and sees most of it: the exact
    // epsilon of this Gaussian release is gdpEpsilon(0.772, 1e-5) = 3.25
    const ok = auditMechanism(real, pair, { samples: 2000 });
    assert.ok(ok.lowerBound < 4 && ok.lowerBound > 0.5 * 3.25, `correct release: ${ok.lowerBound}`);
  });

  test('a policy whose decision at round 2 follows the raw reward of round 1 (actions mode)', () => {
    const leaky = policyActionsMechanism(
      'adaprivate-ts',
      { policyOptions: { epsilon: 1 }, seed: 8, noiseSeed: 8, scenario: { rounds: 30 } },
      (p, f, k, history) => {
        const a = p.select(f, k);
        return history.length === 1 ? (history[0]! > 0.5 ? 0 : 1) : a;
      },
    );
    const r = auditMechanism(leaky, rewardNeighbours(30, 0, 'random', 8), { samples: 300 });
    assert.ok(r.lowerBound > r.claim.epsilon, `lower bound ${r.lowerBound} vs claim ${r.claim.epsilon}`);
    assert.ok(r.threshold.epsilon > r.claim.epsilon, `threshold bound ${r.threshold.epsilon}`);
  });
});

describe('the audit runs the production sampler unless a noise seed is asked for', () => {
  test('default: secure noise (fresh draws in every run); noiseSeed: the same draws again', () => {
    const data = Float64Array.of(1, 0, 1, 1);
    const secure = policyReleaseMechanism('adaprivate-ts', { policyOptions: { epsilon: 1 } });
    assert.notDeepEqual([...secure.run(data, 0)], [...secure.run(data, 0)]);
    const seeded = policyReleaseMechanism('adaprivate-ts', { policyOptions: { epsilon: 1 }, noiseSeed: 2 });
    assert.deepEqual([...seeded.run(data, 0)], [...seeded.run(data, 0)]);
    const r = audit({ policy: 'adaprivate-ts', epsilon: 1, samples: 100 });
    assert.equal(r.noise, 'secure');
    assert.equal(r.noiseSeed, null);
    assert.equal(audit({ policy: 'adaprivate-ts', epsilon: 1, samples: 100, noiseSeed: 5 }).noise, 'seeded');
  });

  test('adaprivate-ts at eps 1 under the default (exact) accountant: the claim is 1, the bound below it', () => {
    // the full check (50,000 runs per input, secure noise, lower bound >= 0.85 x the claim, the
    // half-noise release refuted) is scripts/audit-exact.mjs: docs/audit.md gives its figures
    for (const seed of [3, 4, 5, 6, 7]) {
      const r = audit({ policy: 'adaprivate-ts', epsilon: 1, samples: 2000, seed, noiseSeed: seed });
      assert.ok(r.claim.epsilon <= 1 && r.claim.epsilon > 0.999, `claim ${r.claim.epsilon}`);
      assert.ok(
        r.lowerBound < r.claim.epsilon && r.lowerBound > 0.4,
        `seed ${seed}: lower bound ${r.lowerBound}`,
      );
    }
  });

  test('adaprivate-ts at eps 1 with half its noise is refuted at 5,000 runs per input', () => {
    const real = policyReleaseMechanism('adaprivate-ts', {
      policyOptions: { epsilon: 1 },
      seed: 9,
      noiseSeed: 9,
    });
    const halfNoise: AuditMechanism<Float64Array> = {
      name: 'adaprivate-ts with half the noise',
      claim: () => real.claim(),
      run: (data, index) => {
        const out = real.run(data, index);
        const exact = data.reduce((s, r) => s + r, 0) / (1 + data.length);
        return out.map((v) => exact + 0.5 * (v - exact));
      },
    };
    const r = auditMechanism(halfNoise, rewardNeighbours(4, 0, 0.5), { samples: 5000 });
    assert.ok(r.claim.epsilon > 0.999 && r.claim.epsilon <= 1);
    assert.ok(r.lowerBound > 1, `lower bound ${r.lowerBound} (mu >= ${r.gdp.mu}) should exceed the claim 1`);
    assert.equal(r.refuted, true);
  });
});

test('bad audit options are refused with the rule', () => {
  assert.throws(() => audit({ policy: 'lints', epsilon: 1 }), /policy 'lints' is not private/);
  assert.throws(() => audit({ policy: 'adaprivate-ts', samples: 10 }), /samples must be an integer >= 100/);
  assert.throws(
    () => audit({ policy: 'adaprivate-ts', mode: 'x' as 'release' }),
    /mode must be 'release' or 'actions'/,
  );
  assert.throws(() => audit({ policy: 'nope' as PolicyId }), /unknown policy "nope"/);
  assert.throws(() => audit({ policy: 'adaprivate-ts', noiseSeed: -1 }), /noiseSeed must be a non-negative/);
});
