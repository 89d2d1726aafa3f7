/**
 * `adaprivate evaluate --private`: releases IPW and SNIPW of each evaluated setting with Gaussian
 * noise through the evaluation's ledger (docs/evaluation.md, "Private evaluation"), and prints only
 * what was released: no raw estimate, no bootstrap interval computed from the raw rewards.
 *
 * Event level (one logged reward; contexts, arms, propensities public, as for the policies). A
 * setting is a fixed `--target` distribution or a private policy (its distributions are
 * post-processing of its own releases, whose ledgers compose with the evaluation's: basic
 * composition of (epsilon, delta)); a non-private learning policy reads the raw rewards and is
 * refused. A private policy runs R times (`--runs`) and its distributions are averaged before the
 * one release, so the estimate is of the run-averaged value.
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
  readonly unit: 'event';
  readonly runs: number;
  readonly samples: number;
  readonly level: number;
  readonly noiseSeed?: number;
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
  const { mechanism, ledger } = ev.evaluationMechanism(
    { epsilon: f.privateEpsilon, delta: f.privateDelta },
    settings.length,
    f.noiseSeed,
  );
  const z = normalQuantile((1 + f.level) / 2, 0, 1);
  const total = log.armOffsets[log.rounds]!;
  let policyEpsilon = 0;
  let policyDelta = 0;
  const rows: Record<string, unknown>[] = [];
  const lines: string[] = [];
  for (const [i, s] of settings.entries()) {
    progress(`private (${i + 1}/${settings.length}) ${s.label}`);
    let target = s.target;
    if (target === null) {
      const avg = new Float64Array(total);
      for (let run = 0; run < f.runs; run++) {
        const p = s.make!(run);
        const t = ev.runPolicyOnLog(log, ev.evaluatedFromPolicy(p, { samples: f.samples }));
        p.finish();
        const spent = p.privacy();
        policyEpsilon += spent.epsilon;
        policyDelta += spent.delta;
        for (let j = 0; j < total; j++) avg[j] = avg[j]! + t[j]! / f.runs;
      }
      target = avg;
    }
    const input = ev.opeInputFromLog(log, target);
    const est = ev.privateEstimates(input, mechanism, {
      clip: f.weightClip,
      z,
      round: i,
      label: `evaluation ${s.label}`,
    });
    rows.push({ policy: s.policy, epsilon: s.epsilon, estimates: est });
    for (const e of est) {
      lines.push(
        `${s.label}: ${e.estimator.toUpperCase()} ${e.value.toFixed(4)} [${e.interval[0].toFixed(4)}, ${e.interval[1].toFixed(4)}] (privacy noise sd ${e.noiseSd.toPrecision(3)}, sampling sd ${e.samplingSd.toPrecision(3)})`,
      );
    }
  }
  const spent = ledger.spent();
  const guarantee = {
    unit: f.unit,
    epsilon: spent.epsilon + policyEpsilon,
    delta: spent.delta + policyDelta,
    composition: 'basic: the evaluation ledger plus every run of every private policy evaluated',
  };
  lines.push(
    `Guarantee (event level: one logged reward): the released estimates are (${guarantee.epsilon.toPrecision(4)}, ${guarantee.delta.toPrecision(3)})-DP: the evaluation's ledger (${spent.releases} Gaussian releases, epsilon ${spent.epsilon.toPrecision(4)} at delta ${spent.delta}, noise ${spent.noise ?? 'secure'})${policyEpsilon > 0 ? ` plus the private policies' own releases while evaluated (epsilon ${policyEpsilon.toPrecision(4)}, delta ${policyDelta.toPrecision(3)} over all runs)` : ''}, by basic composition. Weights clipped at ${f.weightClip}: estimates are biased downwards where a weight exceeds it; intervals cover the sampling and the privacy noise.`,
  );
  return {
    report: {
      unit: f.unit,
      budget: { epsilon: f.privateEpsilon, delta: f.privateDelta },
      weightClip: f.weightClip,
      ledger: spent,
      guarantee,
      results: rows,
    },
    lines,
  };
}

/** Refusals of `--private` that need no log. */
export function checkPrivateFlags(f: {
  privateEpsilon?: number;
  privateDelta?: number;
  weightClip?: number;
  unit?: string;
  out?: string;
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
  if (f.unit !== undefined && f.unit !== 'event') {
    throw new UsageError(
      `evaluate: --unit ${JSON.stringify(f.unit)} is not available: per-user bounds need the decision log's unit field, which this build does not read yet; --unit event (one logged reward) is.`,
    );
  }
  if (f.out !== undefined) {
    throw new UsageError(
      'evaluate: --out is not available with --private yet; use --json for the released estimates.',
    );
  }
}

export type { PolicyId };
