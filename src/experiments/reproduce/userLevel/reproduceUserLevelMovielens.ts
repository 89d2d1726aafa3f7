/**
 * `adaprivate reproduce movielens-users`: MovieLens by user (issue 25, study (b)). The replay log
 * draws each step's user in proportion to the user's held-out ratings (`userArrivals: 'activity'`:
 * heavy users arrive often, as in a real log) and every step carries its user as the privacy unit.
 *
 * - Event-level policies at eps in {1, 5} (the paper's zCDP calibration): replay CTR with its 95% CI
 *   and, from the rewards each user actually gave the policy in the run, what group privacy promises
 *   the median and the heaviest user ((k^2 rho)-zCDP, and (k mu)-GDP for the Gaussian releases).
 * - User-level policies (`privacyUnit: 'user'`) at user-level eps in {1, 5} with contribution
 *   bounds (c per release, m releases per epoch = the run) chosen by contributionBoundsRule on the
 *   TRAINING split only: CTR with its CI and the share of rewards dropped at the bounds.
 * - LinTS and LinUCB as the non-private references.
 *
 * The warm start (prior mean from the training split, prior weight tuned on its validation part for
 * the noise each policy actually adds) is the MovieLens reproduction's. Writes results.json (every
 * cell with config, seed and version), tables.md, REPORT.md and, with `docPath`, the section
 * `user-level-movielens` of that document.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import {
  loadRatings,
  prepareFeaturesFile,
  type RatingsFormat,
  type StepProgress,
  trainingRatingsPerUser,
  tunePriorWeight,
} from '../../../data/index.js';
import { calibrateGaussian } from '../../../mechanisms/index.js';
import { policyInfo } from '../../../policies/index.js';
import { epsilonToRho, sigmaForRho } from '../../../privacy/index.js';
import { VERSION } from '../../../version.js';
import { cacheVersion } from '../../codeFingerprint.js';
import { formatNumber } from '../../report/format.js';
import { markdownTable } from '../../report/markdownTable.js';
import { upsertSectionInFile } from '../../report/markedSections.js';
import { type ReportTable, reportTable } from '../../report/ReportTable.js';
import { runExperiment } from '../../runExperiment.js';
import { seedStats } from '../../seedStats.js';
import { summarise } from '../../summarise.js';
import type { ExperimentResult, ParamValue, SeedStats } from '../../types.js';
import { validateExperimentConfig } from '../../validateExperimentConfig.js';
import { type ContributionBounds, contributionBoundsRule } from './contributionBoundsRule.js';
import { droppedShareOf } from './droppedShareOf.js';
import { groupGuarantee } from './groupPrivacyGuarantee.js';
import { unitCountStats } from './unitCountStats.js';

/** Options of {@link reproduceUserLevelMovielens}. */
export interface UserLevelMovielensOptions {
  readonly source: string;
  readonly format: RatingsFormat;
  readonly outDir: string;
  /** Small run: 2 seeds, 20,000 steps, AdaPrivate-TS and -UCB only. */
  readonly quick?: boolean;
  readonly workers?: number;
  readonly inProcess?: boolean;
  /** Logged steps per run (default 200,000; quick 20,000). */
  readonly horizon?: number;
  /** Seeds 1..n (default 5; quick 2). */
  readonly seeds?: number;
  /** SVD rank (default 50). */
  readonly rank?: number;
  /** Quantile of the bounds rule (default 0.9). */
  readonly quantile?: number;
  /** Budgets (default [1, 5]). */
  readonly epsilons?: readonly number[];
  /** Event-level policies (default {@link DEFAULT_EVENT_POLICIES}; quick: AdaPrivate-TS and -UCB). */
  readonly eventPolicies?: readonly string[];
  /** User-level policies (default AdaPrivate-TS and -UCB). */
  readonly userPolicies?: readonly string[];
  readonly docPath?: string;
  readonly command?: string;
  readonly onProgress?: StepProgress;
}

