// User-level privacy in the policies (privacyUnit 'user'): options, units on every learning path,
// the contribution bounds (dropped rewards enter no statistic), epochs, calibration for m releases
// of sensitivity c, the per-epoch and cumulative guarantees, snapshots.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  decodeFloat64Array,
  loadPolicy,
  type Policy,
  type PolicyId,
  type PolicyOptions,
  type PolicyRuntime,
  policyIds,
  policyInfo,
} from '../../src/policies/index.js';
import { calibrateGaussianNoise, gaussianPlanEpsilon, zcdpToEpsilon } from '../../src/privacy/index.js';
import { createPaperPolicy as createPolicy } from './helpers.js';

const d = 3;
const x = (i: number): Float64Array => {
  const v = new Float64Array(d);
  v[i % d] = 1;
  return v;
};

const USER_IDS: readonly PolicyId[] = [
  'adaprivate-ts',
  'adaprivate-ucb',
  'adaprivate-ts-amp',
  'adaprivate-ts-adaptive',
  'adac-oful-zcdp',
  'rarely-switching-zcdp',
];

function userPolicy(id: PolicyId, extra: Record<string, unknown> = {}, runtime?: PolicyRuntime): Policy {
  // batches of 4; switching OFUL: no switch from the design matrix in these short runs
  const batch = policyInfo(id).defaults.batchSize !== undefined ? { batchSize: 4 } : { cTrigger: 1e6 };
  return createPolicy(
    id,
    {
      dim: d,
      horizon: 1000,
      seed: 1,
      noiseSeed: 2,
      epsilon: 1,
      privacyUnit: 'user',
      releasesPerEpoch: 2,
      ...batch,
      ...extra,
    } as PolicyOptions,
    runtime,
  );
}

const state = (p: Policy) => (p.snapshot().state as { own: Record<string, unknown> }).own;

describe('user-level options', () => {
  test('the schema table lists the unit options for private policies, and which policies support user', () => {
    for (const id of policyIds) {
      const info = policyInfo(id);
      assert.equal(info.options.includes('privacyUnit'), info.isPrivate, id);
      assert.equal(info.supportsUserLevel, USER_IDS.includes(id), id);
      assert.equal(info.userLevelRefusal !== null, info.isPrivate && !USER_IDS.includes(id), id);
    }
  });

  test('refusals name the option, the value and the rule', () => {
    const base = { dim: d, horizon: 100, seed: 1, epsilon: 1 };
    for (const id of ['jdp-linucb', 'zcdp-episodic', 'dgs-linucb'] as const) {
      assert.throws(
        () => createPolicy(id, { ...base, privacyUnit: 'user', releasesPerEpoch: 2 }),
        /privacyUnit 'user' is not supported: its releases compose sequentially over all the data.*use 'adaprivate-ts'/,
      );
    }
    assert.throws(
      () => createPolicy('adaprivate-ts', { ...base, privacyUnit: 'user' }),
      /needs releasesPerEpoch/,
    );
    assert.throws(
      () => createPolicy('adaprivate-ts', { ...base, releasesPerEpoch: 3 }),
      /releasesPerEpoch is used only with privacyUnit 'user'. Got privacyUnit "event" \(the default\)/,
    );
    assert.throws(
      () =>
        createPolicy('adaprivate-ts', {
          ...base,
          privacyUnit: 'user',
          releasesPerEpoch: 2,
          epochDays: 30,
          epochRounds: 9,
        }),
      /at most one of epochDays and epochRounds/,
    );
    assert.throws(
      () => createPolicy('adaprivate-ts', { ...base, privacyUnit: 'person' as 'user', releasesPerEpoch: 2 }),
      /privacyUnit must be one of 'event', 'user'. Got "person"/,
    );
    assert.throws(
      () => createPolicy('adaprivate-ts', { ...base, privacyUnit: 'user', releasesPerEpoch: 0 }),
      /releasesPerEpoch must be a positive integer. Got 0/,
    );
    // linucb is not private: no unit options at all
    assert.throws(
      () => createPolicy('linucb', { dim: d, horizon: 10, seed: 1, privacyUnit: 'user' } as never),
      /unknown option 'privacyUnit'/,
    );
    const c = createPolicy('adaprivate-ts', { ...base, privacyUnit: 'user', releasesPerEpoch: 2 }).config;
    assert.equal(c.contributionsPerRelease, 1, 'c defaults to 1');
    assert.equal(
      'privacyUnit' in createPolicy('adaprivate-ts', base).config,
      false,
      'event-level configs are unchanged',
    );
  });
});

