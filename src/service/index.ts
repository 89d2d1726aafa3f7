/** The decision service (HTTP, Fastify) on top of the policies and the store. */

export { ApiKeys, MIN_API_KEY_LENGTH } from './ApiKeys.js';
/** The request and response bodies of the API (types only). */
export type * from './contract.js';
export { DEFAULT_LIMITS, type ServiceLimits } from './contract.js';
export { type AdaPrivateServer, createServer, ModelLoadError, type ServerOptions } from './createServer.js';
export { MODEL_DEFAULTS } from './ModelRegistry.js';
export { ServiceError } from './ServiceError.js';
