/**
 * `adaprivate evaluate --private`: releases IPW, SNIPW and DR of each evaluated setting with Gaussian
 * noise through the evaluation's ledger (docs/evaluation.md, "Private evaluation"), and prints only
 * what was released: no raw estimate, no bootstrap interval computed from the raw rewards.
 *
 * Event level (one logged reward; contexts, arms, propensities public, as for the policies), or
 * user level (`--unit user`, each unit bounded to its first k evaluable rows): for `--target` files
 * all of one unit's rows (contexts included: `privateUnitEstimates`, `privateUnitRewardModel`,
 * `privateUnitDoublyRobust`), for private policies all of one unit's rewards (contexts public, as
 * in the policies' user-level model; the policy runs with user-level privacy and the event-level
 * statistics are released at k times their sensitivity). One command evaluates one kind. A
 * setting is a fixed `--target` distribution or a private policy (its distributions are
 * post-processing of its own releases, whose ledgers compose with the evaluation's: basic
 * composition of (epsilon, delta)); a non-private learning policy reads the raw rewards and is
 * refused. A private policy runs R times (`--runs`) and its distributions are averaged before the
 * releases, so the estimate is of the run-averaged value.
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import type { DecisionLog } from '../../evaluation/index.js';
import type { Policy, PolicyId } from '../../policies/index.js';
import { UsageError } from '../UsageError.js';

/** One setting to release. */
export interface PrivateSetting {
  readonly label: string;
  readonly policy: string;
  readonly epsilon: number | null;
  /** The fixed target, or null for a private policy made by `make(run)`. */
  readonly target: Float64Array | null;
  readonly make?: (run: number) => Policy;
}

export interface PrivateEvaluationFlags {
  readonly privateEpsilon: number;
  readonly privateDelta: number;
  readonly weightClip: number;
  readonly unit: 'event' | 'user';
  /** Rows kept per unit (`--contributions`, user level). */
  readonly contributions: number;
  readonly accountant: 'exact' | 'zcdp';
  /** The released estimators, a subset of ipw, snipw, dr (ipw and snipw come from one release). */
  readonly estimators: readonly ('ipw' | 'snipw' | 'dr')[];
  readonly runs: number;
  readonly samples: number;
  readonly level: number;
  readonly noiseSeed?: number;
}

/** The guarantee in words, for the report. */
function guaranteeWords(f: PrivateEvaluationFlags, relation: 'event' | 'rows' | 'rewards'): string {
  const k = f.contributions;
  const first = `each unit contributes at most its first ${k} evaluable decision${k === 1 ? '' : 's'} to the estimates, the rest are left out`;
  if (relation === 'rows') {
    return `user level: protects all the decisions of one unit, i.e. every row of one user or device id in the log's 'unit' field, contexts and propensities included; ${first}`;
  }
  if (relation === 'rewards') {
    return `user level (rewards): protects all the rewards of one unit (user or device id in the log's 'unit' field); contexts, chosen arms, propensities and unit ids are public, as in the policies' user-level model; ${first}, and at most ${k} reward${k === 1 ? '' : 's'} to each private policy (one per release)`;
  }
  return 'event level: one logged reward; contexts, chosen arms and propensities are public';
}

/**
 * @returns the report object (printed as JSON or as lines by the caller).
 */
