/**
 * Reads the quantities named by the synthetic claim specs ({@link SyntheticReading}) from a
 * synthetic analysis, as the numbers and texts the claim evaluator scores and shows.
 */
import { calibrateSubsampledSigma } from '../../../policies/index.js';
import { rdpToEpsilon, resolveOrders, subsampledGaussianRdpCurve } from '../../../privacy/index.js';
import { formatNumber, formatPValue } from '../../report/format.js';
import type { SeedStats } from '../../types.js';
import { type Cell, epsKey, type SyntheticAnalysis } from '../syntheticAnalysis.js';
import { gapText } from '../syntheticTables.js';
import type { Estimate } from '../verdict.js';
import type { Measured, Measurements } from './ClaimSpec.js';
import type { SyntheticReading } from './syntheticClaimSpecs.js';

/** Our estimate (mean and 95% CI over seeds) of a per-seed statistic, for the verdict rules. */
export const est = (s: SeedStats): Estimate => ({ mean: s.mean, lo: s.ci95[0], hi: s.ci95[1], n: s.n });

const pct = (c: Cell): Estimate =>
  c.percentStats === null ? { mean: c.percent, lo: c.percent, hi: c.percent } : est(c.percentStats);
const pctText = (c: Cell): string => {
  const e = pct(c);
  return `${formatNumber(e.mean, 1)}% [${formatNumber(e.lo, 1)}, ${formatNumber(e.hi, 1)}]`;
};

const effect = (g: SeedStats): Measured => ({
  kind: 'estimate',
  estimate: est(g),
  text: gapText(g),
  detectable: true,
});

/** The RDP calibration of one subsampled Gaussian release and its eps on the extended order grid. */
function accounting(eps: number, delta: number, q: number): { rdp: Measured; grid: Measured } {
  try {
    const cal = calibrateSubsampledSigma(eps, delta, q, 'paper', 'classic');
    const ext = resolveOrders('extended');
    const epsExt = rdpToEpsilon(
      ext,
      subsampledGaussianRdpCurve(q, cal.sigma, ext, 1, new Float64Array(ext.length)),
      delta,
      'classic',
    ).epsilon;
    const change = (100 * Math.abs(eps - epsExt)) / eps;
    return {
      rdp: {
        kind: 'scalar',
        value: cal.order,
        text: `order ${cal.order} (sigma_amp = ${formatNumber(cal.sigma, 4)})`,
      },
      grid: {
        kind: 'scalar',
        value: change,
        text: `${formatNumber(change, 2)}% (eps ${eps} on the paper's grid, ${formatNumber(epsExt, 4)} on the extended grid)`,
      },
    };
  } catch (err) {
    return {
      rdp: { kind: 'failed', text: `calibration failed: ${(err as Error).message}` },
      grid: { kind: 'missing', text: 'n/a' },
    };
  }
}

/**
 * The measurements of a synthetic analysis for the claim evaluator.
 *
 * @example
 * syntheticMeasurements(analysis).measure({ metric: 'gap', comparison: 'tsVsUcb', eps: 1 })?.text; // returns e.g. '+1.1% [+0.4%, +1.8%]'
 */
