/**
 * The candidate arms of a rank request as one K x d row-major matrix, checked: every feature vector
 * has the model's dimension and arm ids are distinct (400 otherwise, naming the arm). A decoded
 * binary body's packed features are that matrix already (checked finite by the decoder): returned
 * as they are, not copied.
 */
import { PACKED_FEATURES, type RankInput } from './binaryRank.js';
import { ServiceError } from './ServiceError.js';

const wrongDim = (a: number, dim: number, model: string, got: number): ServiceError =>
  new ServiceError(
    400,
    'dimension_mismatch',
    `arms[${a}].features must have dim = ${dim} values (model '${model}'). Got ${got}.`,
  );

/** Throws 400 duplicate_arm_id at the first arm whose id an earlier arm has. */
function distinctIds(arms: readonly { readonly id: string }[]): void {
  const ids = new Set<string>();
  for (let a = 0; a < arms.length; a++) {
    const id = arms[a]!.id;
    if (ids.has(id)) {
      throw new ServiceError(
        400,
        'duplicate_arm_id',
        `arms[${a}].id '${id}' appears twice; arm ids must be distinct.`,
      );
    }
    ids.add(id);
  }
}

/**
 * @example
 * rankFeatures({ arms: [{ id: 'a', features: [1, 0] }] }, 2, 'm'); // returns Float64Array [1, 0]
 */
export function rankFeatures(req: RankInput, dim: number, model: string): Float64Array {
  const k = req.arms.length;
  if (PACKED_FEATURES in req) {
    // the block holds K x d' values for one d' (the decoder checked): d' = dim, or arm 0 says why not
    const packed = req[PACKED_FEATURES];
    if (packed.length !== k * dim) throw wrongDim(0, dim, model, packed.length / k);
    distinctIds(req.arms);
    return packed;
  }
  const feats = new Float64Array(k * dim);
  for (let a = 0; a < k; a++) {
    const f = req.arms[a]!.features;
    if (f.length !== dim) throw wrongDim(a, dim, model, f.length);
    for (let i = 0; i < dim; i++) feats[a * dim + i] = f[i]!;
  }
  distinctIds(req.arms);
  return feats;
}
