/**
 * `adaprivate reproduce users`: the synthetic user-level study (issue 25, study (a)). Runs the plan
 * of userStudyPlan.ts (every user arrives k times; AdaPrivate-TS protecting each user by group
 * privacy or by contribution bounds at the same user-level budget; LinTS as the non-private
 * reference on the same rounds), evaluates the user-level claims (userLevelClaimSpecs.ts) and writes
 * results.json (every cell with its config, seed and version), tables.md, REPORT.md and the chart
 * into the output directory, and optionally the section `user-level-synthetic` of
 * docs/REPRODUCTION.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { VERSION } from '../../../version.js';
import { cacheVersion } from '../../codeFingerprint.js';
import { percentOf } from '../../percentOf.js';
import { bandChartSpec } from '../../report/bandChartSpec.js';
import { formatNumber } from '../../report/format.js';
import { markdownTable } from '../../report/markdownTable.js';
import { upsertSectionInFile } from '../../report/markedSections.js';
import { type ReportTable, reportTable } from '../../report/ReportTable.js';
import { renderSvg } from '../../report/renderSvg.js';
import { runExperiment } from '../../runExperiment.js';
import { seedStats } from '../../seedStats.js';
import { summarise } from '../../summarise.js';
import type { CellResult, ExperimentConfig, ExperimentResult, SeedStats } from '../../types.js';
import type { Measured } from '../claims/ClaimSpec.js';
import type { Claim } from '../claims/evaluateClaim.js';
import { evaluateClaim } from '../claims/evaluateClaim.js';
import { claimMarkdown } from '../reproductionMarkdown.js';
import { countsText } from '../verdict.js';
import { droppedShareOf } from './droppedShareOf.js';
import { unitCountStats } from './unitCountStats.js';
import { PAPER_GROUP_PERCENT, USER_LEVEL_CLAIM_SPECS, type UserLevelReading } from './userLevelClaimSpecs.js';
import {
  USER_STUDY_VARIANTS,
  type UserStudyCell,
  type UserStudyPlan,
  type UserStudyVariant,
  userStudyPlan,
  VARIANT_LABEL,
} from './userStudyPlan.js';
import { type UserStudyScaleName, userStudyScale } from './userStudyScale.js';

/** Options of {@link reproduceUserLevelSynthetic}. */
export interface UserLevelSyntheticOptions {
  /** 'full' (default), 'quick' or 'tiny'. */
  readonly scale?: UserStudyScaleName;
  readonly outDir: string;
  /** Worker threads (default: all cores). */
  readonly workers?: number;
  /** Run the cells in this thread (tests). Default false. */
  readonly inProcess?: boolean;
  /** Cell cache directory; default `<outDir>/cache`; null: no cache. */
  readonly cacheDir?: string | null;
  /** Also set the section `user-level-synthetic` of this Markdown file (chart in img/reproduction/ beside it). */
  readonly docPath?: string;
  /** The command line recorded in the outputs. */
  readonly command?: string;
  readonly onProgress?: (stage: string, done: number, total: number) => void;
}

/** One (k, variant) of the study, measured. */
export interface UserLevelRow {
  readonly k: number;
  readonly variant: UserStudyVariant;
  readonly epsilon: number;
  readonly sigma: number;
  readonly bounds: UserStudyCell['bounds'];
  /** Percent of non-private LinTS per seed (mean, CI). */
  readonly percent: SeedStats;
  readonly meanReward: SeedStats;
  /** Share of rewards dropped by the bounds (per seed), or null when the policy reports none. */
  readonly dropped: SeedStats | null;
  /** Mean epsilon the ledger reports (per record for group privacy, per user for bounds). */
  readonly ledgerEpsilon: number | null;
}

/** Everything the study returns. */
export interface UserLevelSyntheticResult {
  readonly plan: UserStudyPlan;
  readonly rows: readonly UserLevelRow[];
  readonly claims: readonly Claim[];
  readonly tables: readonly ReportTable[];
  readonly markdown: string;
  readonly timing: { readonly wallSeconds: number; readonly cpuSeconds: number; readonly cells: number };
  readonly files: readonly string[];
}

function estimate(s: SeedStats) {
  return { mean: s.mean, lo: s.ci95[0], hi: s.ci95[1], n: s.n };
}

const pct = (s: SeedStats): string =>
  `${formatNumber(s.mean, 1)}% [${formatNumber(s.ci95[0], 1)}, ${formatNumber(s.ci95[1], 1)}]`;