export function syntheticMeasurements(a: SyntheticAnalysis): Measurements<SyntheticReading> {
  const has = (e: number) => a.epsilons.includes(e);
  return {
    vars: { delta: a.scale.delta, robustnessEpsilon: a.scale.robustnessEpsilon },
    measure(r: SyntheticReading): Measured | undefined {
      switch (r.metric) {
        case 'gap': {
          const c = has(r.eps) ? a[r.comparison][epsKey(r.eps)] : undefined;
          return c === undefined ? undefined : effect(c.gap);
        }
        case 't-test': {
          const c = has(r.eps) ? a.tsVsUcb[epsKey(r.eps)] : undefined;
          if (c === undefined) return undefined;
          const t = c.test;
          return {
            kind: 'estimate',
            estimate: est(c.gap),
            text: `p = ${formatPValue(t.pValue)} (t = ${formatNumber(t.t, 2)}, n = ${t.n})`,
            detectable: true,
            test: t,
          };
        }
        case 'ablation-total': {
          const t = has(r.eps) ? a.ablationTotal[epsKey(r.eps)] : undefined;
          return t === undefined ? undefined : effect(t);
        }
        case 'rdp-order':
          return accounting(r.eps, a.scale.delta, r.q).rdp;
        case 'rdp-grid-change':
          return accounting(r.eps, a.scale.delta, r.q).grid;
        case 'best-q': {
          const byQ = a.amplification[epsKey(r.eps)];
          if (byQ === undefined) return undefined;
          let best = Number.NaN;
          let top = Number.NEGATIVE_INFINITY;
          for (const q of a.scale.ampQ) {
            const p = byQ[String(q)]!.percent;
            if (p > top) {
              top = p;
              best = q;
            }
          }
          const bestLo = pct(byQ[String(best)]!).lo;
          const list = a.scale.ampQ
            .map((q) => `q=${q}: ${formatNumber(byQ[String(q)]!.percent, 1)}%`)
            .join('; ');
          return {
            kind: 'choice',
            chosen: best,
            candidates: a.scale.ampQ,
            close: a.scale.ampQ.filter((q) => pct(byQ[String(q)]!).hi >= bestLo),
            text: `best q = ${best} (${list})`,
          };
        }
        case 'sd-difference': {
          const byQ = a.amplification[epsKey(r.eps)];
          const c = byQ?.[String(r.q)];
          const v = byQ?.[String(r.versus)];
          if (c === undefined || v === undefined) return undefined;
          const sc = c.percentStats?.std ?? Number.NaN;
          const sv = v.percentStats?.std ?? Number.NaN;
          return {
            kind: 'scalar',
            value: sc - sv,
            text: `sd ${formatNumber(sc, 1)}% (q = ${r.q}) vs ${formatNumber(sv, 1)}% (q = ${r.versus}), synthetic`,
          };
        }
        case 'percent-gain': {
          const byQ = a.amplification[epsKey(r.eps)];
          const c = byQ?.[String(r.q)];
          const v = byQ?.[String(r.versus)];
          if (c === undefined || v === undefined) return undefined;
          const gain = c.percent - v.percent;
          return {
            kind: 'scalar',
            value: gain,
            text: `${gain >= 0 ? '+' : ''}${formatNumber(gain, 1)} percentage points of non-private (${pctText(c)} vs ${pctText(v)})`,
          };
        }
        case 'sweep-means': {
          const [keys, cells, name] =
            r.sweep === 'batchSize'
              ? [a.scale.batchSizes, a.robustnessB, 'B']
              : [a.scale.vs, a.robustnessV, 'v'];
          const values = keys.map((k) => cells[String(k)]!.percent);
          return {
            kind: 'values',
            values,
            text: keys.map((k, i) => `${name}=${k}: ${formatNumber(values[i]!, 1)}%`).join('; '),
          };
        }
        case 'best-batch-size': {
          const means = a.scale.batchSizes.map((b) => a.robustnessB[String(b)]!.percent);
          const best = a.scale.batchSizes[means.indexOf(Math.max(...means))]!;
          return {
            kind: 'choice',
            chosen: best,
            candidates: a.scale.batchSizes,
            close: [],
            text: `B = ${best}`,
          };
        }
        case 'batch-size-percent': {
          const c = a.robustnessB[String(r.batchSize)];
          return c === undefined
            ? undefined
            : { kind: 'estimate', estimate: pct(c), text: pctText(c), detectable: false };
        }
        case 'decay-half-range': {
          const means = Object.values(a.robustnessDecay).map((c) => c.percent);
          const half = (Math.max(...means) - Math.min(...means)) / 2;
          return {
            kind: 'scalar',
            value: half,
            text: `+-${formatNumber(half, 2)} percentage points (half-range of ${means.length} settings)`,
          };
        }
        case 'group-rho':
        case 'group-percent': {
          const g = a.group.find((x) => x.budget.k === r.k);
          if (g === undefined) return undefined;
          return r.metric === 'group-rho'
            ? { kind: 'scalar', value: g.budget.recordRho, text: formatNumber(g.budget.recordRho, 5) }
            : { kind: 'estimate', estimate: pct(g.cell), text: pctText(g.cell), detectable: false };
        }
      }
    },
  };
}
