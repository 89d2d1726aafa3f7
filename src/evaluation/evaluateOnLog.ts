/**
 * Off-policy evaluation of one policy on one log: runs the policy over the logged contexts
 * (`runPolicyOnLog`, and `replayTarget` for replay), applies the chosen estimators with a shared
 * bootstrap, and compares each with the logging policy's own average. Warnings say when an estimate
 * should not be trusted (tiny or missing propensities, low effective sample size, replay on
 * non-uniform logs, target mass on arms the logging policy never plays).
 */
import type { DecisionLog } from './DecisionLog.js';
import { directMethod } from './directMethod.js';
import { doublyRobust } from './doublyRobust.js';
import type { BootstrapOptions, Estimate, EstimatorId } from './Estimate.js';
import { ESTIMATOR_IDS, ESTIMATOR_NAMES } from './Estimate.js';
import type { EvaluatedPolicy } from './EvaluatedPolicy.js';
import { ipw } from './ipw.js';
import { loggedValue } from './loggedValue.js';
import { DEFAULT_TINY_PROPENSITY, isUniformLogging, logWarnings } from './logWarnings.js';
import type { OpeInput } from './OpeInput.js';
import { hasPropensity, opeInputFromLog } from './opeInputFromLog.js';
import { pairedRatio } from './pairedRatio.js';
import { replay } from './replay.js';
import { replayTarget, type SelectingPolicy } from './replayTarget.js';
import { type LearningMode, runPolicyOnLog } from './runPolicyOnLog.js';
import { snipw } from './snipw.js';
import { zeroRewardInterval } from './zeroRewardInterval.js';

/** Where the evaluated policy comes from: fresh instances, one per use, or a fixed distribution. */
export interface PolicySource {
  /** A fresh policy for IPW, SNIPW, DM and DR (distribution + learning); unused when `target` is given. */
  evaluated(): EvaluatedPolicy;
  /**
   * A fixed distribution pi(a | x_t) for every arm of the log (e.g. `loadTarget`: a policy from
   * another system): used as is, never run (replay then weighs by pi(a_t | x_t)).
   */
  readonly target?: Float64Array;
  /** A fresh policy for replay (select/update/discard); when absent, replay uses the distribution. */
  replaying?(): SelectingPolicy;
}

export interface EvaluateOnLogOptions extends BootstrapOptions {
  /** Default: all of {@link ESTIMATOR_IDS}. */
  readonly estimators?: readonly EstimatorId[];
  /** Default `'logged'` (see `runPolicyOnLog`). */
  readonly learning?: LearningMode;
  /** q(x_t, a) for every logged arm (e.g. `crossFitRewardModel(log)`); required for 'dm' and 'dr'. */
  readonly rewardModel?: Float64Array;
  /** Default 0.01. */
  readonly tinyPropensity?: number;
  /** Warn when an importance-weighted estimate's effective sample size is below this share of n; default 0.1. */
  readonly lowEssShare?: number;
  /** Prefix of the warnings that concern the evaluated policy (not the log), e.g. 'LinTS'; default none. */
  readonly policyLabel?: string;
}

/** An estimate relative to the logging policy's value (paired bootstrap interval of the ratio). */
export interface RelativeEstimate {
  readonly estimator: EstimatorId;
  readonly ratio: number;
  readonly interval: readonly [number, number];
}

export interface OffPolicyEvaluation {
  readonly estimates: readonly Estimate[];
  /** The logging policy's average logged reward. */
  readonly logging: Estimate;
  readonly relative: readonly RelativeEstimate[];
  readonly warnings: readonly string[];
  /** Decisions in the log / used by the estimators. */
  readonly rounds: number;
  readonly evaluableRounds: number;
  /**
   * The evaluated distributions pi_t(a | x_t) the weighted estimators used, for every arm of the log
   * (aligned with `log.features`; zeros on rounds without a reward), e.g. for position-wise IPW
   * (`slotIpw`); null when only replay was asked.
   */
  readonly target: Float64Array | null;
}

function relativeTo(e: Estimate, base: Estimate, level: number): RelativeEstimate {
  const { ratio, interval } = pairedRatio(e, base, level);
  return { estimator: e.estimator as EstimatorId, ratio, interval };
}

/**
 * @example
 * const result = evaluateOnLog(log, { evaluated: () => linearSoftmaxPolicy({ weights }) },
 *   { learning: 'frozen', estimators: ['ipw', 'snipw', 'dr'], rewardModel: crossFitRewardModel(log), seed: 1 });
 * result.estimates[0].value; // returns the IPW estimate, e.g. ~0.64
 */
