import type { Rng } from '../random/Rng.js';

/**
 * Orthonormalises the l columns of the column-major block q (n x l, column c at [c*n, (c+1)*n))
 * in place by modified Gram-Schmidt with one re-orthogonalisation pass ("twice is enough",
 * Giraud et al. 2005), and writes the upper-triangular R (l x l, row-major) with q_in = q_out R
 * into `r` when given. A column that is (numerically) in the span of the previous ones gets
 * R[j][j] = 0 and is replaced by a random unit vector orthogonal to them (drawn from `rng`), so
 * the output is always orthonormal.
 *
 * Cost: O(n l^2). Allocation-free; never throws.
 */
export function orthonormalizeColumns(
  q: Float64Array,
  n: number,
  l: number,
  rng: Rng,
  r?: Float64Array,
): void {
  if (r !== undefined) r.fill(0, 0, l * l);
  for (let j = 0; j < l; j++) {
    const oj = j * n;
    let norm0 = 0;
    for (let t = 0; t < n; t++) norm0 += q[oj + t]! * q[oj + t]!;
    norm0 = Math.sqrt(norm0);
    let attempts = 0;
    for (;;) {
      for (let pass = 0; pass < 2; pass++) {
        for (let i = 0; i < j; i++) {
          const oi = i * n;
          let dot = 0;
          for (let t = 0; t < n; t++) dot += q[oi + t]! * q[oj + t]!;
          for (let t = 0; t < n; t++) q[oj + t]! -= dot * q[oi + t]!;
          if (r !== undefined && attempts === 0) r[i * l + j]! += dot;
        }
      }
      let norm = 0;
      for (let t = 0; t < n; t++) norm += q[oj + t]! * q[oj + t]!;
      norm = Math.sqrt(norm);
      if (norm > 1e-10 * norm0 && norm > 0 && norm0 > 0) {
        const inv = 1 / norm;
        for (let t = 0; t < n; t++) q[oj + t]! *= inv;
        if (r !== undefined && attempts === 0) r[j * l + j] = norm;
        break;
      }
      // deficient column: replace by a random direction (R keeps a zero diagonal)
      attempts++;
      if (attempts > 20) {
        // n < j + 1 cannot happen for callers (l <= n); keep the zero column as a last resort
        for (let t = 0; t < n; t++) q[oj + t] = 0;
        break;
      }
      rng.fillNormal(q, oj, oj + n);
      norm0 = 0;
      for (let t = 0; t < n; t++) norm0 += q[oj + t]! * q[oj + t]!;
      norm0 = Math.sqrt(norm0);
    }
  }
}
