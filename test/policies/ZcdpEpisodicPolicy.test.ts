import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPolicy, decodeFloat64Array, loadPolicy } from '../../src/policies/index.js';
import type { LedgerEntry } from '../../src/privacy/index.js';
import { makeStream, play } from './helpers.js';

const stream = makeStream(29, 300, 5, 4);

test('zCDP-Episodic with cTrigger = 1 certifies its bound at most once every d rounds, not every round', () => {
  const d = 4;
  const T = 240;
  const p = createPolicy('zcdp-episodic', {
    dim: d,
    horizon: T,
    seed: 1,
    noiseSeed: 1,
    epsilon: 1,
    cTrigger: 1,
  });
  play(p, stream, 0, T);
  const s = p.privacy();
  assert.equal(s.releases, T); // every round starts an episode: M_max = T releases of rho / T
  assert.ok(s.epsilon <= 1 + 1e-12);
  // equal consecutive releases merge into one ledger entry: one entry per certified bound
  const ledger = (p.snapshot().state as { base: { ledger: { head: LedgerEntry[]; tail: LedgerEntry[] } } })
    .base.ledger;
  const entries = ledger.head.length + ledger.tail.length;
  assert.ok(entries <= T / d + 1, `${entries} distinct bounds in ${T} rounds`);
  assert.ok(entries >= 10, `${entries}: the bound is refreshed as V grows`);
});

test('zCDP-Episodic stops releasing at M_max: exactly M_max releases, rho within the budget, the estimate kept', () => {
  // d = 1, lambda = 1, cTrigger = 1.1. A public feature sequence that starts more episodes than
  // M_max: one round whose feature raises V by a factor 1.1 (a det-triggered episode of length 1,
  // which resets the length cap to 2), then 14 rounds of x = 0 (length-triggered episodes of 2, 4
  // and 8 rounds); repeated while such a feature has norm <= 1 (V <= 10), zeros after that.
  const c = 1.1;
  const T = 400;
  const epsilon = 1;
  const p = createPolicy('zcdp-episodic', {
    dim: 1,
    horizon: T,
    seed: 3,
    noiseSeed: 4,
    epsilon,
    cTrigger: c,
  });
  const zp = p as unknown as { readonly maxEpisodes: number; readonly rhoEpisode: number };
  const x = new Float64Array(1);
  // the episode rule replayed on the public features: how many episodes the run starts
  let v = 1;
  let vLast = 1;
  let inEpisode = 0;
  let cap = 1;
  let episodes = 0;
  const thetas: number[] = [];
  const step = (feature: number) => {
    x[0] = feature;
    p.select(x, 1);
    p.update(0.75);
    v += feature * feature;
    inEpisode++;
    if (inEpisode >= cap || Math.log(v) >= Math.log(vLast) + Math.log(c)) {
      episodes++;
      cap = 2 * inEpisode;
      inEpisode = 0;
      vLast = v;
    }
    thetas.push(decodeFloat64Array((p.snapshot().state as { own: { theta: string } }).own.theta)[0]!);
  };
  let t = 0;
  while (t < T) {
    const a2 = 1.01 * (c - 1) * v;
    if (a2 > 1 || t + 15 > T) {
      step(0);
      t++;
      continue;
    }
    step(Math.sqrt(a2));
    for (let i = 0; i < 14; i++) step(0);
    t += 15;
  }
  p.finish();
  assert.ok(
    episodes > zp.maxEpisodes + 10,
    `the features start ${episodes} episodes, M_max = ${zp.maxEpisodes}: the cap must bind`,
  );
  const s = p.privacy();
  assert.equal(s.releases, zp.maxEpisodes, `releases ${s.releases}, M_max ${zp.maxEpisodes}`);
  const rho = zp.rhoEpisode * zp.maxEpisodes;
  assert.ok(s.rho !== null && s.rho <= rho * (1 + 1e-12), `rho ${s.rho} > budget ${rho}`);
  assert.ok(s.epsilon <= epsilon + 1e-12, `epsilon ${s.epsilon} > ${epsilon}`);
  // after the cap the released estimate is kept: theta is constant from some round on, for the
  // episodes that were not released
  let lastChange = 0;
  for (let i = 1; i < thetas.length; i++) if (thetas[i] !== thetas[i - 1]) lastChange = i;
  assert.ok(lastChange < T - 100, `theta still changes at round ${lastChange + 1} of ${T}`);
  // the restored run keeps the count (a snapshot with more releases than M_max would be refused)
  assert.equal(loadPolicy(p.save()).privacy().releases, zp.maxEpisodes);
});