export async function privateEvaluation(
  log: DecisionLog,
  settings: readonly PrivateSetting[],
  f: PrivateEvaluationFlags,
  progress: (line: string) => void,
): Promise<{ readonly report: Record<string, unknown>; readonly lines: readonly string[] }> {
  const ev = await import('../../evaluation/index.js');
  const wantDr = f.estimators.includes('dr');
  const wantRatio = f.estimators.includes('ipw') || f.estimators.includes('snipw');
  const learning = settings.some((s) => s.target === null);
  if (f.unit === 'user' && learning && settings.some((s) => s.target !== null)) {
    throw new UsageError(
      "evaluate: --unit user evaluates either --target files (a unit's rows removed, contexts included) or private policies (a unit's rewards, contexts public, as in the policies' user-level model) in one command, not both: run them separately.",
    );
  }
  // user level: 'rows' (a --target: all of a unit's rows added or removed) or 'rewards' (a learning
  // private policy: all of a unit's rewards; its Gram matrix reads the contexts, so they stay public)
  const relation = f.unit === 'event' ? 'event' : learning ? 'rewards' : 'rows';
  const evaluable = ev.evaluableRounds(log);
  let kept: import('../../evaluation/index.js').KeptContributions | null = null;
  if (f.unit === 'user') {
    try {
      kept = ev.firstContributions(log, evaluable, f.contributions);
    } catch (err) {
      throw new UsageError(`evaluate: ${(err as Error).message}`);
    }
  }
  const modelRounds = kept?.rounds ?? evaluable;
  const perSetting = (wantRatio ? 1 : 0) + (wantDr ? 1 : 0);
  const releases = settings.length * perSetting + (wantDr ? 1 : 0);
  let mech: import('../../evaluation/index.js').EvaluationMechanism;
  try {
    mech = ev.evaluationMechanism({ epsilon: f.privateEpsilon, delta: f.privateDelta }, releases, {
      accountant: f.accountant,
      coordinates: relation === 'rows' ? ev.unitRewardModelCoordinates(log.dim) : log.dim + 1,
      ...(f.noiseSeed === undefined ? {} : { noiseSeed: f.noiseSeed }),
    });
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(`evaluate: ${err.message}`);
    throw err;
  }
  const { mechanism, ledger } = mech;
  const z = normalQuantile((1 + f.level) / 2, 0, 1);
  const total = log.armOffsets[log.rounds]!;
  let policyEpsilon = 0;
  let policyDelta = 0;
  let round = 0;
  const k = relation === 'event' ? 1 : f.contributions;
  const modelLabel = 'evaluation reward model';
  const rewardModel = !wantDr
    ? undefined
    : relation === 'rows'
      ? ev.privateUnitRewardModel(log, modelRounds, mechanism, {
          contributions: k,
          round: round++,
          label: modelLabel,
        })
      : ev.privateRewardModel(log, modelRounds, mechanism, {
          contributions: k,
          round: round++,
          label: modelLabel,
        });
  const rows: Record<string, unknown>[] = [];
  const lines: string[] = [];
  for (const [i, s] of settings.entries()) {
    progress(`private (${i + 1}/${settings.length}) ${s.label}`);
    let target = s.target;
    if (target === null) {
      const avg = new Float64Array(total);
      for (let run = 0; run < f.runs; run++) {
        const p = s.make!(run);
        const t = ev.runPolicyOnLog(log, ev.evaluatedFromPolicy(p, { samples: f.samples }), {
          units: relation === 'rewards',
        });
        p.finish();
        const spent = p.privacy();
        policyEpsilon += spent.epsilon;
        policyDelta += spent.delta;
        for (let j = 0; j < total; j++) avg[j] = avg[j]! + t[j]! / f.runs;
      }
      target = avg;
    }
    const est: import('../../evaluation/index.js').PrivateEstimate[] = [];
    const label = `evaluation ${s.label}`;
    if (relation === 'rows') {
      const input = ev.opeInputFromLog(log, target, rewardModel, modelRounds);
      const opts = { clip: f.weightClip, contributions: k, z, label };
      if (wantRatio) est.push(...ev.privateUnitEstimates(input, mechanism, { ...opts, round: round++ }));
      if (wantDr) est.push(ev.privateUnitDoublyRobust(input, mechanism, { ...opts, round: round++ }));
    } else {
      // event level (k = 1), or a unit's k kept rewards together (contexts and weights public)
      const input = ev.opeInputFromLog(log, target, rewardModel, modelRounds);
      const opts = { clip: f.weightClip, contributions: k, z, label };
      if (wantRatio) est.push(...ev.privateEstimates(input, mechanism, { ...opts, round: round++ }));
      if (wantDr) est.push(ev.privateDoublyRobust(input, mechanism, { ...opts, round: round++ }));
    }
    const shown = est.filter((e) => f.estimators.includes(e.estimator));
    rows.push({ policy: s.policy, epsilon: s.epsilon, estimates: shown });
    for (const e of shown) {
      lines.push(
        `${s.label}: ${e.estimator.toUpperCase()} ${e.value.toFixed(4)} [${e.interval[0].toFixed(4)}, ${e.interval[1].toFixed(4)}] (privacy noise sd ${e.noiseSd.toPrecision(3)}, sampling sd ${e.samplingSd.toPrecision(3)})${e.value < 0 || e.value > 1 ? '; outside the reward range [0, 1]: the privacy noise moved it there, the value itself is in [0, 1]' : ''}`,
      );
    }
  }
  const spent = ledger.spent();
  const words = guaranteeWords(f, relation);
  const guarantee = {
    unit: f.unit,
    ...(f.unit === 'user'
      ? { contributionsPerUnit: f.contributions, protects: relation === 'rows' ? 'rows' : 'rewards' }
      : {}),
    words,
    epsilon: spent.epsilon + policyEpsilon,
    delta: spent.delta + policyDelta,
    accountant: f.accountant,
    composition: 'basic: the evaluation ledger plus every run of every private policy evaluated',
  };
  const floorNote = relation !== 'rows' ? clipUnbiased(log, modelRounds, f.weightClip) : null;
  lines.push(
    `Guarantee (${words}): the released estimates are (${guarantee.epsilon.toPrecision(4)}, ${guarantee.delta.toPrecision(3)})-DP: the evaluation's ledger (${spent.releases} Gaussian release${spent.releases === 1 ? '' : 's'}, ${f.accountant} accountant, epsilon ${spent.epsilon.toPrecision(4)} at delta ${spent.delta}, noise ${spent.noise ?? 'secure'})${policyEpsilon > 0 ? ` plus the private policies' own releases while evaluated (epsilon ${policyEpsilon.toPrecision(4)}, delta ${policyDelta.toPrecision(3)} over all runs)` : ''}, by basic composition. Weights clipped at ${f.weightClip}: ${floorNote ?? 'estimates are biased where a weight exceeds it (IPW and SNIPW downwards, DR either way)'}; intervals cover the sampling and the privacy noise.`,
  );
  if (kept !== null) {
    lines.push(
      `Contribution bound: ${kept.rounds.length} of ${evaluable.length} evaluable decision${evaluable.length === 1 ? '' : 's'} kept from ${kept.units} unit${kept.units === 1 ? '' : 's'} (${kept.dropped} left out: past the first ${f.contributions} of their unit).`,
    );
  }
  return {
    report: {
      unit: f.unit,
      accountant: f.accountant,
      budget: { epsilon: f.privateEpsilon, delta: f.privateDelta },
      weightClip: f.weightClip,
      ...(floorNote === null ? {} : { clipBias: floorNote }),
      ...(kept === null
        ? {}
        : {
            contributions: {
              perUnit: f.contributions,
              units: kept.units,
              kept: kept.rounds.length,
              dropped: kept.dropped,
              rule: 'first k evaluable decisions of each unit, in log order',
            },
          }),
      ...(wantDr
        ? {
            rewardModel:
              relation === 'rows'
                ? 'ridge on [x scaled to norm <= 1, 1] over the kept rows, lambda 1, its Gram matrix and reward statistic released through the same ledger'
                : `ridge on [x, 1]${relation === 'rewards' ? ' over the kept rows' : ''}, lambda 1, its reward statistic released through the same ledger`,
          }
        : {}),
      ledger: spent,
      guarantee,
      results: rows,
    },
    lines,
  };
}

