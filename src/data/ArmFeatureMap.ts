import type { PreparedFeatures } from './PreparedFeatures.js';
import { unitFeature } from './unitFeature.js';

/**
 * How an arm feature is built from the prepared factors (docs/data.md, "Arm features"):
 * - `biased` (default): x = [s ⊙ u ⊙ v / c, b_i / c_b, 1] / sqrt(3), d = rank + 2, with s the
 *   singular values of the residuals after the baseline model, u and v the user and item factors,
 *   b_i the shrunk item bias, and global constants c = max ||s ⊙ u ⊙ v|| and c_b = max |b_i| over the
 *   prepared pairs, so ||x|| <= 1 without per-vector normalisation (the item-quality and constant
 *   directions are kept);
 * - `unit-product` (the earlier construction, kept for the ablation): x = normalise(u ⊙ v), d = rank,
 *   on the SVD of the raw ratings.
 */
export type FeatureConstruction = 'biased' | 'unit-product';

const INV_SQRT3 = 1 / Math.sqrt(3);

/** The constants of a construction, recorded in the features header. */
export interface FeatureConstructionInfo {
  readonly kind: FeatureConstruction;
  /** c (biased: max ||s ⊙ u ⊙ v||; unit-product: 1). */
  readonly productScale: number;
  /** c_b (biased: max |b_i|; unit-product: 1). */
  readonly biasScale: number;
}

/** The feature dimension of a construction at SVD rank `rank`. */
export function featureDim(kind: FeatureConstruction, rank: number): number {
  return kind === 'biased' ? rank + 2 : rank;
}

/**
 * Writes arm features of (user, item) pairs from prepared factors. In the `biased` construction the
 * stored user factors already carry the singular values (row u = s ⊙ u_u).
 *
 * Cost per feature: O(d). Allocation-free after construction; never throws.
 * @example
 * const map = new ArmFeatureMap(prepared);
 * map.write(user, item, out, 0); // returns true; out[0 .. map.dim) holds x with ||x|| <= 1
 */
export class ArmFeatureMap {
  readonly kind: FeatureConstruction;
  readonly rank: number;
  readonly dim: number;
  private readonly invC: number;
  private readonly invCb: number;

  constructor(private readonly f: PreparedFeatures) {
    const c = f.header.construction;
    this.kind = c.kind;
    this.rank = f.rank;
    this.dim = featureDim(c.kind, f.rank);
    this.invC = c.productScale > 0 ? 1 / c.productScale : 0;
    this.invCb = c.biasScale > 0 ? 1 / c.biasScale : 0;
  }

  /** Writes x(user, item) into out[offset .. offset + dim); false when it has no feature (out zeroed). */
  write(user: number, item: number, out: Float64Array, offset: number): boolean {
    const r = this.rank;
    const f = this.f;
    if (this.kind === 'unit-product') {
      return unitFeature(f.userFactors, user * r, f.itemFactors, item * r, r, out, offset) > 0;
    }
    const scale = this.invC * INV_SQRT3;
    const uo = user * r;
    const io = item * r;
    for (let a = 0; a < r; a++) out[offset + a] = f.userFactors[uo + a]! * f.itemFactors[io + a]! * scale;
    out[offset + r] = f.itemBias[item]! * this.invCb * INV_SQRT3;
    out[offset + r + 1] = INV_SQRT3;
    return true;
  }
}
