/**
 * The numbers of the "same guarantee, exact accounting" study (issue 24): every private policy that
 * takes the `accountant` option runs at each budget twice on the same seeds (same environment,
 * same exploration and the same seeded noise stream, scaled by each calibration's sigma): once with
 * the paper's accounting (zCDP; RDP for AdaPrivate-TS-Amp) and once with accountant 'exact' (the
 * exact privacy curve, docs/privacy.md). Both runs are (eps, delta)-DP at the same (eps, delta);
 * the exact one adds less noise. Per (policy, eps): the reward of each, their paired difference
 * (relative, in percent of the paper-accounted reward, and absolute) with Student-t 95% CIs over
 * seeds, a paired t-test, and the noise multiplier (sigma at sensitivity 1) each run used.
 */
import { calibrateGaussian } from '../../../mechanisms/index.js';
import { type PolicyId, paperAccountant, policyIds, policyInfo } from '../../../policies/index.js';
import { pairedTTest } from '../../pairedTTest.js';
import { seedStats } from '../../seedStats.js';
import { summarise } from '../../summarise.js';
import type { CellResult, PairedTTest, SeedStats, SettingSummary } from '../../types.js';
import { compare } from '../syntheticAnalysis.js';

/**
 * The policies of the study: every private policy whose noise is calibrated through the
 * `accountant` option (all but JDP-LinUCB, whose tree noise has its own analysis), in registry order.
 *
 * @example
 * exactAccountingPolicies().includes('adaprivate-ts'); // returns true
 */
export function exactAccountingPolicies(): PolicyId[] {
  return policyIds.filter((id) => paperAccountant(id) !== undefined);
}

/**
 * The noise multiplier (noise std at L2 sensitivity 1) a finished private cell used, from what its
 * ledger recorded: a parallel ledger's rho is one release's, 1 / (2 sigma^2); a sequential one's is
 * the sum over its releases (sigma = sqrt(releases / (2 rho))). A subsampled release has no zCDP
 * figure, so its multiplier is the policy's own calibration (`calibrateGaussian` of src/mechanisms,
 * the one the policy calls: rate q, the policy's accountant; Amp's exact calibration assumes the
 * continuous sampler it draws from). Null for a non-private cell or a ledger with no release.
 *
 * @example
 * noiseMultiplierOf(adaprivateTsCellAtEps1); // returns 4.9006 (zCDP) or 3.7306 (exact)
 */
export function noiseMultiplierOf(cell: CellResult): number | null {
  const p = cell.privacy;
  if (p === null || p.releases === 0) return null;
  if (p.rho !== null && p.rho > 0) {
    const k = p.composition === 'sequential' ? p.releases : 1;
    return Math.sqrt(k / (2 * p.rho));
  }
  const cfg = cell.policyConfig as { q?: unknown; orders?: unknown; conversion?: unknown };
  const q = cfg.q;
  if (typeof q !== 'number' || cell.config.epsilon === null || cell.config.delta === null) return null;
  const accountant = p.accountant ?? 'rdp';
  return calibrateGaussian(
    cell.config.policy,
    { epsilon: cell.config.epsilon, delta: cell.config.delta },
    { compositions: 1, q },
    accountant,
    accountant === 'exact'
      ? { noise: 'continuous' }
      : {
          ...(cfg.orders === 'paper' || cfg.orders === 'extended' ? { orders: cfg.orders } : {}),
          ...(cfg.conversion === 'classic' || cfg.conversion === 'improved'
            ? { conversion: cfg.conversion }
            : {}),
        },
  ).multiplier;
}