/** One (policy, privacy unit, eps) row of the study. */
export interface MovielensUserRow {
  readonly policy: string;
  readonly unit: 'event' | 'user';
  /** The accountant that calibrated the noise ('zcdp' or 'rdp': the paper's; 'exact'), null for non-private rows. */
  readonly accountant: 'zcdp' | 'rdp' | 'exact' | null;
  readonly epsilon: number | null;
  readonly ctr: SeedStats;
  /** CTR as a percentage of LinTS's (per seed). */
  readonly percentOfLinTS: SeedStats | null;
  readonly dropped: SeedStats | null;
  readonly effectiveSteps: SeedStats;
  /** Rewards per user in the runs (the seed with the heaviest user), event-level rows. */
  readonly perUser: { readonly median: number; readonly max: number; readonly units: number } | null;
  /** Group privacy for the median and the heaviest user (event-level rows with a zCDP ledger). */
  readonly medianUser: ReturnType<typeof groupGuarantee> | null;
  readonly heaviestUser: ReturnType<typeof groupGuarantee> | null;
  readonly noiseSigma: number | null;
}

/**
 * The event-level policies of the full run: the AdaPrivate family with a zCDP ledger and the two
 * switching-OFUL baselines. Left out by default for time on a shared machine (about 3 CPU-s per cell
 * of 200,000 steps): AdaPrivate-TS-Amp (RDP-accounted: no zCDP group figure), JDP-LinUCB,
 * zCDP-Episodic and DGS-LinUCB; `eventPolicies` (CLI `--event-policies`) runs any list.
 */
export const DEFAULT_EVENT_POLICIES: readonly string[] = [
  'adaprivate-ts',
  'adaprivate-ucb',
  'adaprivate-ts-adaptive',
  'adac-oful-zcdp',
  'rarely-switching-zcdp',
];

/** Policies whose every release is a continuous Gaussian with sensitivity 1 per reward (exact group figure). */
const GAUSSIAN = new Set(['adaprivate-ts', 'adaprivate-ucb', 'adaprivate-ts-adaptive']);

function ratio(a: SeedStats, b: SeedStats): SeedStats | null {
  const by = new Map(b.seeds.map((s, i) => [s, b.perSeed[i]!]));
  const seeds: number[] = [];
  const v: number[] = [];
  a.seeds.forEach((s, i) => {
    const r = by.get(s);
    if (r !== undefined && r > 0) {
      seeds.push(s);
      v.push((100 * a.perSeed[i]!) / r);
    }
  });
  return seeds.length === 0 ? null : seedStats(v, seeds);
}

const ci = (s: SeedStats, scale = 1, digits = 1) =>
  `${formatNumber(scale * s.mean, digits)} [${formatNumber(scale * s.ci95[0], digits)}, ${formatNumber(scale * s.ci95[1], digits)}]`;

/**
 * Runs the MovieLens user-level study.
 *
 * @example
 * await reproduceUserLevelMovielens({ source: 'ml-latest-small/ratings.csv', format: 'movielens-csv', outDir: 'results/ml-users', quick: true });
 */
