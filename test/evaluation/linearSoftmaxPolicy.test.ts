import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linearSoftmaxPolicy } from '../../src/evaluation/linearSoftmaxPolicy.js';
import { createRng } from '../../src/random/index.js';

describe('linearSoftmaxPolicy', () => {
  const x = Float64Array.of(1, 0, 0, 1, -1, 0);
  it('gives (1 - explore) softmax(x^T w / temperature) + explore / K', () => {
    const pi = linearSoftmaxPolicy({ weights: Float64Array.of(2, 0), temperature: 2, explore: 0.3 });
    const out = new Float64Array(3);
    pi.distribution(x, 3, out);
    const e = [Math.E, 1, 1 / Math.E];
    const s = e[0]! + e[1]! + e[2]!;
    e.forEach((v, a) => {
      assert.ok(Math.abs(out[a]! - ((0.7 * v) / s + 0.1)) < 1e-12, `${a}: ${out[a]}`);
    });
  });

  it('samples with its probabilities (chi-square, 2 df, false alarm 0.1%)', () => {
    const pi = linearSoftmaxPolicy({ weights: Float64Array.of(1, 0.5) });
    const rng = createRng(1, 'test');
    const out = new Float64Array(3);
    const counts = [0, 0, 0];
    const n = 20_000;
    for (let i = 0; i < n; i++) counts[pi.sample(x, 3, rng, out)]!++;
    let chi2 = 0;
    counts.forEach((c, a) => {
      chi2 += (c - n * out[a]!) ** 2 / (n * out[a]!);
    });
    assert.ok(chi2 < 13.8, `chi2 ${chi2}, counts ${counts}, p ${Array.from(out)}`);
  });

  it('refuses bad options with the rule', () => {
    assert.throws(
      () => linearSoftmaxPolicy({ weights: Float64Array.of(1), temperature: 0 }),
      /temperature must be a finite number > 0\. Got 0\./,
    );
    assert.throws(
      () => linearSoftmaxPolicy({ weights: Float64Array.of(1), explore: 2 }),
      /explore must be in \[0, 1\]\. Got 2\./,
    );
  });
});