/** One (policy, eps) row of the study. */
export interface ExactAccountingRow {
  readonly policy: string;
  readonly epsilon: number;
  /** The paper's accountant of the policy ('zcdp', or 'rdp' for AdaPrivate-TS-Amp). */
  readonly paperAccountant: 'zcdp' | 'rdp';
  /** Mean reward (synthetic: expected reward per round; replay: CTR) per seed, paper's accounting. */
  readonly paper: SeedStats;
  /** The same with accountant 'exact'. */
  readonly exact: SeedStats;
  /** Relative difference 100 (exact / paper - 1) per seed: mean and 95% CI. */
  readonly gap: SeedStats;
  /** Absolute difference exact - paper per seed (reward units): mean and 95% CI. */
  readonly difference: SeedStats;
  /** Paired t-test of exact against paper. */
  readonly test: PairedTTest;
  /** Noise multiplier of each run (median over seeds; the calibration does not depend on the seed). */
  readonly sigmaPaper: number | null;
  readonly sigmaExact: number | null;
  /** Largest epsilon any seed's ledger reports, for each accountant (both must stay within eps). */
  readonly spentPaper: number | null;
  readonly spentExact: number | null;
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function spent(cells: readonly CellResult[]): number | null {
  const e = cells.flatMap((c) => (c.privacy === null ? [] : [c.privacy.epsilon]));
  return e.length === 0 ? null : Math.max(...e);
}

/** Whether a cell ran with the exact accountant (its params name it) or the paper's (no accountant param). */
export function isExactCell(c: CellResult): boolean {
  return c.config.params.accountant === 'exact';
}

/**
 * The rows of the study from its cells: for every (policy, eps) present under both accountants, in
 * policy registry order then by eps. Cells of other settings (e.g. non-private references) are
 * ignored; a setting's other params (a MovieLens exact run's prior weight) do not split it.
 *
 * @example
 * exactAccountingRows(result.cells).find((r) => r.policy === 'adaprivate-ts' && r.epsilon === 1)?.gap.mean; // e.g. 0.4
 */
export function exactAccountingRows(cells: readonly CellResult[]): ExactAccountingRow[] {
  const rows: ExactAccountingRow[] = [];
  const policies = exactAccountingPolicies();
  const eps = [...new Set(cells.flatMap((c) => (c.config.epsilon === null ? [] : [c.config.epsilon])))].sort(
    (a, b) => a - b,
  );
  for (const policy of policies) {
    const paper = paperAccountant(policy)!;
    for (const e of eps) {
      const mine = cells.filter((c) => c.config.policy === policy && c.config.epsilon === e);
      const exactCells = mine.filter(isExactCell);
      const paperCells = mine.filter((c) => c.config.params.accountant === undefined);
      if (exactCells.length === 0 || paperCells.length === 0) continue;
      const one = (cs: readonly CellResult[], label: string): SettingSummary => {
        const s = summarise(cs);
        if (s.length !== 1)
          throw new Error(
            `exactAccountingRows: ${policyInfo(policy).displayName} at eps = ${e} (${label}) has ${s.length} settings; expected one.`,
          );
        return s[0]!;
      };
      const a = one(exactCells, 'exact');
      const b = one(paperCells, 'paper');
      const gap = compare(a, b).gap;
      const bySeed = new Map(b.meanReward.seeds.map((s, i) => [s, b.meanReward.perSeed[i]!]));
      const seeds: number[] = [];
      const diffs: number[] = [];
      a.meanReward.seeds.forEach((s, i) => {
        const r = bySeed.get(s);
        if (r !== undefined) {
          seeds.push(s);
          diffs.push(a.meanReward.perSeed[i]! - r);
        }
      });
      const sig = (cs: readonly CellResult[]) =>
        median(cs.map(noiseMultiplierOf).filter((x): x is number => x !== null));
      rows.push({
        policy,
        epsilon: e,
        paperAccountant: paper,
        paper: b.meanReward,
        exact: a.meanReward,
        gap,
        difference: seedStats(diffs, seeds),
        test: pairedTTest(a.meanReward, b.meanReward),
        sigmaPaper: sig(paperCells),
        sigmaExact: sig(exactCells),
        spentPaper: spent(paperCells),
        spentExact: spent(exactCells),
      });
    }
  }
  return rows;
}