export async function reproduceUserLevelMovielens(o: UserLevelMovielensOptions): Promise<{
  readonly markdown: string;
  readonly rows: readonly MovielensUserRow[];
  readonly bounds: ContributionBounds;
  readonly timing: { readonly wallSeconds: number; readonly cpuSeconds: number };
}> {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  await mkdir(o.outDir, { recursive: true });
  const quick = o.quick === true;
  const featuresFile = join(o.outDir, 'features.bin');
  const prep = await prepareFeaturesFile({
    source: o.source,
    format: o.format,
    out: featuresFile,
    params: { rank: o.rank ?? 50, construction: 'biased' },
    ...(o.onProgress !== undefined ? { onProgress: o.onProgress } : {}),
  });
  const h = prep.header;
  const k = 5;
  const batchSize = 300;
  const horizon = o.horizon ?? (quick ? 20_000 : 200_000);
  const seeds = Array.from({ length: o.seeds ?? (quick ? 2 : 5) }, (_, i) => i + 1);
  const epsilons = o.epsilons ?? [1, 5];
  const delta = 1e-5;
  // the bounds from the training split only
  const data = await loadRatings(o.source, { format: o.format, skipBadRows: h.params.skipBadRows });
  const train = trainingRatingsPerUser(data, { evalFraction: h.params.evalFraction, seed: h.params.seed });
  const quantile = o.quantile ?? 0.9;
  const bounds = contributionBoundsRule(train, {
    steps: horizon,
    armsPerRound: k,
    batchSize,
    quantile,
    seed: 1,
  });
  const c = bounds.contributionsPerRelease;
  const m = bounds.releasesPerEpoch;
  const envOptions = {
    featuresFile,
    armsPerRound: k,
    horizon,
    warmStart: true,
    userArrivals: 'activity' as const,
  };
  const env = { kind: 'ratings' as const, options: envOptions };
  const base = { env, protocol: 'replay' as const, delta, seeds, horizon, checkpoints: 10 };
  const privateIds =
    o.eventPolicies ?? (quick ? ['adaprivate-ts', 'adaprivate-ucb'] : DEFAULT_EVENT_POLICIES);
  const userIds = o.userPolicies ?? ['adaprivate-ts', 'adaprivate-ucb'];
  const hasAccountant = (id: string) => policyInfo(id as 'adaprivate-ts').options.includes('accountant');
  const hasUnits = (id: string) => policyInfo(id as 'adaprivate-ts').supportsUserLevel;
  const run = (
    name: string,
    policies: { policy: string; params: Record<string, ParamValue> }[],
    eps: number[],
  ) =>
    runExperiment(validateExperimentConfig({ ...base, name, policies, epsilons: eps }), {
      ...(o.workers !== undefined ? { workers: o.workers } : {}),
      ...(o.inProcess === true ? { inProcess: true } : {}),
      cacheDir: join(o.outDir, 'cache'),
      ...(o.onProgress !== undefined ? { onProgress: (p) => o.onProgress!(name, p.done, p.total) } : {}),
    });
  const results: ExperimentResult[] = [];
  const reference = await run(
    'movielens-users-reference',
    [
      { policy: 'lints', params: {} },
      { policy: 'linucb', params: {} },
    ],
    [],
  );
  results.push(reference);
  // the paper's accounting: zCDP, or RDP for the policies whose default is RDP (AdaPrivate-TS-Amp)
  const pin = (id: string): Record<string, ParamValue> => {
    if (!hasAccountant(id)) return {};
    const d = (policyInfo(id as 'adaprivate-ts').defaults as { accountant?: string }).accountant;
    return { accountant: d === 'rdp' ? 'rdp' : 'zcdp' };
  };
  const event = await run(
    'movielens-users-event-level',
    privateIds.map((policy) => ({ policy, params: pin(policy) })),
    [...epsilons],
  );
  results.push(event);
  // user-level: the prior weight is tuned for the noise the policy adds (c sqrt(m) times the event-level sigma)
  const skippedUser = userIds.filter((id) => !hasUnits(id));
  const userResults: ExperimentResult[] = [];
  // the user-level noise of each accountant: sensitivity c per release, m releases per unit
  const userSigma = (eps: number, accountant: 'zcdp' | 'exact') =>
    accountant === 'zcdp'
      ? c * Math.sqrt(m) * sigmaForRho(epsilonToRho(eps, delta))
      : c *
        calibrateGaussian('movielens-users', { epsilon: eps, delta }, { compositions: m, q: 1 }, 'exact')
          .multiplier;
  const userAccountants = (id: string): ('zcdp' | 'exact')[] =>
    hasAccountant(id) ? ['zcdp', 'exact'] : ['zcdp'];
  for (const eps of epsilons) {
    for (const accountant of ['zcdp', 'exact'] as const) {
      const lambda = tunePriorWeight(envOptions, userSigma(eps, accountant), batchSize).weight;
      const policies = userIds
        .filter((id) => hasUnits(id) && userAccountants(id).includes(accountant))
        .map((policy) => ({
          policy,
          params: {
            privacyUnit: 'user',
            contributionsPerRelease: c,
            releasesPerEpoch: m,
            lambda,
            ...(accountant === 'exact' ? { accountant: 'exact' } : pin(policy)),
          } as Record<string, ParamValue>,
        }));
      if (policies.length > 0)
        userResults.push(
          await run(
            `movielens-users-user-level-eps${eps}${accountant === 'exact' ? '-exact' : ''}`,
            policies,
            [eps],
          ),
        );
    }
  }
  results.push(...userResults);
  const refS = summarise(reference.cells);
  const lints = refS.find((s) => s.policy === 'lints')!;
  const rows: MovielensUserRow[] = [];
  const rowOf = (cells: ExperimentResult['cells'], unit: 'event' | 'user') => {
    for (const s of summarise(cells)) {
      const mine = cells.filter((x) => x.config.policy === s.policy && x.config.epsilon === s.epsilon);
      const drops = mine.map((x) => droppedShareOf(x));
      const dropped = drops.every((d): d is number => d !== null)
        ? seedStats(
            drops,
            mine.map((x) => x.seed),
          )
        : null;
      const eff = seedStats(
        mine.map((x) => x.effectiveSteps ?? 0),
        mine.map((x) => x.seed),
      );
      let perUser: MovielensUserRow['perUser'] = null;
      let medianUser: MovielensUserRow['medianUser'] = null;
      let heaviestUser: MovielensUserRow['heaviestUser'] = null;
      const stats = mine.flatMap((x) => (x.units === undefined ? [] : [unitCountStats(x.units)]));
      if (stats.length > 0) {
        // the seed with the heaviest user (the guarantee any seed's heaviest user can count on is its own)
        const worst = stats.reduce((a, b) => (b.max > a.max ? b : a));
        perUser = { median: worst.median, max: worst.max, units: worst.units };
        if (unit === 'event' && s.epsilon !== null) {
          const rho = mine[0]!.privacy?.rho ?? null;
          const gaussian = GAUSSIAN.has(s.policy);
          medianUser = groupGuarantee(rho, Math.max(1, worst.median), delta, gaussian);
          heaviestUser = groupGuarantee(rho, Math.max(1, worst.max), delta, gaussian);
        }
      }
      const accountant: MovielensUserRow['accountant'] =
        s.epsilon === null
          ? null
          : s.params.accountant === 'exact'
            ? 'exact'
            : s.params.accountant === 'rdp'
              ? 'rdp'
              : 'zcdp';
      const noiseSigma =
        s.epsilon === null
          ? null
          : unit === 'user'
            ? userSigma(s.epsilon, accountant === 'exact' ? 'exact' : 'zcdp')
            : mine[0]!.privacy?.rho != null
              ? sigmaForRho(mine[0]!.privacy!.rho!)
              : null;
      rows.push({
        policy: s.policy,
        unit,
        accountant,
        epsilon: s.epsilon,
        ctr: s.meanReward,
        percentOfLinTS: ratio(s.meanReward, lints.meanReward),
        dropped,
        effectiveSteps: eff,
        perUser,
        medianUser,
        heaviestUser,
        noiseSigma,
      });
    }
  };
  rowOf(reference.cells, 'event');
  rowOf(event.cells, 'event');
  for (const r of userResults) rowOf(r.cells, 'user');
  const name = (id: string) => policyInfo(id as 'adaprivate-ts').displayName;
  const guarantee = (g: ReturnType<typeof groupGuarantee> | null) =>
    g === null || g.zcdpEpsilon === null
      ? 'n/a'
      : `${formatNumber(g.zcdpEpsilon, 1)}${g.exactEpsilon === null ? '' : ` (exact ${formatNumber(g.exactEpsilon, 1)})`}`;
  const eventTable: ReportTable = reportTable({
    title: 'Event-level policies: replay CTR and what group privacy promises a person',
    columns: [
      { header: 'policy' },
      { header: 'eps per reward', align: 'right' },
      { header: 'CTR % [95% CI]', align: 'right' },
      { header: '% of LinTS', align: 'right' },
      { header: 'rewards of the median / heaviest user', align: 'right' },
      { header: 'user-level eps, median user', align: 'right' },
      { header: 'user-level eps, heaviest user', align: 'right' },
    ],
    rows: rows
      .filter((r) => r.unit === 'event')
      .map((r) => [
        name(r.policy),
        r.epsilon === null ? 'non-private' : String(r.epsilon),
        ci(r.ctr, 100),
        r.percentOfLinTS === null ? '-' : ci(r.percentOfLinTS),
        r.perUser === null ? '-' : `${r.perUser.median} / ${r.perUser.max}`,
        r.epsilon === null ? 'none' : guarantee(r.medianUser),
        r.epsilon === null ? 'none' : guarantee(r.heaviestUser),
      ]),
    caption: `User-level eps at delta ${delta}: group privacy of the event-level ledger for a user with k rewards learned, (k^2 rho)-zCDP with the classic conversion; "exact": (k mu)-GDP with mu = sqrt(2 rho), for the policies whose releases are Gaussian with sensitivity 1 per reward (AdaPrivate-TS, -UCB, -TS-Adaptive). k is the median and the largest number of rewards one user gave the policy in a run (of the seed with the heaviest user). n/a: no zCDP figure (AdaPrivate-TS-Amp is accounted in RDP).`,
  });
  const userTable: ReportTable = reportTable({
    title: `User-level policies (c = ${c} reward per release, m = ${m} releases per epoch = the run): replay CTR and rewards dropped`,
    columns: [
      { header: 'policy' },
      { header: 'accountant' },
      { header: 'user-level eps', align: 'right' },
      { header: 'CTR % [95% CI]', align: 'right' },
      { header: '% of LinTS', align: 'right' },
      { header: 'rewards dropped % [95% CI]', align: 'right' },
      { header: 'noise std per release', align: 'right' },
    ],
    rows: rows
      .filter((r) => r.unit === 'user')
      .map((r) => [
        name(r.policy),
        r.accountant === 'exact' ? 'exact' : 'zCDP',
        String(r.epsilon),
        ci(r.ctr, 100),
        r.percentOfLinTS === null ? '-' : ci(r.percentOfLinTS),
        r.dropped === null ? 'not reported' : ci(r.dropped, 100),
        r.noiseSigma === null ? '-' : formatNumber(r.noiseSigma, 2),
      ]),
  });
  const cpu = process.cpuUsage(cpu0);
  const timing = {
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  const command =
    o.command ?? `adaprivate reproduce movielens-users --data ${o.source}${quick ? ' --quick' : ''}`;
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`;
  const cellsRun = results.reduce((n, r) => n + r.timings.filter((t) => !t.cached).length, 0);
  const cellsAll = results.reduce((n, r) => n + r.cells.length, 0);
  const markdown = [
    `## User-level privacy: MovieLens by user${quick ? ' (quick run: indicative only)' : ''}`,
    '',
    `Generated by \`${command}\` (adaprivate ${VERSION}, cell cache version ${cacheVersion()}); regenerate with the same command. Source \`${h.source.file}\` (sha256 \`${h.source.sha256}\`), ${h.counts.ratings} ratings, ${h.counts.users} users; rank-${h.params.rank} \`${h.construction.kind}\` features on the ${100 * (1 - h.params.evalFraction)}% training split, warm start as in the MovieLens reproduction (prior weight tuned on the validation part for the noise each policy adds). Replay: ${horizon} logged steps per run, K = ${k}, uniformly random logging, seeds ${seeds.join(', ')}, delta ${delta}. **Users arrive by activity**: each step's user is drawn in proportion to the user's held-out ratings (\`userArrivals: 'activity'\`), so heavy users come often, as in a real log (the MovieLens reproduction above draws users uniformly); every step carries its user as the privacy unit.`,
    '',
    `**Bounds rule (training split only).** ${bounds.users} users with training ratings; a run learns about N = steps / K = ${bounds.rewards} rewards in R = ${bounds.releases} releases of B = ${batchSize}. One run is simulated on the training shares (users drawn in proportion to their training ratings); c = the ${quantile} quantile of a user's rewards within one release (over the user-release pairs) = **${c}**, m = the ${quantile} quantile of the releases a user takes part in (over the users) = **${m}**. The simulation keeps ${formatNumber(100 * bounds.keptShare, 1)}% of the rewards within both bounds (first come, first kept); the runs' actual share dropped is in the table. The user-level noise per release is c sqrt(m) = ${formatNumber(c * Math.sqrt(m), 2)} times the event-level one at the same eps (zCDP: sensitivity c per release, m releases).`,
    '',
    ...(skippedUser.length === 0
      ? []
      : [
          `**Not run in this build:** user-level ${skippedUser.join(', ')} (the policies have no \`privacyUnit\` option).`,
          '',
        ]),
    `### ${eventTable.title}\n`,
    markdownTable(eventTable),
    `\n${eventTable.caption}\n`,
    ...(rows.some((r) => r.unit === 'user')
      ? [`### ${userTable.title}\n`, markdownTable(userTable), '']
      : []),
    `**Verdict in words.** ${movielensWords(rows, c, m)}`,
    '',
    `Run time: ${formatNumber(timing.wallSeconds, 0)} s wall, ${formatNumber(timing.cpuSeconds, 0)} s CPU (user + system, worker threads included) for ${cellsRun} cells run (${cellsAll - cellsRun} from the cache) on ${machine}, shared with other jobs (an idle two-core machine needs about CPU / 2 wall).`,
    '',
  ].join('\n');
  await writeFile(
    join(o.outDir, 'results.json'),
    `${JSON.stringify(
      {
        study: 'user-level-movielens',
        command,
        version: VERSION,
        cacheVersion: cacheVersion(),
        seeds,
        horizon,
        epsilons,
        delta,
        bounds,
        envOptions,
        rows,
        timing,
        experiments: results,
      },
      null,
      1,
    )}\n`,
  );
  await writeFile(join(o.outDir, 'tables.md'), `${markdownTable(eventTable)}\n${markdownTable(userTable)}`);
  await writeFile(join(o.outDir, 'REPORT.md'), markdown);
  if (o.docPath !== undefined) upsertSectionInFile(o.docPath, 'user-level-movielens', markdown);
  return { markdown, rows, bounds, timing };
}