function measureRows(rows: readonly UserLevelRow[]) {
  const find = (k: number, v: UserStudyVariant) => rows.find((r) => r.k === k && r.variant === v);
  return (reads: UserLevelReading): Measured | undefined => {
    const row = find(reads.k, reads.variant);
    if (row === undefined) return undefined;
    if (reads.metric === 'percent') {
      return { kind: 'estimate', estimate: estimate(row.percent), text: pct(row.percent), detectable: false };
    }
    const other = find(reads.k, reads.versus);
    if (other === undefined) return undefined;
    const bySeed = new Map(other.percent.seeds.map((s, i) => [s, other.percent.perSeed[i]!]));
    const seeds: number[] = [];
    const gains: number[] = [];
    row.percent.seeds.forEach((s, i) => {
      const o = bySeed.get(s);
      if (o !== undefined) {
        seeds.push(s);
        gains.push(row.percent.perSeed[i]! - o);
      }
    });
    if (seeds.length === 0) return undefined;
    const g = seedStats(gains, seeds);
    const sign = (x: number) => (x >= 0 ? '+' : '');
    return {
      kind: 'estimate',
      estimate: estimate(g),
      text: `${sign(g.mean)}${formatNumber(g.mean, 1)} points [${sign(g.ci95[0])}${formatNumber(g.ci95[0], 1)}, ${sign(g.ci95[1])}${formatNumber(g.ci95[1], 1)}] (${formatNumber(row.percent.mean, 1)}% vs ${formatNumber(other.percent.mean, 1)}%)`,
      detectable: true,
    };
  };
}

/** The study's table: per k, the paper's figure and every variant side by side. */
function mainTable(plan: UserStudyPlan, rows: readonly UserLevelRow[]): ReportTable {
  const variants = USER_STUDY_VARIANTS.filter((v) => rows.some((r) => r.variant === v));
  const cell = (k: number, v: UserStudyVariant) => {
    const r = rows.find((x) => x.k === k && x.variant === v);
    if (r === undefined) return 'n/a';
    const drop = r.dropped === null ? '' : `; ${formatNumber(100 * r.dropped.mean, 1)}% dropped`;
    return `${pct(r.percent)}; sigma ${formatNumber(r.sigma, 2)}${drop}`;
  };
  return reportTable({
    title: `User-level eps = ${plan.scale.userEpsilon} (delta ${plan.scale.delta}): % of non-private LinTS [95% CI over seeds]; noise std per release; share of rewards dropped by the bounds`,
    columns: [
      { header: 'k (arrivals per user)' },
      { header: 'paper (group privacy)', align: 'right' },
      ...variants.map((v) => ({ header: VARIANT_LABEL[v], align: 'right' as const })),
    ],
    rows: plan.scale.ks.map((k) => [
      String(k),
      PAPER_GROUP_PERCENT.find((g) => g.k === k)?.text ?? '-',
      ...variants.map((v) => cell(k, v)),
    ]),
    caption:
      "sigma: the noise standard deviation of each release in units of one reward (group privacy: k / sqrt(2 rho_u) in zCDP, k / mu_u exactly; bounds c = 1, m = k: sqrt(k) / sqrt(2 rho_u) in zCDP, sqrt(k) / mu_u exactly). Dropped: a user's second reward in one batch (c = 1; first come, first kept), as the policy's own count reports it.",
  });
}

/**
 * Runs the synthetic user-level study.
 *
 * @example
 * const r = await reproduceUserLevelSynthetic({ scale: 'quick', outDir: 'results/users' });
 * r.claims[0].verdict; // returns e.g. 'not reproduced'
 */
