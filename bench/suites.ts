import { linalgSuite } from './linalgSuite.js';
import { privacySuite } from './privacy.bench.js';
import type { BenchSuite } from './registry.js';
import { rngSuite } from './rngSuite.js';

export type { BenchCase, BenchSuite } from './registry.js';

/** Every benchmark suite run by `npm run bench`. Add new suites here (one line each). */
export const suites: readonly BenchSuite[] = [rngSuite, linalgSuite, privacySuite];
