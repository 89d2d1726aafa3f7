/**
 * The one evaluator of the paper's claims: a {@link ClaimSpec} (data) and a run's
 * {@link Measurements} give the claim's parts (paper's figure and ours side by side, the
 * detectable effect, a verdict by the part's scoring rule), its verdict, the counts per verdict and
 * the rule text. Synthetic, power and real-data claims all go through it.
 */
import { formatNumber } from '../../report/format.js';
import {
  atLeastVerdict,
  atMostVerdict,
  type ClaimPart,
  choiceVerdict,
  combineVerdicts,
  countVerdicts,
  type Estimate,
  levelVerdict,
  matchVerdict,
  minimumDetectableEffect,
  positiveVerdict,
  RANGE_TOLERANCE,
  rangeVerdict,
  significanceVerdict,
  signVerdict,
  type Verdict,
  type VerdictCounts,
} from '../verdict.js';
import type { ClaimSpec, Measured, Measurements, PaperFigure, PartSpec, RulePiece } from './ClaimSpec.js';

/** An evaluated claim. */
export interface Claim {
  readonly id: string;
  readonly title: string;
  /** The claim in plain words, for a reader who has not read the paper. */
  readonly plain?: string;
  /** The paper's statement (SPEC section 6). */
  readonly paper: string;
  readonly parts: readonly ClaimPart[];
  readonly verdict: Verdict;
  /** Number of parts in each verdict class. */
  readonly counts: VerdictCounts;
  /** How the verdict was computed. */
  readonly rule: string;
  /** Names of the charts that illustrate it. */
  readonly charts: readonly string[];
  readonly note?: string;
  /** Index in `parts` of the part shown in summaries (our number beside the paper's); -1: none. */
  readonly headline: number;
  /** Short name of the claim in the bottom line; absent: not in it. */
  readonly short?: string;
}

/** The standard rule texts, printed under every claim that uses them. */
const ONE_RULE = `our 95% CI, widened by ${RANGE_TOLERANCE} percentage points on each side (a margin for the paper's rounding and for the differences between its setting and ours), meets the paper's value or range and, where the paper's figure differs from no effect, does not contain no effect; inconclusive when our 95% CI itself (not widened) contains both no effect and the paper's value (or part of its range): the run cannot tell the paper's figure from no effect; opposite when the CI excludes no effect on the other side; otherwise not reproduced (our CI excludes the paper's figure: far from it, whatever its side, or a precise no effect). A run whose interval spans both the paper's figure and no effect is never reproduced, whatever its mean.`;
const COMBINE = `A claim takes its parts' verdict when they all agree; it is mixed when some parts are reproduced and others not, and not reproduced when none is (the counts of parts per verdict are listed).`;

/** The standard rule texts, printed under every claim that uses them: one rule, "no effect" read per kind. */
export const RULE_TEXT = {
  effect: `A part is reproduced when ${ONE_RULE.replaceAll('no effect', '0')} ${COMBINE} "Detectable" is the smallest true effect these seeds detect with 80% power (two-sided t-test, 5% level).`,
  level: `Levels follow the same rule as effects, with "no effect" read as the CTR the run reaches without learning from the protected rewards (the greedy choice of the public warm-start prior, or a uniformly random choice on a cold start; the reference table): a part is reproduced when ${ONE_RULE} ${COMBINE}`,
} as const;

/** The detectable-effect text of a comparison (percent of the reference), or null. */
export function detectableText(e: Estimate): string | null {
  const m = minimumDetectableEffect(e);
  return Number.isFinite(m) ? `${formatNumber(m, 2)}%` : null;
}

function interval(p: PaperFigure): readonly [number, number] {
  if (p.kind === 'value') return [p.value, p.value];
  if (p.kind === 'range') return [p.lo, p.hi];
  if (p.kind === 'significance') return p.effect;
  throw new Error(`evaluateClaim: a paper figure of kind '${p.kind}' has no value or range.`);
}

function bound(p: PaperFigure): number {
  if (p.kind === 'at-least' || p.kind === 'at-most') return p.bound;
  if (p.kind === 'value') return p.value;
  throw new Error(`evaluateClaim: a paper figure of kind '${p.kind}' has no bound.`);
}

function wrongKind(spec: PartSpec<unknown>, m: Measured): never {
  throw new Error(
    `evaluateClaim: part '${spec.label}' is scored by '${spec.score}' but its reading gives a '${m.kind}'.`,
  );
}