export function evaluateOnLog(
  log: DecisionLog,
  source: PolicySource,
  options: EvaluateOnLogOptions = {},
): OffPolicyEvaluation {
  const estimators = options.estimators ?? ESTIMATOR_IDS;
  for (const e of estimators) {
    if (!ESTIMATOR_IDS.includes(e)) {
      throw new RangeError(
        `evaluateOnLog: unknown estimator ${JSON.stringify(e)}. Known: ${ESTIMATOR_IDS.join(', ')}.`,
      );
    }
  }
  const needsModel = estimators.includes('dm') || estimators.includes('dr');
  if (needsModel && options.rewardModel === undefined) {
    throw new RangeError(
      'evaluateOnLog: the direct method and doubly robust need rewardModel (e.g. crossFitRewardModel(log)).',
    );
  }
  const boot: BootstrapOptions = {
    ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.level === undefined ? {} : { level: options.level }),
  };
  const level = options.level ?? 0.95;
  const warnings = logWarnings(log, options.tinyPropensity ?? DEFAULT_TINY_PROPENSITY);
  const needsDistribution = estimators.some((e) => e !== 'replay') || source.replaying === undefined;
  let input: OpeInput | null = null;
  let target: Float64Array | null = null;
  if (needsDistribution) {
    target =
      source.target ?? runPolicyOnLog(log, source.evaluated(), { learning: options.learning ?? 'logged' });
    input = opeInputFromLog(log, target, options.rewardModel);
  }
  let replayInput: OpeInput | null = input;
  if (estimators.includes('replay') && source.replaying !== undefined) {
    replayInput = opeInputFromLog(log, replayTarget(log, source.replaying()));
  }
  const base = input ?? replayInput!;
  if (base.rewards.length === 0) {
    throw new RangeError(`evaluateOnLog: ${log.source} has no decision with both a reward and a propensity.`);
  }
  const logging = zeroRewardInterval(loggedValue(base, boot));
  const estimates: Estimate[] = [];
  for (const id of ESTIMATOR_IDS) {
    if (!estimators.includes(id)) continue;
    if (id === 'replay') estimates.push(replay(replayInput!, boot));
    else if (id === 'ipw') estimates.push(ipw(input!, boot));
    else if (id === 'snipw') estimates.push(snipw(input!, boot));
    else if (id === 'dm') estimates.push(directMethod(input!, boot));
    else estimates.push(doublyRobust(input!, boot));
  }
  for (let i = 0; i < estimates.length; i++) estimates[i] = zeroRewardInterval(estimates[i]!);
  const n = base.rewards.length;
  const lowShare = options.lowEssShare ?? 0.1;
  const who = options.policyLabel === undefined ? '' : `${options.policyLabel}: `;
  const logWarningCount = warnings.length;
  for (const e of estimates) {
    if (
      (e.estimator === 'ipw' || e.estimator === 'snipw' || e.estimator === 'dr') &&
      e.effectiveSampleSize < lowShare * n
    ) {
      warnings.push(
        `${ESTIMATOR_NAMES[e.estimator]}: effective sample size ${e.effectiveSampleSize.toFixed(1)} is below ${100 * lowShare}% of the ${n} rounds: the evaluated policy rarely agrees with the logging policy, so this estimate rests on few rounds.`,
      );
    }
  }
  if (estimators.includes('replay') && !isUniformLogging(log)) {
    warnings.push(
      'Replay: the logging policy is not uniformly random (some propensity differs from 1/K), so replay is biased here; use IPW, SNIPW or DR.',
    );
  }
  if (input !== null && log.loggingProbabilities !== null) {
    const unsupported = unsupportedMass(log, input);
    if (unsupported > 0) {
      warnings.push(
        `The evaluated policy puts probability on arms the logging policy never plays (mass ${unsupported.toPrecision(3)} per round on average): no estimator sees those arms' rewards except through the reward model.`,
      );
    }
  }
  for (let i = logWarningCount; i < warnings.length; i++) warnings[i] = who + warnings[i]!;
  for (const e of estimates) {
    if (e.note !== undefined)
      warnings.push(
        `${who}${ESTIMATOR_NAMES[e.estimator]}: ${e.note} (one-sided ${100 * level}% interval [0, ${e.interval[1].toPrecision(3)}]).`,
      );
    else if (e.value < 0 || e.value > 1) {
      warnings.push(
        `${who}${ESTIMATOR_NAMES[e.estimator]}: the estimate ${e.value.toPrecision(4)} is outside [0, 1], the range of a reward: ${e.estimator === 'dm' ? 'the reward model extrapolates' : 'importance weighting is unbiased but not bounded, so a large weight on a few rounds can push it out'}; SNIPW stays in [0, 1].`,
      );
    }
  }
  return Object.freeze({
    estimates,
    logging,
    relative: estimates.map((e) => relativeTo(e, logging, level)),
    warnings,
    rounds: log.rounds,
    evaluableRounds: n,
    target,
  });
}

/** Average target mass on arms with logging probability 0 (only where the log has every arm's probability). */
function unsupportedMass(log: DecisionLog, input: OpeInput): number {
  const probs = log.loggingProbabilities!;
  let mass = 0;
  let i = 0;
  for (let t = 0; t < log.rounds; t++) {
    if (Number.isNaN(log.reward[t]!) || !hasPropensity(log, t)) continue;
    const from = log.armOffsets[t]!;
    const off = input.offsets[i]!;
    for (let a = 0; a < log.armOffsets[t + 1]! - from; a++) {
      if (probs[from + a] === 0) mass += input.target[off + a]!;
    }
    i++;
  }
  return mass / Math.max(1, i);
}
