/**
 * `reproduceSynthetic`: runs every synthetic experiment of the paper (main table default and
 * tuned, TS vs UCB tests, amplification, ablation, robustness, group privacy), then writes results
 * (JSON, CSV), Markdown tables, SVG charts, a self-contained HTML report and REPRODUCTION.md.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { VERSION } from '../../version.js';
import { CellPool } from '../CellPool.js';
import { canonicalJson } from '../canonicalJson.js';
import { tableToCsv } from '../report/csv.js';
import { formatNumber } from '../report/format.js';
import { buildHtmlReport, type ReportSection } from '../report/htmlReport.js';
import { markdownSection, markdownTable } from '../report/markdownTable.js';
import { markedSections } from '../report/markedSections.js';
import type { ReportTable } from '../report/ReportTable.js';
import { renderSvg } from '../report/renderSvg.js';
import { runExperiment } from '../runExperiment.js';
import type { ExperimentConfig, ExperimentResult, RunProgress } from '../types.js';
import { writeAtomic } from '../writeAtomic.js';
import { writeResultsCsv } from '../writeResultsCsv.js';
import { writeResultsJson } from '../writeResultsJson.js';
import { claimCharts } from './claimCharts.js';
import { withExactAccountingLine } from './exactAccounting/withExactAccountingLine.js';
import {
  claimPartsTable,
  claimsTable,
  type RunTiming,
  reproductionMarkdown,
} from './reproductionMarkdown.js';
import { analyseSynthetic, type SyntheticAnalysis, type SyntheticResults } from './syntheticAnalysis.js';
import { syntheticCharts } from './syntheticCharts.js';
import { type Claim, syntheticClaims } from './syntheticClaims.js';
import { syntheticPlan } from './syntheticPlan.js';
import {
  POWER_HALF_WIDTH,
  POWER_MAX_STAGES,
  POWER_PLAN_HALF_WIDTH,
  powerAmpPlan,
  powerClaims,
  powerHalfWidths,
  powerPlan,
  powerSeedsNeeded,
} from './syntheticPower.js';
import { type SyntheticScaleName, syntheticScale } from './syntheticScale.js';
import {
  ablationTable,
  amplificationTable,
  groupTable,
  mainDefaultTable,
  mainTunedTable,
  robustnessTables,
  tsVsUcbTable,
  tuningGridTable,
} from './syntheticTables.js';

export interface ReproduceSyntheticOptions {
  /** `'full'` (the paper's sizes), `'quick'` (under a minute) or `'tiny'` (tests). Default `'full'`. */
  readonly scale?: SyntheticScaleName;
  /** Output directory (created). Default `'results/synthetic'`. */
  readonly outDir?: string;
  /** Worker threads; default: all cores. */
  readonly workers?: number;
  /** Run cells in the calling thread (tests, debugging). Default false. */
  readonly inProcess?: boolean;
  /** Cache directory for finished cells (resume after interruption). Default `<outDir>/cache`; `null`: no cache. */
  readonly cacheDir?: string | null;
  /**
   * Also write the document to this Markdown path, with its charts in `<dir>/img/reproduction/`
   * (e.g. `'docs/REPRODUCTION.md'`). Default: not written (the copy in `outDir` always is).
   */
  readonly docPath?: string;
  /** The command line recorded in the outputs. Default `'adaprivate reproduce synthetic'`. */
  readonly command?: string;
  /** Called as each study starts and progresses. */
  readonly onProgress?: (study: string, p: RunProgress) => void;
  readonly signal?: AbortSignal;
  /**
   * Re-render from the results files already in `outDir` (`<study>/results.json`) instead of
   * running: for new report code on a finished run. Refused when a file's config differs from the
   * plan. Default false.
   */
  readonly fromResults?: boolean;
  /**
   * Also run the power comparisons (TS vs UCB by eps, amplification q = 0.3 vs none) on this many
   * seeds, or `'auto'`: the seeds that the main run's spread says give a 95% CI half-width below
   * 0.5 points. Default: none.
   */
  readonly powerSeeds?: number | 'auto';
}

