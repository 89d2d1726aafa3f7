import { policyInfo } from '../../../policies/index.js';
import { bandChartSpec } from '../../report/bandChartSpec.js';
import { renderSvg } from '../../report/renderSvg.js';
import { curveSeries } from '../../report/seriesFrom.js';
import type { SettingSummary } from '../../types.js';
import { FOCUS_METHODS } from '../syntheticCharts.js';
import { findSetting } from './realDataClaims.js';

/** The policies drawn in a real-data CTR-over-time chart. */
export const REAL_DATA_CURVE_POLICIES = [
  'adaprivate-ts',
  'adaprivate-ucb',
  'adaprivate-ts-amp',
  'lints',
] as const;

/**
 * The SVG of a real-data study's replay CTR over time at eps = 1 from its main study's setting
 * summaries (null when no curve exists): the methods of the claims (AdaPrivate-TS and -UCB)
 * highlighted with their 95% CI bands over seeds, non-private LinTS in colour, Amp muted. `runRealDataReproduction` and
 * scripts/rerender-realdata-curves.mjs draw it with this one function.
 *
 * @example
 * const svg = await realDataCurveChart('movielens', summarise(main.cells));
 */
export async function realDataCurveChart(
  dataset: string,
  summaries: readonly SettingSummary[],
): Promise<string | null> {
  const series = REAL_DATA_CURVE_POLICIES.map((p) => findSetting(summaries, p, 1))
    .filter((s): s is SettingSummary => s !== undefined && s.curve.length > 0)
    .map((s) =>
      curveSeries(
        s,
        'reward',
        `${policyInfo(s.policy as (typeof REAL_DATA_CURVE_POLICIES)[number]).displayName}${s.epsilon === null ? ' (non-private)' : ''}`,
      ),
    );
  if (series.length === 0) return null;
  return renderSvg(
    bandChartSpec(series, {
      title: `${dataset}: replay CTR so far, eps = 1`,
      xTitle: 'logged step',
      yTitle: 'CTR so far',
      yBounds: [0, 1],
      xInteger: true,
      // the claims' methods with their bands, the non-private reference in colour, Amp muted
      highlight: [...FOCUS_METHODS, 'LinTS (non-private)'].filter((l) => series.some((s) => s.label === l)),
    }),
  );
}
