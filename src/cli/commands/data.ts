import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { DEFAULT_FEATURE_PARAMS } from '../../data/featureDefaults.js';
import { readFeaturesHeader } from '../../data/featuresFile.js';
import { DATASETS, fetchDataset } from '../../data/fetchDataset.js';
import { loadRatings } from '../../data/loadRatings.js';
import type { prepareFeaturesFile } from '../../data/prepareFeaturesFile.js';
import {
  guessRatingsFormat,
  parseRatingsFormat,
  RATINGS_FORMATS,
  type RatingsFormat,
} from '../../data/RatingsFormat.js';
import { parseNumber, parsePositiveInt, printJson } from '../output.js';
import { stageProgress } from '../progress.js';
import { UsageError } from '../UsageError.js';

/**
 * The layout of `source`: `--format` when given (validated), else guessed from the file name; a
 * UsageError when neither works.
 */
export function resolveFormat(source: string, raw: string | undefined): RatingsFormat {
  if (raw !== undefined) {
    try {
      return parseRatingsFormat(raw);
    } catch (e) {
      throw new UsageError(`--format: ${(e as Error).message}`);
    }
  }
  const g = guessRatingsFormat(source);
  if (g === undefined) {
    throw new UsageError(
      `--format is required: cannot tell the layout of ${source} from its name (one of ${RATINGS_FORMATS.join(', ')}).`,
    );
  }
  return g;
}