export async function reproduceUserLevelSynthetic(
  options: UserLevelSyntheticOptions,
): Promise<UserLevelSyntheticResult> {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const scale = userStudyScale(options.scale ?? 'full');
  const plan = userStudyPlan(scale);
  await mkdir(options.outDir, { recursive: true });
  const cacheDir = options.cacheDir === undefined ? join(options.outDir, 'cache') : options.cacheDir;
  const configs: { stage: string; config: ExperimentConfig }[] = [
    ...plan.references.map((r) => ({ stage: `k = ${r.k}: LinTS`, config: r.config })),
    ...plan.cells.map((c) => ({ stage: `k = ${c.k}: ${c.variant}`, config: c.config })),
  ];
  const results = new Map<ExperimentConfig, ExperimentResult>();
  for (const { stage, config } of configs) {
    results.set(
      config,
      await runExperiment(config, {
        ...(options.workers !== undefined ? { workers: options.workers } : {}),
        ...(options.inProcess === true ? { inProcess: true } : {}),
        ...(cacheDir !== null ? { cacheDir } : {}),
        ...(options.onProgress !== undefined
          ? { onProgress: (p) => options.onProgress!(stage, p.done, p.total) }
          : {}),
      }),
    );
  }
  const rows: UserLevelRow[] = [];
  for (const c of plan.cells) {
    const ref = plan.references.find((r) => r.k === c.k)!;
    const refSummary = summarise(results.get(ref.config)!.cells)[0]!;
    const cells = results.get(c.config)!.cells;
    const s = summarise(cells)[0]!;
    const percent = percentOf(s, refSummary).perSeed!;
    const drops = cells.map((x: CellResult) => droppedShareOf(x));
    const dropped = drops.every((d): d is number => d !== null)
      ? seedStats(
          drops,
          cells.map((x) => x.seed),
        )
      : null;
    rows.push({
      k: c.k,
      variant: c.variant,
      epsilon: c.epsilon,
      sigma: c.sigma,
      bounds: c.bounds,
      percent,
      meanReward: s.meanReward,
      dropped,
      ledgerEpsilon: s.epsilonSpent?.mean ?? null,
    });
  }
  const vars = { userEpsilon: scale.userEpsilon };
  // a claim none of whose parts this run measures (e.g. bounds in a build without user-level policies) is left out
  const claims = USER_LEVEL_CLAIM_SPECS.map((spec) =>
    evaluateClaim(spec, { measure: measureRows(rows), vars }),
  ).filter((c) => c.parts.length > 0);
  const table = mainTable(plan, rows);
  // arrivals actually seen per user (the same environment for every variant of a k)
  const arrivals = plan.references.map((r) => {
    const u = results.get(r.config)!.cells[0]?.units;
    return { k: r.k, stats: u === undefined ? null : unitCountStats(u) };
  });
  const chartVariants = USER_STUDY_VARIANTS.filter((v) => rows.some((r) => r.variant === v));
  const svg = await renderSvg(
    bandChartSpec(
      [
        {
          label: 'paper (group privacy)',
          points: PAPER_GROUP_PERCENT.filter((g) => scale.ks.includes(g.k)).map((g) => ({
            x: g.k,
            mean: g.pct,
            lo: g.pct,
            hi: g.pct,
          })),
        },
        ...chartVariants.map((v) => ({
          label: VARIANT_LABEL[v],
          points: rows
            .filter((r) => r.variant === v)
            .map((r) => ({ x: r.k, mean: r.percent.mean, lo: r.percent.ci95[0], hi: r.percent.ci95[1] })),
        })),
      ],
      {
        title: `Synthetic users: % of non-private at user-level eps = ${scale.userEpsilon}`,
        xTitle: 'k (arrivals per user)',
        xInteger: true,
        yTitle: '% of non-private LinTS',
        points: true,
        yZero: true,
        maxBands: 5,
      },
    ),
  );
  const chartFile = 'user-level-synthetic.svg';
  const cpu = process.cpuUsage(cpu0);
  const timing = {
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    cells: [...results.values()].reduce((n, r) => n + r.timings.filter((t) => !t.cached).length, 0),
  };
  const command =
    options.command ?? `adaprivate reproduce users${scale.name === 'full' ? '' : ` --${scale.name}`}`;
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`;
  const seeds = Array.from({ length: scale.seeds }, (_, i) => i + 1);
  const section = (img: string): string =>
    [
      `## User-level privacy: synthetic users${scale.name === 'full' ? '' : ` (${scale.name} run: indicative only)`}`,
      '',
      `Generated by \`${command}\` (adaprivate ${VERSION}, cell cache version ${cacheVersion()}); regenerate with the same command. Seeds ${seeds.join(', ')}; T = ${scale.horizon}; the paper's synthetic environment (d = ${scale.env.dim}, ${scale.env.arms} arms, ${scale.env.armsPerRound} per round, logistic link, ||theta*|| = ${scale.env.thetaNorm}) whose rounds belong to users: n = T / k users, each arriving k times at random rounds (\`SyntheticUsersEnvironment\`; the users share theta*, so only the privacy differs). Every user is protected at user-level (eps = ${scale.userEpsilon}, delta = ${scale.delta}) by AdaPrivate-TS (B = ${scale.batchSize}, defaults otherwise) in one of four ways: group privacy of an event-level policy (per-record budget rho_u / k^2 in zCDP, the paper's table, or mu_u / k with the exact Gaussian-DP accountant), or a user-level policy (\`privacyUnit: 'user'\`) with contribution bounds c = 1 reward per release and m = k releases per epoch (the run), its noise calibrated for the person. "% of non-private" is the mean expected reward relative to LinTS (v = 1) on the same rounds, per seed, with a Student-t 95% CI over seeds.`,
      '',
      ...(plan.skipped.length === 0
        ? []
        : [
            `Not run in this build: ${plan.skipped.map((s) => `${VARIANT_LABEL[s.variant]} (${s.reason})`).join('; ')}.`,
            '',
          ]),
      `| Claim | Verdict | Parts by verdict |\n| --- | --- | --- |\n${claims.map((c) => `| ${c.title} | **${c.verdict}** | ${countsText(c.counts)} |`).join('\n')}\n`,
      ...claims.map((c) => claimMarkdown(c, () => '', 3)),
      '### Table\n',
      markdownTable(table),
      `\n${table.caption}\n`,
      `Arrivals per user seen by the runs: ${arrivals.map((a) => `k = ${a.k}: ${a.stats === null ? 'n/a' : `${a.stats.units} users, median ${a.stats.median}, max ${a.stats.max}`}`).join('; ')}.\n`,
      `![Synthetic users: % of non-private vs k at user-level eps = ${scale.userEpsilon}](${img})\n`,
      `**Verdict in words.** ${verdictWords(rows, claims)}\n`,
      `Run time: ${formatNumber(timing.wallSeconds, 1)} s wall, ${formatNumber(timing.cpuSeconds, 1)} s CPU (user + system, worker threads included) for ${timing.cells} cells run (${configs.reduce((n, c) => n + results.get(c.config)!.cells.length, 0) - timing.cells} from the cache) on ${machine}, shared with other jobs (wall time is not an idle-machine figure; an idle two-core machine needs about CPU / 2).`,
      '',
    ].join('\n');
  const markdown = section(chartFile);
  const files: string[] = [];
  const write = async (name: string, text: string) => {
    const p = join(options.outDir, name);
    await writeFile(p, text);
    files.push(p);
  };
  await write(
    'results.json',
    `${JSON.stringify(
      {
        study: 'user-level-synthetic',
        command,
        version: VERSION,
        cacheVersion: cacheVersion(),
        scale,
        seeds,
        userRho: plan.userRho,
        userMu: plan.userMu,
        skipped: plan.skipped,
        cells: plan.cells.map((c) => ({
          k: c.k,
          variant: c.variant,
          epsilon: c.epsilon,
          sigma: c.sigma,
          bounds: c.bounds,
        })),
        rows,
        claims,
        timing,
        experiments: [...results.values()],
      },
      null,
      1,
    )}\n`,
  );
  await write('tables.md', markdownTable(table));
  await write('REPORT.md', markdown);
  await write(chartFile, svg);
  if (options.docPath !== undefined) {
    const img = join(dirname(options.docPath), 'img', 'reproduction');
    await mkdir(img, { recursive: true });
    await writeFile(join(img, chartFile), svg);
    files.push(join(img, chartFile));
    if (
      upsertSectionInFile(options.docPath, 'user-level-synthetic', section(`img/reproduction/${chartFile}`))
    )
      files.push(options.docPath);
  }
  return { plan, rows, claims, tables: [table], markdown, timing, files };
}