export interface SyntheticReproduction {
  readonly analysis: SyntheticAnalysis;
  readonly claims: readonly Claim[];
  readonly tables: readonly ReportTable[];
  /** The main default table as Markdown (what the CLI prints). */
  readonly mainTableMarkdown: string;
  readonly timing: RunTiming;
  /** Paths written. */
  readonly files: readonly string[];
}

function analysisSeeds(r: ExperimentResult): number {
  return r.config.seeds.length;
}

/** The studies, in run order (cheap ones first so a partial run still has the main table). */
const STUDIES = ['main', 'amplification', 'robustness', 'group', 'tuning'] as const;

/**
 * Runs the synthetic reproduction and writes every output.
 *
 * @example
 * const r = await reproduceSynthetic({ scale: 'quick', outDir: 'results/synthetic' });
 * r.claims.length; // returns 7
 */
export async function reproduceSynthetic(
  options: ReproduceSyntheticOptions = {},
): Promise<SyntheticReproduction> {
  // one pool of worker threads for every study and the power runs (see CellPool)
  const pool =
    options.inProcess === true || options.fromResults === true
      ? null
      : new CellPool(options.workers ?? availableParallelism());
  // a failed study stops the others
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) stop.abort();
  try {
    return await reproduceOnPool(options, pool, stop);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await pool?.destroy();
  }
}

