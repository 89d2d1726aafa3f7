/**
 * The schema of the paper's claims as data: a claim is a table row naming its question, the
 * paper's statement and, per part, the paper's figure (with its kind), the quantity of our run it
 * reads and the rule that scores one against the other. {@link evaluateClaim} is the one evaluator
 * that turns a spec and a run's measurements into parts, verdicts, counts and rule text.
 */
import type { PairedTTest } from '../../types.js';
import type { Estimate } from '../verdict.js';

/** What the paper states for one part, by kind. `text` is shown as the paper's figure. */
export type PaperFigure =
  | { readonly kind: 'value'; readonly value: number; readonly text: string }
  | { readonly kind: 'range'; readonly lo: number; readonly hi: number; readonly text: string }
  | { readonly kind: 'at-least'; readonly bound: number; readonly text: string }
  | { readonly kind: 'at-most'; readonly bound: number; readonly text: string }
  /** A direction only: the effect is positive. */
  | { readonly kind: 'sign'; readonly text: string }
  /** A significant effect (two-sided paired test below `alpha`) of the size `effect`. */
  | {
      readonly kind: 'significance';
      readonly alpha: number;
      readonly effect: readonly [number, number];
      readonly text: string;
    }
  /** One of `among` is the best (or the chosen) setting. */
  | { readonly kind: 'choice'; readonly among: readonly (number | string)[]; readonly text: string }
  /** The paper states nothing to score (the part is shown for information). */
  | { readonly kind: 'not stated'; readonly text: string };

/**
 * How a part is scored (see `scorePart` in evaluateClaim.ts and the rule texts in RULE_TEXT):
 * - `effect`: an effect (mean and 95% CI over seeds) against a value or range;
 * - `level`: a level (e.g. a CTR) against a value or range;
 * - `significance`: a paired t-test at the paper's level;
 * - `at-least` / `at-most`: every value (or the one value) against a bound, with a tolerance;
 * - `sign`: the value is positive;
 * - `choice`: the best setting is one the paper names;
 * - `match`: a computed number equals the paper's within a relative and absolute tolerance;
 * - `positive`: an effect (mean and 95% CI) is above 0 (a direction the paper states without a figure);
 * - `none`: not scored.
 */
export type ScoringRule =
  | 'effect'
  | 'level'
  | 'significance'
  | 'at-least'
  | 'at-most'
  | 'sign'
  | 'choice'
  | 'match'
  | 'positive'
  | 'none';

/** One part of a claim; `R` is the reading type of the results it is evaluated on. */
export interface PartSpec<R> {
  readonly label: string;
  readonly paper: PaperFigure;
  /** The quantity of our run this part reads (comparison, metric and settings). */
  readonly reads: R;
  readonly score: ScoringRule;
  /** Tolerance of the scoring rule (default: RANGE_TOLERANCE for effect/level/at-most, 1 for at-least, 0 for match). */
  readonly tolerance?: number;
  /** `match` only: relative tolerance added to `tolerance`. */
  readonly relative?: number;
  /** `at-most` only: the value must be strictly below the bound plus the tolerance. */
  readonly strict?: boolean;
  /** When the run has no such reading at all (e.g. its budget is not in the run): omit the part (default: show it as not tested). */
  readonly whenAbsent?: 'omit' | 'not tested';
}

/** One sentence of a claim's rule: a standard rule by name, or a claim-specific text. */
export type RulePiece = { readonly standard: 'effect' | 'level' } | string;

/** A paper claim as data. `{name}` in `title` and in rule texts is filled from the run's variables. */
export interface ClaimSpec<R> {
  readonly id: string;
  /** The question in plain words, for a reader who has not read the paper. */
  readonly plain?: string;
  readonly title: string;
  /** The paper's statement (SPEC section 6). */
  readonly paper: string;
  readonly parts: readonly PartSpec<R>[];
  /** The rule text, sentence by sentence. */
  readonly rule: readonly RulePiece[];
  /** Names of the charts that illustrate it. */
  readonly charts?: readonly string[];
  readonly note?: string;
  /**
   * Label of the part shown in the summary table and the bottom line (our number beside the
   * paper's). Default: the first part with a verdict other than 'not tested'.
   */
  readonly headline?: string;
  /** Short name of the claim in the bottom line (e.g. 'TS vs UCB'); absent: not in the bottom line. */
  readonly short?: string;
}

/** Our measurement of a part's reading, by kind. `text` is shown as ours. */
export type Measured =
  | {
      readonly kind: 'estimate';
      readonly estimate: Estimate;
      readonly text: string;
      /** Show the smallest detectable effect (a comparison over seeds). */
      readonly detectable: boolean;
      /** The paired t-test of the comparison (for `significance`). */
      readonly test?: PairedTTest;
      /** `level` only: the level without learning from the protected data (the rule's null); absent: unknown. */
      readonly nullValue?: number;
    }
  | { readonly kind: 'scalar'; readonly value: number; readonly text: string }
  | { readonly kind: 'values'; readonly values: readonly number[]; readonly text: string }
  | {
      readonly kind: 'choice';
      readonly chosen: number | string;
      /** Every setting that could have been chosen. */
      readonly candidates: readonly (number | string)[];
      /** Settings whose CI reaches the chosen one's (a tie the run cannot break). */
      readonly close: readonly (number | string)[];
      readonly text: string;
    }
  /** The computation failed: not reproduced. */
  | { readonly kind: 'failed'; readonly text: string }
  /** Nothing to score: not tested. */
  | { readonly kind: 'missing'; readonly text: string };

/** A run's measurements: reads a part's quantity (undefined: the run has no such reading). */
export interface Measurements<R> {
  measure(reads: R): Measured | undefined;
  /** Values for `{name}` placeholders in titles and rule texts. */
  readonly vars?: Readonly<Record<string, string | number>>;
}
