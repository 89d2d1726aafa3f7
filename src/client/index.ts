/** The typed HTTP client of the decision service (no server dependencies). */

export {
  BINARY_RANK_TYPE,
  encodeBinaryRank,
  encodeBinaryRankBatch,
  type PackedRank,
} from '../service/binaryRank.js';
/** The request and response bodies of the API (types only). */
export type * from '../service/contract.js';
export { AdaPrivateClient, type AdaPrivateClientOptions } from './AdaPrivateClient.js';
export { AdaPrivateClientError } from './AdaPrivateClientError.js';