/** What the numbers say, computed from them. */
function movielensWords(rows: readonly MovielensUserRow[], c: number, m: number): string {
  const out: string[] = [];
  const ts1 = rows.find((r) => r.policy === 'adaprivate-ts' && r.unit === 'event' && r.epsilon === 1);
  if (ts1?.perUser != null && ts1.heaviestUser?.zcdpEpsilon != null && ts1.medianUser?.zcdpEpsilon != null) {
    out.push(
      `An event-level eps = 1 (AdaPrivate-TS) promises the median user (${ts1.perUser.median} rewards) user-level eps ${formatNumber(ts1.medianUser.zcdpEpsilon, 1)}${ts1.medianUser.exactEpsilon === null ? '' : ` (exact ${formatNumber(ts1.medianUser.exactEpsilon, 1)})`} and the heaviest user (${ts1.perUser.max} rewards) eps ${formatNumber(ts1.heaviestUser.zcdpEpsilon, 0)}${ts1.heaviestUser.exactEpsilon === null ? '' : ` (exact ${formatNumber(ts1.heaviestUser.exactEpsilon, 0)})`}: next to nothing for a person.`,
    );
  }
  for (const eps of [1, 5]) {
    const u = rows.find(
      (r) =>
        r.policy === 'adaprivate-ts' && r.unit === 'user' && r.epsilon === eps && r.accountant !== 'exact',
    );
    const x = rows.find(
      (r) =>
        r.policy === 'adaprivate-ts' && r.unit === 'user' && r.epsilon === eps && r.accountant === 'exact',
    );
    const e = rows.find((r) => r.policy === 'adaprivate-ts' && r.unit === 'event' && r.epsilon === eps);
    if (u !== undefined && e !== undefined) {
      out.push(
        `At user-level eps = ${eps} with c = ${c}, m = ${m}, AdaPrivate-TS reaches CTR ${ci(u.ctr, 100)}% against ${ci(e.ctr, 100)}% for the event-level policy at eps = ${eps} per reward${u.dropped === null ? '' : `, dropping ${formatNumber(100 * u.dropped.mean, 1)}% of the rewards`}${x === undefined || x.noiseSigma === null || u.noiseSigma === null ? '' : `; with the exact accountant (noise std ${formatNumber(x.noiseSigma, 2)} instead of ${formatNumber(u.noiseSigma, 2)}) it reaches ${ci(x.ctr, 100)}%`}.`,
      );
    }
  }
  if (out.length === 0)
    out.push('No user-level policy ran in this build; only the event-level figures are shown.');
  const lints = rows.find((r) => r.policy === 'lints');
  const priv = rows.filter((r) => r.epsilon !== null);
  if (lints !== undefined && priv.length > 0) {
    const gap = Math.max(...priv.map((r) => 100 * (lints.ctr.mean - r.ctr.mean)));
    out.push(
      `The non-private LinTS reaches ${ci(lints.ctr, 100)}%; no private row is more than ${formatNumber(gap, 1)} points below it: the warm start (a prior fitted on the training split, weighted for each policy's noise) carries every policy here, so this log shows what a person is promised and what the bounds drop, not a cost of the noise in CTR (the synthetic study, cold-started, does).`,
    );
  }
  return out.join(' ');
}
