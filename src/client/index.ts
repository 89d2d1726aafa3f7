/** The typed HTTP client of the decision service (no server dependencies). */
export { AdaPrivateClient, type AdaPrivateClientOptions } from './AdaPrivateClient.js';
export { AdaPrivateClientError } from './AdaPrivateClientError.js';