/**
 * Event level (propensities public): when no evaluable decision can have a weight above the clip
 * (weight <= 1 / propensity, or the logged inverse propensity, since a target puts at most 1 on an
 * arm), the clip is unbiased; an exploration floor gamma / K makes that bound K / gamma.
 */
function clipUnbiased(log: DecisionLog, rounds: Int32Array, clip: number): string | null {
  let largest = 0;
  for (const t of rounds) {
    const ip = log.inversePropensity[t]!;
    largest = Math.max(largest, Number.isNaN(ip) ? 1 / log.propensity[t]! : ip);
  }
  if (!(largest <= clip)) return null;
  const floor = log.explorationFloor === null ? '' : ' (the logged exploration floor bounds them)';
  return `no weight can exceed it (every decision's inverse propensity is <= ${largest.toPrecision(4)}${floor}): no clipping bias`;
}

/** Refusals of `--private` that need no log. */
export function checkPrivateFlags(f: {
  privateEpsilon?: number;
  privateDelta?: number;
  weightClip?: number;
  unit?: string;
  contributions?: number;
  accountant?: string;
}): void {
  if (f.privateEpsilon === undefined || !(f.privateEpsilon > 0)) {
    throw new UsageError(
      `evaluate: --private needs the evaluation's own budget --private-epsilon E > 0 (or --epsilon E with only --target or non-private settings). Got ${String(f.privateEpsilon)}.`,
    );
  }
  if (f.privateDelta !== undefined && !(f.privateDelta > 0 && f.privateDelta < 1)) {
    throw new UsageError(`evaluate: --private-delta must be in (0, 1). Got ${f.privateDelta}.`);
  }
  if (f.weightClip !== undefined && !(f.weightClip > 0 && f.weightClip < Number.POSITIVE_INFINITY)) {
    throw new UsageError(`evaluate: --weight-clip must be a positive number. Got ${f.weightClip}.`);
  }
  if (f.unit !== undefined && f.unit !== 'event' && f.unit !== 'user') {
    throw new UsageError(
      `evaluate: --unit must be 'event' (one logged reward) or 'user' (all decisions of one unit id). Got ${JSON.stringify(f.unit)}.`,
    );
  }
  if (f.contributions !== undefined && f.unit !== 'user') {
    throw new UsageError('evaluate: --contributions applies to --unit user only.');
  }
  if (f.accountant !== undefined && f.accountant !== 'exact' && f.accountant !== 'zcdp') {
    throw new UsageError(
      `evaluate: --accountant must be 'exact' (the default) or 'zcdp'. Got ${JSON.stringify(f.accountant)}.`,
    );
  }
}

export type { PolicyId };
