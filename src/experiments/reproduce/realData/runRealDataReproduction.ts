import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { basename, dirname, join } from 'node:path';
import {
  type FeatureConstruction,
  prepareFeaturesFile,
  type RatingsFormat,
  type StepProgress,
  tunePriorWeight,
} from '../../../data/index.js';
import { policyIds, policyInfo } from '../../../policies/index.js';
import { epsilonToRho, sigmaForRho } from '../../../privacy/index.js';
import { VERSION } from '../../../version.js';
import { cacheVersion } from '../../codeFingerprint.js';
import { formatNumber } from '../../report/format.js';
import { markdownTable } from '../../report/markdownTable.js';
import { markedSections, upsertSectionInFile } from '../../report/markedSections.js';
import { runExperiment } from '../../runExperiment.js';
import { summarise } from '../../summarise.js';
import type { ExperimentConfig, ExperimentResult, SettingSummary } from '../../types.js';
import { withExactAccountingLine } from '../exactAccounting/withExactAccountingLine.js';
import { bottomLine, claimMarkdown, claimsTable } from '../reproductionMarkdown.js';
import { realDataBaseConfig } from './realDataBaseConfig.js';
import { findSetting, realDataClaims } from './realDataClaims.js';
import { realDataCommand } from './realDataCommand.js';
import { realDataCurveChart } from './realDataCurveChart.js';
import { realDataReferences } from './realDataReferences.js';

/** Options of {@link runRealDataReproduction}. */
export interface RealDataReproductionOptions {
  readonly dataset: 'movielens' | 'jester';
  readonly source: string;
  readonly format: RatingsFormat;
  readonly outDir: string;
  /** Small grid (eps 1 and 5, 2 seeds, short horizon). */
  readonly quick: boolean;
  readonly workers?: number;
  readonly inProcess?: boolean;
  /** Override the replay log length (steps). */
  readonly horizon?: number;
  readonly seeds?: number;
  readonly rank?: number;
  /** Arm feature construction of the main runs (default 'biased'; docs/data.md). */
  readonly construction?: FeatureConstruction;
  /** Also run the feature/prior ablation at eps = 1 (default: true unless quick). */
  readonly ablation?: boolean;
  /**
   * Start every policy from the ridge prior of the training split (`RatingsEnvOptions.warmStart`).
   * Default: true for MovieLens (SPEC section 5), false for Jester (the SPEC gives no warm start there).
   */
  readonly warmStart?: boolean;
  /**
   * Also write the Markdown section to this file, with the chart in `img/reproduction/` beside it
   * (e.g. docs/REPRODUCTION-movielens.md and docs/img/reproduction/movielens-ctr-over-time-eps1.svg).
   */
  readonly docPath?: string;
  readonly onProgress?: StepProgress;
}

function rewardCell(s: SettingSummary | undefined): string {
  if (s === undefined) return 'n/a';
  const m = s.meanReward;
  return `${formatNumber(m.mean)} [${formatNumber(m.ci95[0])}, ${formatNumber(m.ci95[1])}]`;
}

/**
 * Runs the paper's real-data experiments (SPEC section 6) on one dataset with the replay protocol
 * (Li et al. 2011, uniformly random logging): (1) every policy at every epsilon, (2) the
 * amplification rate sweep q in {0.1, 0.3, 0.5, 0.7} at eps 1 and 5, (3) the CTR-over-time curve at
 * eps = 1. Writes features, results JSON, curves CSV and a markdown report into `outDir`, and returns
 * the markdown section.
 * @example
 * await runRealDataReproduction({ dataset: 'jester', source: 'jester-data-1.csv', format: 'jester-1', outDir: 'out', quick: true });
 */
