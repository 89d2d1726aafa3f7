/**
 * Runs a mechanism on both inputs of a neighbouring pair `samples` times each and lets a
 * property tester bound epsilon from below (the three roles of AuditRoles.ts).
 *
 * Cost: 2 x samples runs of the mechanism, then O(samples log samples + samples x dim) for a tester.
 */
import type { AuditClaim, AuditMechanism, NeighbourPair } from './AuditRoles.js';
import { gdpTester } from './gdpTester.js';
import type { PropertyTester, TesterResult } from './PropertyTester.js';
import { thresholdTester } from './thresholdTester.js';

/** Options of {@link auditMechanism}. */
export interface AuditRunOptions {
  /** Runs per input, at least 100 (part selects the test, the rest bounds it: gdp 10% / 90%, threshold half / half). */
  readonly samples: number;
  /** Probability that the reported lower bound holds; default 0.95. */
  readonly confidence?: number;
  /**
   * 'gdp', 'threshold', or 'auto' (default): 'gdp' when the claim is a Gaussian mechanism's
   * (rho not null), else 'threshold'. Both bounds are always computed and returned.
   */
  readonly method?: 'auto' | 'gdp' | 'threshold';
  /** Index of the first run (runs use indices first .. first + 2 samples - 1); default 0. */
  readonly firstIndex?: number;
  /** Called every `progressEvery` runs with (runs done, runs total). */
  readonly onProgress?: (done: number, total: number) => void;
  readonly progressEvery?: number;
}

/** What an audit found. */
export interface AuditReport {
  readonly mechanism: string;
  readonly pair: string;
  /** The guarantee the mechanism claims for one run (its ledger). */
  readonly claim: AuditClaim;
  /** The lower bound on epsilon at claim.delta of the chosen method. */
  readonly lowerBound: number;
  readonly method: 'gdp' | 'threshold';
  /** lowerBound / claim.epsilon. Above 1: the claim is refuted at the stated confidence. */
  readonly ratio: number;
  readonly refuted: boolean;
  readonly samples: number;
  readonly confidence: number;
  readonly gdp: TesterResult;
  readonly threshold: TesterResult;
}

/**
 * Audits `mechanism` on `pair`.
 *
 * @example
 * const r = auditMechanism(policyReleaseMechanism('adaprivate-ts', { policyOptions: { epsilon: 1 } }),
 *   rewardNeighbours(4, 0, 0.5), { samples: 50000 });
 * r.lowerBound; // returns ~0.9 (claim 1: not refuted)
 */
export function auditMechanism<D>(
  mechanism: AuditMechanism<D>,
  pair: NeighbourPair<D>,
  options: AuditRunOptions,
): AuditReport {
  const n = options.samples;
  if (!Number.isSafeInteger(n) || n < 100) {
    throw new RangeError(`audit: samples must be an integer >= 100. Got ${n}.`);
  }
  const confidence = options.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`audit: confidence must be in (0, 1). Got ${confidence}.`);
  }
  const method = options.method ?? 'auto';
  if (method !== 'auto' && method !== 'gdp' && method !== 'threshold') {
    throw new RangeError(`audit: method must be 'auto', 'gdp' or 'threshold'. Got ${String(method)}.`);
  }
  const first = options.firstIndex ?? 0;
  const every = options.progressEvery ?? Math.max(1, Math.floor(n / 10));
  const a: Float64Array[] = [];
  const b: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    a.push(mechanism.run(pair.a, first + 2 * i));
    b.push(mechanism.run(pair.b, first + 2 * i + 1));
    if (options.onProgress !== undefined && ((i + 1) % every === 0 || i + 1 === n)) {
      options.onProgress(2 * (i + 1), 2 * n);
    }
  }
  const claim = mechanism.claim();
  const testers: Record<'gdp' | 'threshold', PropertyTester> = { gdp: gdpTester, threshold: thresholdTester };
  const gdp = testers.gdp.lowerBound(a, b, claim.delta, confidence);
  const threshold = testers.threshold.lowerBound(a, b, claim.delta, confidence);
  const chosen = method === 'auto' ? (claim.rho !== null ? 'gdp' : 'threshold') : method;
  const lowerBound = chosen === 'gdp' ? gdp.epsilon : threshold.epsilon;
  return {
    mechanism: mechanism.name,
    pair: pair.description,
    claim,
    lowerBound,
    method: chosen,
    ratio: lowerBound / claim.epsilon,
    refuted: lowerBound > claim.epsilon,
    samples: n,
    confidence,
    gdp,
    threshold,
  };
}