/** Registers the `data` command group: fetch, prepare, info. */
export function registerData(program: Command): void {
  const data = program.command('data').description('real datasets: download, prepare features, inspect');

  data
    .command('fetch')
    .description(`download, verify and unpack an official dataset (${Object.keys(DATASETS).join(', ')})`)
    .argument('<dataset>', Object.keys(DATASETS).join(' | '))
    .option('--dir <dir>', 'target directory', 'data')
    .option('--url <url>', 'download from this URL instead of the official one')
    .option('--sha256 <hex>', 'expected SHA-256 of the archive (overrides the recorded one)')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, opts: { dir: string; url?: string; sha256?: string; json?: boolean }) => {
      if (DATASETS[name] === undefined) {
        throw new UsageError(
          `dataset must be one of ${Object.keys(DATASETS).join(', ')}. Got ${JSON.stringify(name)}.`,
        );
      }
      const progress = stageProgress();
      try {
        const r = await fetchDataset(name, {
          dir: opts.dir,
          ...(opts.url !== undefined ? { url: opts.url } : {}),
          ...(opts.sha256 !== undefined ? { sha256: opts.sha256 } : {}),
          onProgress: (d, t) => progress.update('download', d, t),
        });
        progress.stop(); // before printing; `finally` covers the error path
        if (opts.json) printJson({ dataset: name, ...r, ratingsFile: DATASETS[name]!.ratingsFile });
        else {
          process.stdout.write(
            `${name}: ${r.archive} (sha256 ${r.sha256}${r.verified ? ', verified' : ', NOT verified: no official checksum recorded; pass --sha256 to pin it'})\n` +
              `unpacked ${r.files.length} files into ${opts.dir}; ratings: ${DATASETS[name]!.ratingsFile}\n${DATASETS[name]!.note}\n`,
          );
        }
      } finally {
        progress.stop();
      }
    });

  data
    .command('prepare')
    .description('load a ratings file, split it, compute rank-d SVD features and write a features file')
    .requiredOption(
      '--source <file>',
      'ratings file (ratings.csv, ratings.dat, u.data, jester-data-1.csv, jester_ratings.dat)',
    )
    .option('--format <format>', `one of ${RATINGS_FORMATS.join(', ')} (default: from the file name)`)
    .requiredOption('--out <file>', 'features file to write (reused when its header matches)')
    .option('--rank <d>', 'SVD rank', parsePositiveInt('--rank'), DEFAULT_FEATURE_PARAMS.rank)
    .option(
      '--eval-fraction <f>',
      'fraction of each user’s ratings held out for the bandit',
      parseNumber('--eval-fraction'),
      0.5,
    )
    .option('--seed <n>', 'seed of the split and the SVD', parseNumber('--seed'), 1)
    .option('--power-iterations <q>', 'SVD power iterations', parseNumber('--power-iterations'), 4)
    .option('--skip-bad-rows', 'skip and count malformed rows instead of failing')
    .option('--force', 'rebuild even if the features file matches')
    .option('--json', 'print the header as JSON')
    .action(
      async (opts: {
        source: string;
        format?: string;
        out: string;
        rank: number;
        evalFraction: number;
        seed: number;
        powerIterations: number;
        skipBadRows?: boolean;
        force?: boolean;
        json?: boolean;
      }) => {
        const format = resolveFormat(opts.source, opts.format);
        await stat(opts.source).catch(() => {
          throw new UsageError(`--source: ${opts.source} does not exist.`);
        });
        const progress = stageProgress();
        let r: Awaited<ReturnType<typeof prepareFeaturesFile>>;
        try {
          // loaded on use: the SVD pulls in ml-matrix, which `--help` and the other commands do not need
          const { prepareFeaturesFile } = await import('../../data/prepareFeaturesFile.js');
          r = await prepareFeaturesFile({
            source: opts.source,
            format,
            out: opts.out,
            params: {
              rank: opts.rank,
              evalFraction: opts.evalFraction,
              seed: opts.seed,
              powerIterations: opts.powerIterations,
              skipBadRows: opts.skipBadRows === true,
            },
            force: opts.force === true,
            onProgress: progress.update,
          });
        } catch (e) {
          if (e instanceof Error && e.message.startsWith('prepare: ')) throw new UsageError(e.message);
          throw e;
        } finally {
          progress.stop();
        }
        if (opts.json) printJson({ out: opts.out, reused: r.reused, header: r.header });
        else {
          const c = r.header.counts;
          process.stdout.write(
            `${r.reused ? 'reused' : 'wrote'} ${opts.out}: ${c.ratings} ratings (${c.users} users, ${c.items} items, ${c.badRows} bad rows skipped); ` +
              `train ${c.train}, bandit ${c.eval} (${c.evalDropped} dropped: no training rating for the user or item); rank ${r.header.params.rank}\n`,
          );
        }
      },
    );

  data
    .command('info')
    .description('describe a ratings file or a features file')
    .argument('<file>', 'a features file, or a ratings file')
    .option('--format <format>', 'ratings file layout (default: from the file name)')
    .option('--skip-bad-rows', 'count malformed rows instead of failing')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { format?: string; skipBadRows?: boolean; json?: boolean }) => {
      await stat(file).catch(() => {
        throw new UsageError(`${file} does not exist.`);
      });
      let info: Record<string, unknown>;
      try {
        const h = await readFeaturesHeader(file);
        info = { kind: 'features', file, ...h };
      } catch {
        const format = resolveFormat(file, opts.format);
        const progress = stageProgress();
        const d = await loadRatings(file, {
          format,
          skipBadRows: opts.skipBadRows === true,
          onProgress: (a, b) => progress.update('load', a, b),
        });
        progress.stop();
        let min = Number.POSITIVE_INFINITY;
        let max = Number.NEGATIVE_INFINITY;
        let sum = 0;
        for (const v of d.ratings) {
          min = Math.min(min, v);
          max = Math.max(max, v);
          sum += v;
        }
        info = {
          kind: 'ratings',
          file,
          format,
          ratings: d.count,
          users: d.userIds.length,
          items: d.itemIds.length,
          density: d.count / (d.userIds.length * d.itemIds.length),
          ratingMin: d.count > 0 ? min : null,
          ratingMax: d.count > 0 ? max : null,
          ratingMean: d.count > 0 ? sum / d.count : null,
          badRows: d.badRows,
          badRowExamples: d.badRowExamples,
        };
      }
      if (opts.json) printJson(info);
      else {
        for (const [k, v] of Object.entries(info)) {
          process.stdout.write(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}\n`);
        }
      }
    });
}