export async function runRealDataReproduction(
  o: RealDataReproductionOptions,
): Promise<{ markdown: string; results: ExperimentResult[] }> {
  await mkdir(o.outDir, { recursive: true });
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const construction = o.construction ?? 'biased';
  const prepare = (kind: FeatureConstruction, file: string) =>
    prepareFeaturesFile({
      source: o.source,
      format: o.format,
      out: file,
      params: { rank: o.rank ?? 50, construction: kind },
      ...(o.onProgress !== undefined ? { onProgress: o.onProgress } : {}),
    });
  const featuresFile = join(
    o.outDir,
    construction === 'biased' ? 'features.bin' : `features-${construction}.bin`,
  );
  const prep = await prepare(construction, featuresFile);
  const horizon = o.horizon ?? (o.quick ? 5_000 : o.dataset === 'movielens' ? 200_000 : 150_000);
  const seeds = Array.from({ length: o.seeds ?? (o.quick ? 2 : 5) }, (_, i) => i + 1);
  const epsilons = o.quick ? [1, 5] : [0.5, 1, 2, 5, 10];
  const warmStart = o.warmStart ?? o.dataset === 'movielens';
  const base = realDataBaseConfig(featuresFile, horizon, seeds, warmStart);
  const env = base.env;
  const k = env.options.armsPerRound;
  const run = (c: ExperimentConfig): Promise<ExperimentResult> =>
    runExperiment(c, {
      ...(o.workers !== undefined ? { workers: o.workers } : {}),
      ...(o.inProcess === true ? { inProcess: true } : {}),
      cacheDir: join(o.outDir, 'cache'),
    });
  const main = await run({
    ...base,
    name: `${o.dataset}-all-policies`,
    policies: policyIds.map((policy) => ({ policy, params: {} })),
    epsilons,
  });
  const amp = await run({
    ...base,
    name: `${o.dataset}-amplification`,
    policies: [
      { policy: 'adaprivate-ts', params: {} },
      { policy: 'adaprivate-ts-amp', params: { q: [0.1, 0.3, 0.5, 0.7] } },
    ],
    epsilons: [1, 5],
  });
  // ablation at eps = 1: feature construction x prior weight (MovieLens warm start)
  const ablationPolicies = ['linucb', 'lints', 'adaprivate-ts', 'adaprivate-ucb'] as const;
  const ablationRows: { label: string; envOptions: Record<string, unknown>; result: ExperimentResult }[] = [];
  const doAblation = o.ablation ?? !o.quick;
  if (doAblation) {
    const other: FeatureConstruction = construction === 'biased' ? 'unit-product' : 'biased';
    const otherFile = join(o.outDir, other === 'biased' ? 'features.bin' : `features-${other}.bin`);
    await prepare(other, otherFile);
    const variants = warmStart
      ? [
          { label: `${other}, prior weight 1`, options: { featuresFile: otherFile, priorWeight: 1 } },
          { label: `${construction}, prior weight 1`, options: { featuresFile, priorWeight: 1 } },
          { label: `${construction}, tuned prior weight`, options: { featuresFile } },
        ]
      : [
          { label: `${other}, cold start`, options: { featuresFile: otherFile } },
          { label: `${construction}, cold start`, options: { featuresFile } },
        ];
    for (const v of variants) {
      const options = { ...env.options, ...v.options };
      const result = await run({
        ...base,
        env: { kind: 'ratings', options },
        name: `${o.dataset}-ablation`,
        policies: ablationPolicies.map((policy) => ({ policy, params: {} })),
        epsilons: [1],
      });
      ablationRows.push({ label: v.label, envOptions: options, result });
    }
  }
  await writeFile(
    join(o.outDir, 'results.json'),
    `${JSON.stringify({ main, amp, ablation: ablationRows.map((r) => ({ label: r.label, result: r.result })) }, null, 1)}\n`,
  );
  const references = (file: string, kind: string) => {
    const r = realDataReferences({ ...env.options, featuresFile: file });
    return [kind, formatNumber(r.random), formatNumber(r.greedyPrior), formatNumber(r.best)];
  };
  const refTable = {
    title: `${o.dataset}: reference CTR levels on ${(20_000).toLocaleString('en-US')} bandit rounds (full information, no learning)`,
    columns: [
      { header: 'features' },
      { header: 'random of K', align: 'right' as const },
      { header: 'greedy prior', align: 'right' as const },
      { header: 'best of K', align: 'right' as const },
    ],
    rows: [
      references(featuresFile, construction),
      ...ablationRows
        .filter((r) => r.envOptions.featuresFile !== featuresFile)
        .map((r) => references(r.envOptions.featuresFile as string, r.label.split(',')[0]!)),
    ],
  };
  const weightTable = warmStart
    ? {
        title: `${o.dataset}: prior weight chosen on the validation part (rule: docs/data.md)`,
        columns: [
          { header: 'budget' },
          { header: 'sigma per release', align: 'right' as const },
          { header: 'prior weight', align: 'right' as const },
        ],
        rows: [null, ...epsilons].map((e) => {
          const sigma = e === null ? 0 : sigmaForRho(epsilonToRho(e, 1e-5));
          const w = tunePriorWeight(env.options, sigma, 300).weight;
          return [e === null ? 'non-private' : `eps = ${e}`, formatNumber(sigma, 3), String(w)];
        }),
      }
    : null;
  const ablationTable =
    ablationRows.length === 0
      ? null
      : {
          title: `${o.dataset}: ablation at eps = 1 (replay CTR, ${seeds.length} seeds)`,
          columns: [
            { header: 'features, prior' },
            ...ablationPolicies.map((p) => ({ header: policyInfo(p).displayName, align: 'right' as const })),
          ],
          rows: ablationRows.map((r) => {
            const ss = summarise(r.result.cells);
            return [r.label, ...ablationPolicies.map((p) => rewardCell(findSetting(ss, p, 1)))];
          }),
        };
  const cpu = process.cpuUsage(cpu0);
  // time accumulates over the invocations that computed this directory's cells with this code (a
  // resumed or re-rendered run adds its own share), kept in timing.json; cells cached by other code
  // are never reused (their keys differ), so time spent under another cache version starts over
  const timingPath = join(o.outDir, 'timing.json');
  const version = cacheVersion();
  const stored = existsSync(timingPath)
    ? (JSON.parse(await readFile(timingPath, 'utf8')) as {
        wallSeconds: number;
        cpuSeconds: number;
        invocations: number;
        cacheVersion?: string;
      })
    : null;
  const before =
    stored !== null && stored.cacheVersion === version
      ? stored
      : { wallSeconds: 0, cpuSeconds: 0, invocations: 0, cacheVersion: version };
  const cpuSeconds = before.cpuSeconds + (cpu.user + cpu.system) / 1e6;
  const wallSeconds = before.wallSeconds + (performance.now() - wall0) / 1000;
  const invocations = before.invocations + 1;
  await writeFile(
    timingPath,
    `${JSON.stringify({ ...before, wallSeconds, cpuSeconds, invocations }, null, 2)}\n`,
  );
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`;

  const mainS = summarise(main.cells);
  const ampS = summarise(amp.cells);
  // table 1: policies x eps (CTR over effective steps)
  const t1 = {
    title: `${o.dataset}: replay CTR by policy and epsilon`,
    columns: [
      { header: 'policy' },
      ...epsilons.map((e) => ({ header: `eps=${e}`, align: 'right' as const })),
    ],
    rows: policyIds.map((p) => [
      policyInfo(p).displayName,
      ...epsilons.map((e) => rewardCell(findSetting(mainS, p, e))),
    ]),
  };
  const effective = main.cells.map((c) => c.effectiveSteps ?? 0);
  // table 2: amplification
  const t2 = {
    title: `${o.dataset}: amplification (AdaPrivate-TS-Amp) vs AdaPrivate-TS`,
    columns: [
      { header: 'setting' },
      { header: 'eps=1', align: 'right' as const },
      { header: 'eps=5', align: 'right' as const },
    ],
    rows: [
      [
        'AdaPrivate-TS',
        rewardCell(findSetting(ampS, 'adaprivate-ts', 1)),
        rewardCell(findSetting(ampS, 'adaprivate-ts', 5)),
      ],
      ...[0.1, 0.3, 0.5, 0.7].map((q) => [
        `Amp q=${q}`,
        rewardCell(findSetting(ampS, 'adaprivate-ts-amp', 1, q)),
        rewardCell(findSetting(ampS, 'adaprivate-ts-amp', 5, q)),
      ]),
    ],
  };
  // curve: CTR over time at eps=1
  const curveRows: string[] = ['policy,round,ctr_mean,ctr_lo,ctr_hi'];
  for (const s of mainS) {
    if (s.epsilon !== 1 && s.epsilon !== null) continue;
    for (const pt of s.curve)
      curveRows.push(`${s.policy},${pt.round},${pt.reward.mean},${pt.reward.lo},${pt.reward.hi}`);
  }
  await writeFile(join(o.outDir, 'ctr-over-time-eps1.csv'), `${curveRows.join('\n')}\n`);
  // chart: CTR over time at eps = 1 with 95% CI bands
  const chartFile = `${o.dataset}-ctr-over-time-eps1.svg`;
  const svg = await realDataCurveChart(o.dataset, mainS);
  if (svg !== null) await writeFile(join(o.outDir, chartFile), svg);
  // the level rule's null: the CTR reached without learning from the protected rewards
  const noLearning = realDataReferences({ ...env.options, featuresFile });
  const claims = realDataClaims({
    dataset: o.dataset,
    epsilons,
    main: mainS,
    amp: ampS,
    levelNull: warmStart ? noLearning.greedyPrior : noLearning.random,
  });
  const h = prep.header;
  const section = (imgPath: string | null): string =>
    [
      `## Real data: ${o.dataset}${o.quick ? ' (quick run)' : ''}`,
      '',
      bottomLine(claims, o.quick ? 'quick' : 'full'),
      '',
      `Source \`${h.source.file}\` (sha256 \`${h.source.sha256}\`), ${h.counts.ratings} ratings, ${h.counts.users} users, ${h.counts.items} items; rank-${h.params.rank} \`${h.construction.kind}\` features (d = ${h.construction.kind === 'biased' ? h.params.rank + 2 : h.params.rank}, docs/data.md) on a ${100 * (1 - h.params.evalFraction)}% training split (${h.counts.validation} of its ratings kept aside as the validation part); bandit on the held-out ${h.counts.eval} ratings. Protocol: Li et al. replay, uniformly random logging over K=${k} candidates, ${horizon} logged steps per run, seeds ${seeds.join(', ')}, delta 1e-5, policies at their default settings (not tuned), ${warmStart ? 'warm start (prior mean theta_0 = ridge fit of the training split, prior weight tuned on its validation part)' : 'cold start (theta_0 = 0)'}. Effective steps per run: ${Math.min(...effective)}-${Math.max(...effective)}. Reward: ${h.defaultRewardMode === 'threshold' ? `1{rating >= ${h.defaultThreshold}}` : 'rating scaled to [0, 1]'}. Mean CTR over effective steps with 95% CI over seeds. Generated by \`${realDataCommand(o)}\` (adaprivate ${VERSION}). Run time: ${formatNumber(wallSeconds, 0)} s wall, ${formatNumber(cpuSeconds, 0)} s CPU (user + system, worker threads included; summed over the ${invocations} invocation(s) that built this output, resumed runs and re-renders included) on ${machine}, shared with other jobs (wall time is not an idle-machine figure).`,
      '',
      `**Privacy model.** The rewards of the bandit (held-out) ratings are protected; the training split that gives the features, the prior mean theta_0 and the prior weight is treated as public, as in the paper's warm start, so the guarantee of every private policy is unchanged by them (docs/privacy.md).`,
      '',
      ...(o.dataset === 'movielens' && h.counts.ratings < 20_000_000
        ? [
            `**Not the paper's dataset.** The paper uses MovieLens-25M (25,000,095 ratings); this run uses the ${h.counts.ratings.toLocaleString('en-US')}-rating file above (the only MovieLens data on this machine), so CTR levels are not directly comparable. The command takes the ml-25m directory unchanged: \`adaprivate reproduce movielens --data ml-25m\`.\n`,
          ]
        : []),
      markdownTable(claimsTable(claims)),
      ...claims.map((c) => claimMarkdown(c, () => '', 3)),
      `### Tables\n`,
      markdownTable(refTable),
      ...(weightTable === null ? [] : [markdownTable(weightTable)]),
      ...(ablationTable === null ? [] : [markdownTable(ablationTable)]),
      markdownTable(t1),
      markdownTable(t2),
      imgPath === null
        ? 'CTR over time at eps=1: no curve (no checkpoints).'
        : `![CTR over time at eps = 1](${imgPath})\n\nThe curve's numbers: \`ctr-over-time-eps1.csv\` in the output directory.`,
      '',
    ].join('\n');
  const markdown = section(svg === null ? null : chartFile);
  if (o.docPath !== undefined) {
    const img = join(dirname(o.docPath), 'img', 'reproduction');
    if (svg !== null) {
      await mkdir(img, { recursive: true });
      await writeFile(join(img, chartFile), svg);
    }
    const docSection = section(svg === null ? null : `img/reproduction/${chartFile}`);
    // the section in its own file, and the same section inside REPRODUCTION.md beside it when that
    // document exists (`--doc docs/REPRODUCTION.md` only updates the section there)
    const reproductionDoc = join(dirname(o.docPath), 'REPRODUCTION.md');
    // the marked sections other commands own in that file (e.g. `reproduce movielens-users`) stay
    if (basename(o.docPath) !== 'REPRODUCTION.md') {
      const kept = existsSync(o.docPath) ? markedSections(await readFile(o.docPath, 'utf8')) : [];
      await writeFile(
        o.docPath,
        withExactAccountingLine(
          kept.length === 0 ? docSection : `${docSection.trimEnd()}\n\n${kept.join('\n')}`,
        ),
      );
    } else if (!existsSync(reproductionDoc)) await writeFile(reproductionDoc, '# Reproduction\n');
    upsertSectionInFile(reproductionDoc, `real-data-${o.dataset}`, docSection);
  }
  await writeFile(join(o.outDir, 'REPORT.md'), markdown);
  return { markdown, results: [main, amp] };
}
