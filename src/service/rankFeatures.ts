/**
 * The candidate arms of a rank request as one K x d row-major matrix, checked: every feature vector
 * has the model's dimension and arm ids are distinct (400 otherwise, naming the arm).
 */
import type { RankRequest } from './contract.js';
import { ServiceError } from './ServiceError.js';

/**
 * @example
 * rankFeatures({ arms: [{ id: 'a', features: [1, 0] }] }, 2, 'm'); // returns Float64Array [1, 0]
 */
export function rankFeatures(req: RankRequest, dim: number, model: string): Float64Array {
  const k = req.arms.length;
  const feats = new Float64Array(k * dim);
  const ids = new Set<string>();
  for (let a = 0; a < k; a++) {
    const arm = req.arms[a]!;
    if (arm.features.length !== dim) {
      throw new ServiceError(
        400,
        'dimension_mismatch',
        `arms[${a}].features must have dim = ${dim} values (model '${model}'). Got ${arm.features.length}.`,
      );
    }
    if (ids.has(arm.id)) {
      throw new ServiceError(
        400,
        'duplicate_arm_id',
        `arms[${a}].id '${arm.id}' appears twice; arm ids must be distinct.`,
      );
    }
    ids.add(arm.id);
    for (let i = 0; i < dim; i++) feats[a * dim + i] = arm.features[i]!;
  }
  return feats;
}
