/**
 * `adaprivate reproduce`: the paper's experiments end to end. `reproduce synthetic` runs the
 * synthetic study (main table, tuning, TS vs UCB tests, amplification, ablation, robustness, group
 * privacy) and writes results, tables, charts, an HTML report and REPRODUCTION.md. Real-data
 * studies register their own subcommands on the same `reproduce` command (one call each).
 */
import { type Command, Option } from 'commander';
import { parsePositiveInt, printJson } from '../output.js';
import { stageProgress } from '../progress.js';
import { UsageError } from '../UsageError.js';
import { reproduceScaleAndDoc } from './reproduceScaleAndDoc.js';

interface SyntheticFlags {
  quick?: boolean;
  tiny?: boolean;
  out?: string;
  workers?: number;
  json?: boolean;
  writeDoc?: boolean | string;
  cache?: boolean;
  fromResults?: boolean;
  power?: boolean | string;
}

/**
 * Adds `synthetic` to the `reproduce` command.
 *
 * @example
 * addReproduceSynthetic(program.command('reproduce')); // `adaprivate reproduce synthetic --quick`
 */
export function addReproduceSynthetic(reproduce: Command): Command {
  const cmd = reproduce
    .command('synthetic')
    .description(
      'every synthetic experiment of the paper: main table (11 policies, 6 budgets, default and tuned), TS vs UCB t-tests, amplification, ablation, robustness and group privacy; writes JSON/CSV results, Markdown tables, SVG charts, report.html and REPRODUCTION.md to --out, and prints the main table',
    )
    .option(
      '--quick',
      'reduced run in under a minute: 3 seeds, T = 2000, small tuning grids (docs/REPRODUCTION.md)',
    )
    .addOption(new Option('--tiny', 'smoke-test size (d = 5, 2 seeds, T = 200)').hideHelp())
    .option('--out <dir>', 'output directory', 'results/synthetic')
    .option('--workers <n>', 'worker threads (default: all cores)', parsePositiveInt('--workers'))
    .option('--no-cache', 'do not reuse or keep finished cells in <out>/cache')
    .option(
      '--write-doc [path]',
      'also write the document with its charts (default path docs/REPRODUCTION.md, charts in docs/img/reproduction/)',
    )
    .option(
      '--power [seeds]',
      'also run the power comparisons (TS vs UCB by eps, amplification q = 0.3 vs none) on this many seeds (default: estimated from the run for a 95% CI half-width below 0.5 points)',
    )
    .option(
      '--from-results',
      're-render the outputs from the results files already in --out (no cell is run)',
    )
    .option('--json', 'print one JSON object (claims, tables, timing, files) instead of the table')
    .action(async (flags: SyntheticFlags) => {
      let powerSeeds: number | 'auto' | undefined;
      if (flags.power === true) powerSeeds = 'auto';
      else if (typeof flags.power === 'string') {
        const n = Number(flags.power);
        if (!Number.isSafeInteger(n) || n < 2)
          throw new UsageError(`--power must be an integer >= 2 (seeds). Got ${flags.power}.`);
        powerSeeds = n;
      }
      const { scale, docPath, runOptions } = reproduceScaleAndDoc('synthetic', flags);
      const out = flags.out ?? 'results/synthetic';
      const command = `adaprivate reproduce synthetic${scale === 'full' ? '' : ` --${scale}`}`;
      const progress = stageProgress({ unit: 'cells' });
      const { reproduceSynthetic } = await import('../../experiments/reproduce/index.js');
      const r = await reproduceSynthetic({
        scale,
        outDir: out,
        command,
        ...runOptions,
        ...(flags.fromResults === true ? { fromResults: true } : {}),
        ...(powerSeeds === undefined ? {} : { powerSeeds }),
        onProgress: (study: string, p: { done: number; total: number }) =>
          progress.update(study, p.done, p.total),
      }).finally(() => progress.stop());
      if (flags.json === true) {
        printJson({
          scale,
          out,
          timing: r.timing,
          claims: r.claims,
          tables: r.tables.map((t) => ({
            title: t.title,
            columns: t.columns.map((c) => c.header),
            rows: t.raw ?? t.rows,
          })),
          files: r.files,
        });
        return;
      }
      const scaleLine =
        scale === 'full'
          ? 'Scale: full (the paper-sized study: 12 seeds, T = 10,000).'
          : `Scale: ${scale} (${r.analysis.seeds.length} seeds, T = ${r.analysis.scale.horizon}): a reduced run whose numbers are indicative only; the paper-sized study is \`adaprivate reproduce synthetic\` (docs/REPRODUCTION.md).`;
      process.stdout.write(`${scaleLine}\n\n${r.tables[0]!.title}\n\n${r.mainTableMarkdown}\n`);
      for (const c of r.claims) process.stdout.write(`${c.verdict.padEnd(15)} ${c.title}\n`);
      process.stdout.write(
        `\n${r.timing.cellsRun} cells run, ${r.timing.cellsShared === undefined ? '' : `${r.timing.cellsShared} shared with an identical cell, `}${r.timing.cellsCached} cached, ${r.timing.wallSeconds.toFixed(1)} s (${Math.round(r.timing.roundsPerSecond)} rounds/s). Outputs in ${out}/ (report.html, REPRODUCTION.md, tables.md, svg/, */results.json)${docPath === undefined ? '' : ` and ${docPath}`}.\n`,
      );
    });
  cmd.exitOverride();
  return cmd;
}

/**
 * Registers the `reproduce` command group and returns it, so that other studies add a subcommand
 * with one call (e.g. `addReproduceMovielens(registerReproduce(program))`).
 *
 * @example
 * const reproduce = registerReproduce(program); // then: adaprivate reproduce synthetic --quick
 */
export function registerReproduce(program: Command): Command {
  const reproduce = program
    .command('reproduce')
    .description(
      "reproduce the paper's experiments (synthetic; real-data studies add their own subcommands)",
    );
  addReproduceSynthetic(reproduce);
  reproduce.exitOverride();
  return reproduce;
}