/** One paragraph that says what the numbers say, computed from them. */
function verdictWords(rows: readonly UserLevelRow[], claims: readonly Claim[]): string {
  const at = (k: number, v: UserStudyVariant) => rows.find((r) => r.k === k && r.variant === v);
  const kMax = Math.max(...rows.map((r) => r.k));
  const g = at(kMax, 'group-zcdp');
  const b = at(kMax, 'bounds-zcdp');
  const paper = PAPER_GROUP_PERCENT.find((p) => p.k === kMax);
  const parts: string[] = [];
  if (g !== undefined && paper !== undefined) {
    parts.push(
      `At k = ${kMax} group privacy leaves ${formatNumber(g.percent.mean, 1)}% of the non-private reward here, where the paper reports ${paper.text}: the paper's group-privacy claim is ${claims.find((c) => c.id === 'user-level-group-privacy')?.verdict ?? 'not tested'} on this environment.`,
    );
  }
  if (g !== undefined && b !== undefined) {
    parts.push(
      `Contribution bounds (c = 1, m = ${kMax}) ${b.percent.mean >= g.percent.mean ? 'keep' : 'lose'} ${formatNumber(Math.abs(b.percent.mean - g.percent.mean), 1)} points of non-private reward against group privacy at the same user-level guarantee (${formatNumber(b.percent.mean, 1)}% vs ${formatNumber(g.percent.mean, 1)}%)${b.dropped === null ? '' : `, dropping ${formatNumber(100 * b.dropped.mean, 1)}% of the rewards`}; the bounds claim is ${claims.find((c) => c.id === 'user-level-bounds')?.verdict ?? 'not tested'}.`,
    );
  } else parts.push('The contribution-bounds variants were not run in this build.');
  return parts.join(' ');
}