for (const id of USER_IDS) {
  describe(`user-level learning: ${id}`, () => {
    test('a reward without a unit is refused with the reason, on every learning path, and nothing changes', () => {
      const p = userPolicy(id);
      const before = JSON.stringify(p.snapshot().state);
      assert.throws(() => p.observe(x(0), 1), /observe needs the reward's unit .*privacyUnit is 'user'/);
      assert.throws(() => p.observeMany(x(0), [1]), /observeMany needs units as an array of n = 1 unit ids/);
      assert.throws(() => p.observe(x(0), 1, ''), /unit must be a non-empty string/);
      p.select(new Float64Array([1, 0, 0, 0, 1, 0]), 2);
      assert.throws(() => p.update(1), /update needs the reward's unit/);
      const t = p.selectTicket(new Float64Array([1, 0, 0]), 1);
      assert.throws(() => p.updateTicket(t.ticket, 1), /updateTicket needs the reward's unit/);
      p.update(1, 'alice');
      p.updateTicket(t.ticket, 1, 'bob');
      assert.equal(p.roundsLearned, 2);
      assert.notEqual(JSON.stringify(p.snapshot().state), before);
    });

    test('c = 1: the second reward of a unit in one release is acknowledged, not learned, and counted; first come first kept', () => {
      const a = userPolicy(id);
      const b = userPolicy(id);
      const c = userPolicy(id);
      a.observe(x(0), 1, 'u1');
      a.observe(x(1), 1, 'u1'); // dropped: u1 already has c = 1 reward in the open release
      b.observe(x(0), 1, 'u1');
      c.observe(x(0), 1, 'u1');
      c.observe(x(2), 0, 'u1'); // a different value and features: dropped just the same
      assert.equal(a.roundsLearned, 1);
      assert.deepEqual(state(a), state(b), 'the dropped reward entered no statistic');
      assert.deepEqual(state(c), state(b), 'what is dropped does not depend on the value');
      const pr = a.privacy();
      assert.equal(pr.unit, 'user');
      assert.deepEqual(pr.dropped, { perRelease: 1, perEpoch: 0, total: 1 });
      assert.equal(pr.offered, 2);
    });
  });
}

describe('user-level releases and epochs (adaprivate-ts, batch 4)', () => {
  test('m = 2: the third release a unit takes part in is dropped (perEpoch); observeMany applies the same rule', () => {
    const p = userPolicy('adaprivate-ts');
    const others = ['a', 'b', 'c'];
    for (let r = 0; r < 3; r++) {
      const units = ['u', ...others.map((o) => `${o}${r}`)];
      p.observeMany(new Float64Array([...x(0), ...x(1), ...x(2), ...x(0)]), [1, 1, 1, 1], units);
    }
    const pr = p.privacy();
    assert.equal(pr.releases, 2, 'releases 1 and 2 were full; the third holds 3 rewards');
    assert.deepEqual(pr.dropped, { perRelease: 0, perEpoch: 1, total: 1 });
    assert.equal(p.roundsLearned, 11);
  });

  test('a policy that released a partial batch at an epoch boundary saves and loads (its rounds are not whole batches)', () => {
    for (const id of ['adaprivate-ts', 'adaprivate-ts-amp'] as const) {
      const p = userPolicy(id, { epochRounds: 6, releasesPerEpoch: 1 });
      for (const u of ['a', 'b', 'c', 'd', 'a', 'e', 'f', 'g']) p.observe(x(0), 1, u);
      assert.equal(p.privacy().releases, 2, `${id}: e's partial batch released at the boundary`);
      const q = loadPolicy(p.save());
      assert.equal(q.roundsLearned, p.roundsLearned);
      assert.deepEqual(q.privacy().epoch, p.privacy().epoch);
      q.observe(x(1), 1, 'h');
      assert.equal(q.roundsLearned, p.roundsLearned + 1);
    }
  });

  test('epochRounds: the open batch is released at the boundary, counts restart, per-epoch and cumulative guarantees are reported', () => {
    const p = userPolicy('adaprivate-ts', { epochRounds: 6, releasesPerEpoch: 1 });
    // epoch 0: offered rewards 0..5
    for (const u of ['a', 'b', 'c', 'd', 'a', 'e']) p.observe(x(0), 1, u);
    // batch 1 = a b c d (released), 'a' again: joins a second release, m = 1: dropped; 'e' kept (open batch)
    assert.equal(p.privacy().releases, 1);
    assert.deepEqual(p.privacy().dropped, { perRelease: 0, perEpoch: 1, total: 1 });
    // epoch 1: the first reward releases e's partial batch first, then 'a' counts from zero again
    p.observe(x(0), 1, 'a');
    const pr = p.privacy();
    assert.equal(pr.releases, 2, 'the partial batch of epoch 0 was released at the boundary');
    assert.equal(pr.epoch?.current, 1);
    assert.equal(pr.dropped?.total, 1);
    p.finish();
    const done = p.privacy();
    assert.equal(done.releases, 3);
    assert.equal(done.epoch?.withReleases, 2);
    // epoch 0 made 2 releases but a unit takes part in at most m = 1: 1 composition; epoch 1: 1
    assert.equal(done.perEpoch?.compositions, 1);
    assert.equal(done.cumulative?.compositions, 2);
    assert.ok(done.perEpoch!.epsilon <= 1 + 1e-9, `per epoch ${done.perEpoch!.epsilon} <= target 1`);
    assert.ok(
      done.cumulative!.epsilon > done.perEpoch!.epsilon,
      'the cumulative guarantee composes the epochs',
    );
    assert.equal(done.epsilon, done.cumulative!.epsilon, 'the top-level epsilon is the cumulative one');
    assert.match(
      done.statement!,
      /user-level \(eps [0-9.]+, delta 1e-5\) per 6-reward epoch, for users contributing at most 1 reward per release and 1 release per epoch; cumulative over the 2 epochs with releases so far: \(eps [0-9.]+, delta 1e-5\); 1 of 7 rewards dropped by the bounds \(0 per release, 1 per epoch\)\. Protects all rewards of one unit; features, chosen arms and stored decisions are not protected\./,
    );
  });

  test('counts in the statement agree in number: one reward offered is "0 of 1 reward dropped"', () => {
    const p = userPolicy('adaprivate-ts');
    p.observe(x(0), 1, 'a');
    assert.match(
      p.privacy().statement!,
      /; 0 of 1 reward dropped by the bounds \(0 per release, 0 per epoch\)\./,
    );
    p.observe(x(1), 1, 'b');
    assert.match(p.privacy().statement!, /; 0 of 2 rewards dropped by the bounds/);
  });

  test('epochDays on an injected clock: a unit that used its m releases is kept again in the next 30-day epoch', () => {
    let now = Date.UTC(2026, 0, 1);
    const p = userPolicy(
      'adaprivate-ts',
      { epochDays: 30, releasesPerEpoch: 1, batchSize: 1 },
      { clock: () => now },
    );
    p.observe(x(0), 1, 'u');
    p.observe(x(0), 1, 'u'); // a second release in the same epoch: dropped
    assert.deepEqual(p.privacy().dropped, { perRelease: 0, perEpoch: 1, total: 1 });
    now += 30 * 86_400_000;
    p.observe(x(0), 1, 'u');
    assert.equal(p.privacy().releases, 2);
    assert.equal(p.privacy().dropped?.total, 1);
    assert.match(p.privacy().statement!, /per 30-day epoch/);
  });

  test('closeEpoch releases the open partial batch only once the clock is in a later epoch; the next reward then opens a new batch', () => {
    let now = Date.UTC(2026, 0, 1);
    const p = userPolicy('adaprivate-ts', { epochDays: 30 }, { clock: () => now });
    p.closeEpoch(); // nothing open
    p.observe(x(0), 1, 'a');
    p.observe(x(1), 1, 'b');
    p.closeEpoch(); // same epoch: no release
    assert.equal(p.privacy().releases, 0);
    now += 30 * 86_400_000;
    p.closeEpoch();
    assert.equal(p.privacy().releases, 1, 'the partial batch of the old epoch is released');
    assert.equal(p.privacy().epoch?.withReleases, 1);
    p.closeEpoch(); // nothing open any more
    assert.equal(p.privacy().releases, 1);
    // the next reward does not release again; four more fill one batch of the new epoch
    for (const u of ['a', 'b', 'c', 'd']) p.observe(x(2), 1, u);
    assert.equal(p.privacy().releases, 2);
    assert.equal(p.roundsLearned, 6);
    const event = userPolicy('adaprivate-ts', { privacyUnit: undefined, releasesPerEpoch: undefined });
    event.observe(x(0), 1);
    event.closeEpoch(); // event-level: a no-op
    assert.equal(event.privacy().releases, 0);
  });

  test('calibration for the person: m releases of sensitivity c meet the target (the one calibrator), reported per epoch', () => {
    for (const [c, m] of [
      [1, 10],
      [3, 4],
    ] as const) {
      const p = createPolicy('adaprivate-ts', {
        dim: d,
        horizon: 1000,
        seed: 1,
        noiseSeed: 3,
        rho: 0.5,
        batchSize: 1,
        privacyUnit: 'user',
        contributionsPerRelease: c,
        releasesPerEpoch: m,
      });
      // one unit in every release: it takes part in m releases, then is dropped
      for (let t = 0; t < m + 2; t++) p.observe(x(t), 1, 'u');
      const pr = p.privacy();
      assert.equal(pr.releases, m);
      assert.equal(pr.dropped?.perEpoch, 2);
      // zCDP: m c^2 / (2 sigma^2) = rho, i.e. the unit's loss is the budget (to the calibrator's precision)
      assert.ok(Math.abs(pr.perEpoch!.rho! - 0.5) < 1e-6, `c ${c} m ${m}: rho ${pr.perEpoch!.rho}`);
      const sigma = calibrateGaussianNoise(
        { epsilon: zcdpToEpsilon(0.5, 1e-5), delta: 1e-5 },
        { sensitivity: c, compositions: m, q: 1 },
        'zcdp',
      ).sigma;
      assert.ok(Math.abs(sigma - c * Math.sqrt(m / (2 * 0.5))) < 1e-6 * sigma, 'sigma = c sqrt(m / (2 rho))');
      // the event-level figure: one reward of sensitivity 1 in one release
      assert.ok(Math.abs(pr.eventLevel!.rho! - 1 / (2 * sigma * sigma)) < 1e-6);
    }
  });

  test('switching OFUL: sigma = c sqrt(m / (2 rho)) on every episode release', () => {
    const p = userPolicy('rarely-switching-zcdp', {
      rho: 0.5,
      epsilon: undefined,
      releasesPerEpoch: 4,
      contributionsPerRelease: 2,
      cTrigger: 2,
    });
    for (let t = 0; t < 30; t++) p.observe(x(t), 1, `u${t}`);
    p.finish();
    const pr = p.privacy();
    const k = pr.perEpoch!.compositions;
    assert.ok(k >= 1 && k <= 4);
    assert.ok(
      Math.abs(pr.perEpoch!.rho! - (0.5 * k) / 4) < 1e-6,
      `rho ${pr.perEpoch!.rho} for ${k} of 4 releases`,
    );
  });

  test("amplification samples units, not rewards: a unit's c rewards in one release are all in or all out", () => {
    // q = 0.5, c = 3, one unit per release with 3 rewards of features e1 and reward 1: the raw sum
    // of a release is 3 e1 or 0, never e1 or 2 e1 (read before the release from the snapshot)
    let seen0 = 0;
    let seen3 = 0;
    for (let seed = 0; seed < 40; seed++) {
      const p = createPolicy('adaprivate-ts-amp', {
        dim: d,
        horizon: 1000,
        seed: 1,
        noiseSeed: seed,
        epsilon: 1,
        q: 0.5,
        batchSize: 4,
        privacyUnit: 'user',
        contributionsPerRelease: 3,
        releasesPerEpoch: 5,
      });
      for (let i = 0; i < 3; i++) p.observe(x(0), 1, 'u');
      const s = decodeFloat64Array(state(p).s as string);
      assert.ok(s[0] === 0 || s[0] === 3, `raw sum ${s[0]}`);
      if (s[0] === 0) seen0++;
      else seen3++;
      const pr = p.privacy();
      assert.equal(pr.unitAccountant, 'rdp');
    }
    assert.ok(seen0 > 0 && seen3 > 0, `both outcomes occur (${seen0} out, ${seen3} in)`);
    // the calibration: m subsampled releases of sensitivity c meet epsilon 1
    const p = userPolicy('adaprivate-ts-amp', {
      q: 0.5,
      contributionsPerRelease: 3,
      releasesPerEpoch: 5,
      batchSize: 1,
    });
    for (let t = 0; t < 5; t++) p.observe(x(t), 1, 'u');
    const pr = p.privacy();
    assert.equal(pr.perEpoch!.compositions, 5);
    assert.ok(pr.perEpoch!.epsilon <= 1 + 1e-9 && pr.perEpoch!.epsilon > 0.9, `eps ${pr.perEpoch!.epsilon}`);
  });
});

describe('user-level snapshots and words', () => {
  test("a loaded snapshot keeps the counts: the unit's second reward in the open release is still dropped", () => {
    const p = userPolicy('adaprivate-ts');
    p.observe(x(0), 1, 'u1');
    const q = loadPolicy(p.save());
    q.observe(x(1), 1, 'u1');
    assert.deepEqual(q.privacy().dropped, { perRelease: 1, perEpoch: 0, total: 1 });
    q.observe(x(1), 1, 'u2');
    assert.equal(q.roundsLearned, 2);
  });

  test('rewind is refused for user-level policies (the counts would go back)', () => {
    const p = userPolicy('adaprivate-ts', { batchSize: 1 });
    p.observe(x(0), 1, 'u1');
    const old = p.snapshot();
    p.observe(x(0), 1, 'u2');
    assert.throws(
      () => p.restore(old, { rewind: true }),
      /option 'rewind' is refused for user-level policies/,
    );
  });

  test('event-level and non-private policies say what they protect', () => {
    const e = createPolicy('adaprivate-ts', { dim: d, horizon: 10, seed: 1, epsilon: 1 });
    assert.equal(e.privacy().unit, 'event');
    assert.match(
      e.privacy().statement!,
      /^event-level: protects one reward; features, chosen arms and stored decisions are not protected/,
    );
    e.observe(x(0), 1, 'ignored-but-valid');
    assert.throws(() => e.observe(x(0), 1, 7 as never), /unit must be a non-empty string/);
    const n = createPolicy('lints', { dim: d, horizon: 10, seed: 1 });
    assert.match(n.privacy().statement!, /non-private: nothing is protected/);
  });

  test('before any release the user-level guarantee is zero and the epsilon target is a bound for a full epoch', () => {
    const p = userPolicy('adaprivate-ts');
    const pr = p.privacy();
    assert.equal(pr.epsilon, 0);
    assert.equal(pr.perEpoch!.compositions, 0);
    const sigma = calibrateGaussianNoise(
      { epsilon: 1, delta: 1e-5 },
      { sensitivity: 1, compositions: 2, q: 1 },
      'zcdp',
    ).sigma;
    const full = gaussianPlanEpsilon(sigma, { sensitivity: 1, compositions: 2, q: 1 }, 1e-5, 'zcdp');
    assert.ok(full.epsilon <= 1 + 1e-9);
  });
});