/**
 * The verdict of one part: its scoring rule applied to the paper's figure and our measurement.
 *
 * @example
 * scorePart({ label: 'x', paper: { kind: 'value', value: 1.5, text: '+1.5%' }, reads: null, score: 'effect' },
 *   { kind: 'estimate', estimate: { mean: 1.4, lo: 1.1, hi: 1.7 }, text: '', detectable: false }); // returns 'reproduced'
 */
export function scorePart(spec: PartSpec<unknown>, m: Measured): Verdict {
  if (m.kind === 'missing') return 'not tested';
  if (m.kind === 'failed') return 'not reproduced';
  const p = spec.paper;
  switch (spec.score) {
    case 'none':
      return 'not tested';
    case 'effect':
      if (m.kind !== 'estimate') return wrongKind(spec, m);
      return rangeVerdict(m.estimate, interval(p), spec.tolerance ?? RANGE_TOLERANCE);
    case 'level':
      if (m.kind !== 'estimate') return wrongKind(spec, m);
      return levelVerdict(m.estimate, interval(p), m.nullValue, spec.tolerance ?? RANGE_TOLERANCE);
    case 'significance':
      if (m.kind !== 'estimate' || m.test === undefined || p.kind !== 'significance')
        return wrongKind(spec, m);
      return significanceVerdict(m.test.pValue, m.estimate, p.alpha, p.effect);
    case 'at-least':
      if (m.kind !== 'values') return wrongKind(spec, m);
      return atLeastVerdict(m.values, bound(p), spec.tolerance ?? 1);
    case 'at-most':
      if (m.kind !== 'scalar') return wrongKind(spec, m);
      return atMostVerdict(m.value, bound(p), spec.tolerance ?? RANGE_TOLERANCE, spec.strict ?? false);
    case 'sign':
      if (m.kind !== 'scalar') return wrongKind(spec, m);
      return signVerdict(m.value);
    case 'positive':
      if (m.kind !== 'estimate') return wrongKind(spec, m);
      return positiveVerdict(m.estimate);
    case 'match':
      if (m.kind !== 'scalar') return wrongKind(spec, m);
      return matchVerdict(m.value, bound(p), spec.tolerance ?? 0, spec.relative ?? 0);
    case 'choice':
      if (m.kind !== 'choice' || p.kind !== 'choice') return wrongKind(spec, m);
      return choiceVerdict(m.chosen, p.among, m.candidates, m.close);
  }
}

function fill(text: string, vars: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

function ruleText(pieces: readonly RulePiece[], vars: Readonly<Record<string, string | number>>): string {
  return pieces.map((r) => (typeof r === 'string' ? fill(r, vars) : RULE_TEXT[r.standard])).join(' ');
}

/**
 * Evaluates one claim spec on a run's measurements: parts (absent readings omitted or shown as not
 * tested, as the part says), verdict, counts and rule text.
 *
 * @example
 * evaluateClaim(SYNTHETIC_CLAIM_SPECS[0], syntheticMeasurements(analysis)).verdict; // returns e.g. 'mixed'
 */
export function evaluateClaim<R>(spec: ClaimSpec<R>, run: Measurements<R>): Claim {
  const vars = run.vars ?? {};
  const parts: ClaimPart[] = [];
  for (const ps of spec.parts) {
    const m = run.measure(ps.reads);
    if (m === undefined && ps.whenAbsent === 'omit') continue;
    const measured: Measured = m ?? { kind: 'missing', text: 'not in this run' };
    parts.push({
      label: ps.label,
      paper: ps.paper.text,
      ours: measured.text,
      verdict: scorePart(ps as PartSpec<unknown>, measured),
      detectable:
        measured.kind === 'estimate' && measured.detectable ? detectableText(measured.estimate) : null,
      ...(measured.kind === 'estimate' ? { estimate: measured.estimate } : {}),
    });
  }
  const vs = parts.map((p) => p.verdict);
  const named = spec.headline === undefined ? -1 : parts.findIndex((p) => p.label === spec.headline);
  const headline = named >= 0 ? named : parts.findIndex((p) => p.verdict !== 'not tested');
  // key order as the documents' JSON had it before the claims became data
  return {
    id: spec.id,
    ...(spec.plain === undefined ? {} : { plain: spec.plain }),
    title: fill(spec.title, vars),
    paper: spec.paper,
    parts,
    rule: ruleText(spec.rule, vars),
    charts: spec.charts ?? [],
    ...(spec.note === undefined ? {} : { note: spec.note }),
    headline,
    ...(spec.short === undefined ? {} : { short: spec.short }),
    verdict: combineVerdicts(vs),
    counts: countVerdicts(vs),
  };
}