async function reproduceOnPool(
  options: ReproduceSyntheticOptions,
  pool: CellPool | null,
  stop: AbortController,
): Promise<SyntheticReproduction> {
  const scale = syntheticScale(options.scale ?? 'full');
  const outDir = options.outDir ?? 'results/synthetic';
  const cacheDir = options.cacheDir === undefined ? join(outDir, 'cache') : options.cacheDir;
  const command = options.command ?? 'adaprivate reproduce synthetic';
  const plan = syntheticPlan(scale);
  mkdirSync(outDir, { recursive: true });
  const files: string[] = [];
  const write = (path: string, text: string) => {
    writeAtomic(path, text);
    files.push(path);
  };

  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const results: Partial<Record<(typeof STUDIES)[number], ExperimentResult>> = {};
  const runOrLoad = async (
    config: ExperimentConfig,
    dir: string,
    runIfMissing = false,
  ): Promise<ExperimentResult> => {
    if (options.fromResults !== true) return run(config);
    const path = join(dir, 'results.json');
    // a run that may be extended (the power runs) is run, resuming from the cache, when its stored
    // results are missing or come from another plan
    if (
      runIfMissing &&
      (!existsSync(path) ||
        canonicalJson((JSON.parse(readFileSync(path, 'utf8')) as { config: unknown }).config) !==
          canonicalJson(config))
    )
      return run(config);
    if (!existsSync(path)) throw new Error(`reproduce synthetic --from-results: ${path} does not exist.`);
    const stored = JSON.parse(readFileSync(path, 'utf8')) as Omit<ExperimentResult, 'timings'>;
    if (canonicalJson(stored.config) !== canonicalJson(config)) {
      throw new Error(
        `reproduce synthetic --from-results: ${path} was produced by a different plan (its config differs).`,
      );
    }
    const tPath = join(dir, 'timings.json');
    const timings = existsSync(tPath)
      ? (JSON.parse(readFileSync(tPath, 'utf8')) as ExperimentResult['timings'])
      : [];
    return { ...stored, timings };
  };
  const run = (
    config: ExperimentConfig,
    onProgress = (p: RunProgress) => options.onProgress?.(config.name, p),
  ): Promise<ExperimentResult> =>
    runExperiment(config, {
      ...(options.workers === undefined ? {} : { workers: options.workers }),
      ...(cacheDir === null ? {} : { cacheDir }),
      ...(options.inProcess === undefined ? {} : { inProcess: options.inProcess }),
      ...(pool === null ? {} : { pool }),
      signal: stop.signal,
      onProgress,
    });
  // the studies run together on the pool (the most expensive cells first, no idle thread between
  // studies); progress is reported for all of them at once
  const progress = new Map<string, RunProgress>();
  const studyProgress = (study: string) => (p: RunProgress) => {
    progress.set(study, p);
    let done = 0;
    let total = 0;
    let cached = 0;
    for (const q of progress.values()) {
      done += q.done;
      total += q.total;
      cached += q.cached;
    }
    options.onProgress?.(STUDIES.join(', '), { done, total, cached });
  };
  const settled = await Promise.allSettled(
    STUDIES.map((study) => {
      const r =
        options.fromResults === true
          ? runOrLoad(plan[study], join(outDir, study))
          : run(plan[study], studyProgress(study));
      r.catch(() => stop.abort());
      return r;
    }),
  );
  // the first failure in study order (an abort of the others is its consequence)
  const failed = settled.find(
    (s): s is PromiseRejectedResult => s.status === 'rejected' && (s.reason as Error)?.name !== 'AbortError',
  );
  const firstRejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  if (firstRejected !== undefined) throw firstRejected.reason;
  STUDIES.forEach((study, i) => {
    const dir = join(outDir, study);
    const result = (settled[i] as PromiseFulfilledResult<ExperimentResult>).value;
    results[study] = result;
    mkdirSync(dir, { recursive: true });
    writeResultsJson(result, join(dir, 'results.json'), join(dir, 'timings.json'));
    writeResultsCsv(result, dir);
    files.push(
      join(dir, 'results.json'),
      join(dir, 'timings.json'),
      join(dir, 'cells.csv'),
      join(dir, 'checkpoints.csv'),
    );
  });
  const wallSeconds = (performance.now() - t0) / 1000;
  let cellsRun = 0;
  let cellsCached = 0;
  let cellsShared = 0;
  let rounds = 0;
  const seen = new Set<string>();
  for (const study of STUDIES) {
    const r = results[study]!;
    r.timings.forEach((t, i) => {
      if (seen.has(t.key)) return;
      seen.add(t.key);
      if (t.cached) cellsCached++;
      else if (t.shared === true) cellsShared++;
      else {
        cellsRun++;
        rounds += r.cells[i]!.config.horizon;
      }
    });
  }
  const workers = options.inProcess === true ? 1 : (options.workers ?? availableParallelism());
  const summaryPath = join(outDir, 'summary.json');
  const recorded =
    options.fromResults === true && existsSync(summaryPath)
      ? ((JSON.parse(readFileSync(summaryPath, 'utf8')) as { timing?: RunTiming }).timing ?? null)
      : null;
  // a re-render keeps the timing of the run that computed the results
  const timing: RunTiming = recorded ?? {
    wallSeconds,
    cellsRun,
    cellsCached,
    ...(cellsShared > 0 ? { cellsShared } : {}),
    rounds,
    roundsPerSecond: wallSeconds > 0 ? rounds / wallSeconds : 0,
    workers,
    cpuSeconds: (() => {
      const c = process.cpuUsage(cpu0);
      return (c.user + c.system) / 1e6;
    })(),
    machine: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`,
  };

  // power runs of the two comparisons the paper calls significant
  let powerResults: ExperimentResult[] = [];
  let powerNote = '';
  if (options.powerSeeds !== undefined) {
    const auto = options.powerSeeds === 'auto';
    const estimateText = (need: ReturnType<typeof powerSeedsNeeded>) =>
      need.perComparison
        .map((c) => `${c.label}: sd ${formatNumber(c.std, 2)} points, ${c.n} seeds`)
        .join('; ');
    const first = powerSeedsNeeded(scale, [results.main!, results.amplification!], POWER_PLAN_HALF_WIDTH);
    let seeds = auto
      ? first.seeds
      : { tsVsUcb: options.powerSeeds as number, amplification: options.powerSeeds as number };
    const stages: string[] = auto
      ? [
          `planned from the ${analysisSeeds(results.main!)}-seed spread of each comparison for a half-width of ${POWER_PLAN_HALF_WIDTH} points (a margin under the ${POWER_HALF_WIDTH}-point target, as the spread is itself estimated), the largest need of each group used for the group: ${estimateText(first)}; gave ${seeds.tsVsUcb} and ${seeds.amplification} seeds`,
        ]
      : [`fixed by --power ${options.powerSeeds}`];
    const p0 = performance.now();
    const c0 = process.cpuUsage();
    for (let stage = 1; ; stage++) {
      // both comparisons at once in the one pool: no idle thread at the end of the first
      const stagePlans = [
        ['power', powerPlan(scale, seeds.tsVsUcb)],
        ['power-amplification', powerAmpPlan(scale, seeds.amplification)],
      ] as const;
      powerResults = await Promise.all(
        stagePlans.map(([name, config]) => runOrLoad(config, join(outDir, name), true)),
      );
      stagePlans.forEach(([name], i) => {
        const dir = join(outDir, name);
        mkdirSync(dir, { recursive: true });
        writeResultsJson(powerResults[i]!, join(dir, 'results.json'), join(dir, 'timings.json'));
        if (stage === 1) files.push(join(dir, 'results.json'));
      });
      if (!auto || stage === POWER_MAX_STAGES) break;
      // a group whose widest half-width still reaches the target is extended (the run resumes from
      // its cache), re-planned from the power run's own, larger-sample spread
      const wide = powerHalfWidths(scale, powerResults);
      const again = powerSeedsNeeded(scale, powerResults, POWER_PLAN_HALF_WIDTH);
      const next = {
        tsVsUcb:
          wide.tsVsUcb >= POWER_HALF_WIDTH ? Math.max(seeds.tsVsUcb, again.seeds.tsVsUcb) : seeds.tsVsUcb,
        amplification:
          wide.amplification >= POWER_HALF_WIDTH
            ? Math.max(seeds.amplification, again.seeds.amplification)
            : seeds.amplification,
      };
      if (next.tsVsUcb === seeds.tsVsUcb && next.amplification === seeds.amplification) break;
      stages.push(
        `widest half-width ${formatNumber(wide.tsVsUcb, 2)} (TS vs UCB) and ${formatNumber(wide.amplification, 2)} (amplification) points on ${seeds.tsVsUcb} and ${seeds.amplification} seeds, so re-planned from that run's spread (${estimateText(again)}) and extended to ${next.tsVsUcb} and ${next.amplification} seeds`,
      );
      seeds = next;
    }
    const cpu = process.cpuUsage(c0);
    const wide = powerHalfWidths(scale, powerResults);
    powerNote = `Seeds: ${seeds.tsVsUcb} for TS vs UCB, ${seeds.amplification} for amplification (${stages.join('; then ')}). Widest 95% CI half-width: ${formatNumber(wide.tsVsUcb, 2)} points (TS vs UCB), ${formatNumber(wide.amplification, 2)} points (amplification); target below ${POWER_HALF_WIDTH}.${options.fromResults === true ? '' : ` Power run: ${formatNumber((performance.now() - p0) / 1000, 0)} s wall, ${formatNumber((cpu.user + cpu.system) / 1e6, 0)} s CPU in this process (worker threads included).`}`;
  }

  const analysis = analyseSynthetic(scale, plan, results as SyntheticResults);
  const claims = [
    ...syntheticClaims(analysis),
    ...(powerResults.length === 0
      ? []
      : powerClaims(scale, powerResults).map((c) => ({ ...c, note: powerNote }))),
  ];
  const tables: ReportTable[] = [
    mainDefaultTable(analysis),
    mainTunedTable(analysis),
    tsVsUcbTable(analysis),
    amplificationTable(analysis),
    ablationTable(analysis),
    ...robustnessTables(analysis),
    groupTable(analysis),
  ];
  const gridTable = tuningGridTable(analysis);
  const tableNames = [
    'main-default',
    'main-tuned',
    'ts-vs-ucb',
    'amplification',
    'ablation',
    'robustness-batch-size',
    'robustness-v',
    'robustness-decay',
    'group-privacy',
  ];
  tables.forEach((t, i) => {
    write(join(outDir, `${tableNames[i]}.csv`), tableToCsv(t));
  });
  write(join(outDir, 'tuning-grid.csv'), tableToCsv(gridTable));
  write(join(outDir, 'tables.md'), tables.map((t) => markdownSection(t, 2)).join('\n'));

  const charts = [...claimCharts(claims), ...syntheticCharts(analysis)];
  const svgs = new Map<string, string>();
  mkdirSync(join(outDir, 'svg'), { recursive: true });
  for (const c of charts) {
    const svg = await renderSvg(c.spec);
    svgs.set(c.name, svg);
    write(join(outDir, 'svg', `${c.name}.svg`), svg);
  }

  const summary = {
    version: VERSION,
    command,
    scale,
    seeds: analysis.seeds,
    timing,
    claims,
    tables: tables.map((t, i) => ({
      name: tableNames[i],
      title: t.title,
      columns: t.columns.map((c) => c.header),
      rows: t.raw,
    })),
    configs: Object.fromEntries(STUDIES.map((s) => [s, plan[s]])),
  };
  write(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);

  const docInput = { analysis, claims, tables, charts, version: VERSION, command, timing };
  write(join(outDir, 'REPRODUCTION.md'), reproductionMarkdown({ ...docInput, imgDir: 'svg' }));
  if (options.docPath !== undefined) {
    const docDir = join(options.docPath, '..');
    const imgDir = join(docDir, 'img', 'reproduction');
    mkdirSync(imgDir, { recursive: true });
    for (const c of charts) write(join(imgDir, `${c.name}.svg`), svgs.get(c.name)!);
    // keep the sections other commands own (e.g. `reproduce jester`'s real-data section)
    const kept = existsSync(options.docPath) ? markedSections(readFileSync(options.docPath, 'utf8')) : [];
    const doc = reproductionMarkdown({ ...docInput, imgDir: relative(docDir, imgDir) });
    // the exact-accounting sections kept at the end give the paragraph after the bottom line
    write(
      options.docPath,
      withExactAccountingLine(kept.length === 0 ? doc : `${doc.trimEnd()}\n\n${kept.join('\n')}`),
    );
  }

  const svgBlock = (name: string) => {
    const c = charts.find((x) => x.name === name)!;
    return { kind: 'svg' as const, svg: svgs.get(name)!, caption: c.title };
  };
  const sections: ReportSection[] = [
    {
      heading: 'Verdicts',
      blocks: [
        { kind: 'table', table: claimsTable(claims) },
        ...claims.map((c) => ({ kind: 'table' as const, table: claimPartsTable(c) })),
      ],
    },
    {
      heading: 'Main table',
      blocks: [
        { kind: 'table', table: tables[0]! },
        { kind: 'table', table: tables[1]! },
        { kind: 'table', table: tables[2]! },
        svgBlock('reward-over-time'),
        svgBlock('regret-over-time'),
        svgBlock('reward-vs-epsilon'),
        svgBlock('reward-vs-epsilon-tuned'),
      ],
    },
    {
      heading: 'Amplification',
      blocks: [{ kind: 'table', table: tables[3]! }, svgBlock('amplification-vs-q')],
    },
    { heading: 'Ablation', blocks: [{ kind: 'table', table: tables[4]! }] },
    {
      heading: 'Robustness',
      blocks: [
        { kind: 'table', table: tables[5]! },
        svgBlock('sweep-batch-size'),
        { kind: 'table', table: tables[6]! },
        svgBlock('sweep-v'),
        { kind: 'table', table: tables[7]! },
        svgBlock('sweep-decay'),
      ],
    },
    { heading: 'Group privacy', blocks: [{ kind: 'table', table: tables[8]! }, svgBlock('group-privacy')] },
    {
      heading: 'Run',
      blocks: [
        {
          kind: 'paragraph',
          text: `Wall time ${timing.wallSeconds.toFixed(1)} s, ${timing.cellsRun} cells run (${timing.rounds} rounds, ${Math.round(timing.roundsPerSecond)} rounds/s), ${timing.cellsCached} from the cache.`,
        },
      ],
    },
  ];
  write(
    join(outDir, 'report.html'),
    buildHtmlReport({
      title: `adaprivate: synthetic reproduction (${scale.name})`,
      version: VERSION,
      command,
      sections,
      config: summary.configs,
      seeds: analysis.seeds,
    }),
  );

  return {
    analysis,
    claims,
    tables,
    mainTableMarkdown: markdownTable(tables[0]!),
    timing,
    files,
  };
}
