/**
 * `adaprivate evaluate`: off-policy evaluation of (private) policies on a decision log, and
 * `adaprivate logs synthetic`: writes a decision log from the synthetic environment with a known
 * logging policy. Heavy modules (evaluation, policies, report rendering) load inside the actions.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { EstimatorId } from '../../evaluation/index.js';
import { VERSION } from '../../version.js';
import { parseNumber, parseNumberList, parsePositiveInt, printJson } from '../output.js';
import { UsageError } from '../UsageError.js';
import type { EvaluatedSetting } from './evaluateReport.js';

const ESTIMATORS: readonly EstimatorId[] = ['replay', 'ipw', 'snipw', 'dm', 'dr'];

interface EvaluateFlags {
  logs?: string;
  policy?: string;
  epsilon?: number[];
  delta?: number;
  batch?: number;
  estimators?: string;
  bootstrap: number;
  seed: number;
  noiseSeed?: number;
  samples: number;
  level: number;
  format?: string;
  allowMissingPropensity?: boolean;
  out?: string;
  json?: boolean;
}

interface LogsFlags {
  out?: string;
  rounds: number;
  seed: number;
  logging: string;
  temperature: number;
  explore: number;
  dim?: number;
  arms?: number;
  armsPerRound?: number;
  thetaNorm?: number;
  link?: string;
  format?: string;
  json?: boolean;
}

function parseNonNegativeInt(name: string): (raw: string) => number {
  return (raw: string) => {
    const v = Number(raw);
    if (raw.trim() === '' || !Number.isSafeInteger(v) || v < 0) {
      throw new InvalidArgumentError(`${name} must be a non-negative integer. Got ${JSON.stringify(raw)}.`);
    }
    return v;
  };
}

const progress = (line: string) => process.stderr.write(`evaluate: ${line}\n`);

function parseFormat(raw: string | undefined, cmd: string): 'jsonl' | 'csv' | undefined {
  if (raw === undefined || raw === 'jsonl' || raw === 'csv') return raw;
  throw new UsageError(`${cmd}: --format must be 'jsonl' or 'csv'. Got ${JSON.stringify(raw)}.`);
}

function parseEstimators(raw: string | undefined): EstimatorId[] {
  if (raw === undefined) return [...ESTIMATORS];
  const ids = raw.split(',').map((s) => s.trim());
  for (const id of ids) {
    if (!ESTIMATORS.includes(id as EstimatorId)) {
      throw new UsageError(
        `evaluate: --estimators ${JSON.stringify(id)} is not an estimator. Known: ${ESTIMATORS.join(', ')}.`,
      );
    }
  }
  return ESTIMATORS.filter((e) => ids.includes(e));
}

async function evaluateCommand(f: EvaluateFlags): Promise<void> {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  if (f.logs === undefined)
    throw new UsageError('evaluate: --logs FILE is required (JSON Lines or CSV; see docs/evaluation.md).');
  if (f.policy === undefined) throw new UsageError('evaluate: --policy ID[,ID..] is required.');
  const { isPolicyId, policyIds, policyInfo, createPolicy } = await import('../../policies/index.js');
  const ids = f.policy.split(',').map((s) => s.trim());
  for (const id of ids) {
    if (!isPolicyId(id)) {
      throw new UsageError(
        `evaluate: --policy ${JSON.stringify(id)} is not a policy id. Known: ${policyIds.join(', ')}.`,
      );
    }
  }
  const estimators = parseEstimators(f.estimators);
  const format = parseFormat(f.format, 'evaluate');
  const anyPrivate = ids.some((id) => isPolicyId(id) && policyInfo(id).isPrivate);
  if (anyPrivate && (f.epsilon === undefined || f.epsilon.length === 0)) {
    throw new UsageError('evaluate: --epsilon E[,E..] is required for private policies.');
  }
  if (f.epsilon?.some((e) => !(e > 0))) {
    throw new UsageError(`evaluate: --epsilon values must be > 0. Got ${f.epsilon.join(',')}.`);
  }
  if (!(f.level > 0 && f.level < 1))
    throw new UsageError(`evaluate: --level must be in (0, 1). Got ${f.level}.`);
  const ev = await import('../../evaluation/index.js');
  const { DataFormatError } = await import('../../data/index.js');
  let log: Awaited<ReturnType<typeof ev.loadDecisionLog>>;
  try {
    log = await ev.loadDecisionLog(f.logs, {
      ...(format === undefined ? {} : { format }),
      allowMissingPropensity: f.allowMissingPropensity === true,
      onProgress: (n) => progress(`read ${n} decisions`),
    });
  } catch (err) {
    if (err instanceof DataFormatError) throw new UsageError(`evaluate: ${err.message}`);
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UsageError(`evaluate: --logs ${f.logs} does not exist.`);
    throw err;
  }
  const withReward = log.reward.filter((r) => !Number.isNaN(r)).length;
  progress(`${log.rounds} decisions (${withReward} with a reward), d = ${log.dim}, from ${f.logs}`);
  const needsModel = estimators.includes('dm') || estimators.includes('dr');
  const rewardModel = needsModel ? ev.crossFitRewardModel(log) : undefined;
  const settings: { id: (typeof policyIds)[number]; epsilon: number | null }[] = [];
  for (const id of ids as (typeof policyIds)[number][]) {
    if (policyInfo(id).isPrivate) for (const e of f.epsilon!) settings.push({ id, epsilon: e });
    else settings.push({ id, epsilon: null });
  }
  const results: EvaluatedSetting[] = [];
  const warnings = new Set<string>();
  let logging: { value: number; interval: readonly [number, number] } | null = null;
  let evaluable = 0;
  for (const [i, s] of settings.entries()) {
    const label = `${policyInfo(s.id).displayName}${s.epsilon === null ? '' : ` epsilon=${s.epsilon}`}`;
    progress(`(${i + 1}/${settings.length}) ${label}`);
    const make = () => {
      try {
        return createPolicy(s.id, {
          dim: log.dim,
          horizon: Math.max(1, withReward),
          seed: f.seed,
          ...(s.epsilon === null ? {} : { epsilon: s.epsilon }),
          ...(f.delta === undefined || !policyInfo(s.id).isPrivate ? {} : { delta: f.delta }),
          ...(f.noiseSeed === undefined || !policyInfo(s.id).isPrivate ? {} : { noiseSeed: f.noiseSeed }),
          ...(f.batch === undefined || !policyInfo(s.id).options.includes('batchSize')
            ? {}
            : { batchSize: f.batch }),
        });
      } catch (err) {
        if (err instanceof RangeError || err instanceof TypeError)
          throw new UsageError(`evaluate: ${err.message}`);
        throw err;
      }
    };
    const evaluatedPolicy = make();
    const result = ev.evaluateOnLog(
      log,
      {
        evaluated: () => ev.evaluatedFromPolicy(evaluatedPolicy, { samples: f.samples }),
        replaying: () => make(),
      },
      {
        estimators,
        resamples: f.bootstrap,
        seed: f.seed,
        level: f.level,
        ...(rewardModel === undefined ? {} : { rewardModel }),
      },
    );
    evaluatedPolicy.finish();
    const spent = evaluatedPolicy.privacy();
    for (const w of result.warnings) warnings.add(w);
    if (evaluatedPolicy.clippedCount > 0) {
      warnings.add(
        `${evaluatedPolicy.clippedCount} feature vectors have a norm above 1 and were clipped by the policies (the privacy model needs ||x|| <= 1): scale the logged features to unit norm for an evaluation of the policy as it would run.`,
      );
    }
    logging = { value: result.logging.value, interval: result.logging.interval };
    evaluable = result.evaluableRounds;
    results.push({
      policy: s.id,
      displayName: policyInfo(s.id).displayName,
      epsilon: s.epsilon,
      epsilonSpent: policyInfo(s.id).isPrivate ? spent.epsilon : null,
      noise: spent.noise ?? 'none',
      estimates: result.estimates.map((e, j) => ({
        estimator: e.estimator as EstimatorId,
        value: e.value,
        interval: e.interval,
        effectiveSampleSize: e.effectiveSampleSize,
        relative: result.relative[j]!.ratio,
        relativeInterval: result.relative[j]!.interval,
      })),
    });
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const config = {
    logs: f.logs,
    policies: ids,
    epsilons: f.epsilon ?? [],
    delta: f.delta ?? 1e-5,
    batchSize: f.batch ?? null,
    estimators,
    bootstrap: f.bootstrap,
    level: f.level,
    seed: f.seed,
    noiseSeed: f.noiseSeed ?? null,
    samples: f.samples,
    learning: 'logged',
    rewardModel: 'ridge on [x, 1], lambda 1, 2-fold cross-fitting',
  };
  const report = {
    version: VERSION,
    config,
    log: {
      file: f.logs,
      decisions: log.rounds,
      evaluableDecisions: evaluable,
      dim: log.dim,
      uniformLogging: ev.isUniformLogging(log),
    },
    logging,
    results,
    warnings: [...warnings],
    timing: { wallSeconds, cpuSeconds },
  };
  const r = await import('../../experiments/report/index.js');
  const { evaluationTable, valueByEpsilonSeries } = await import('./evaluateReport.js');
  const caption = `${evaluable} of ${log.rounds} decisions evaluated; each policy learns from the logged rounds in order (observe) and is scored before each round; ${f.bootstrap} bootstrap resamples (seed ${f.seed}); noise ${f.noiseSeed === undefined ? 'secret' : `seeded (${f.noiseSeed})`}.`;
  const table = evaluationTable(r, results, estimators, logging!, caption);
  const files: string[] = [];
  if (f.out !== undefined) {
    const { writeAtomic } = await import('../../experiments/writeAtomic.js');
    mkdirSync(f.out, { recursive: true });
    const chartEstimator: EstimatorId = estimators.includes('dr') ? 'dr' : estimators[estimators.length - 1]!;
    const spec = r.bandChartSpec(valueByEpsilonSeries(results, chartEstimator, logging!), {
      title: `Estimated value by epsilon (${chartEstimator.toUpperCase()}, 95% bootstrap interval)`,
      xTitle: 'epsilon',
      yTitle: 'value per round',
      xScale: 'log',
      points: true,
      bandLabel: 'shaded: 95% bootstrap interval (resampled log rows, not seeds)',
    });
    const svg = await r.renderSvg(spec);
    const command = `adaprivate evaluate --logs ${f.logs} --policy ${ids.join(',')}${f.epsilon === undefined ? '' : ` --epsilon ${f.epsilon.join(',')}`}`;
    const md = [
      '# Off-policy evaluation\n',
      `adaprivate ${VERSION} · \`${command}\`\n`,
      r.markdownSection(table, 2),
      '\n![value by epsilon](value-by-epsilon.svg)\n',
      ...(warnings.size === 0 ? [] : ['\n## Warnings\n', ...[...warnings].map((w) => `- ${w}`), '']),
    ].join('\n');
    const html = r.buildHtmlReport({
      title: 'Off-policy evaluation',
      version: VERSION,
      command,
      sections: [
        {
          heading: 'Value by policy and epsilon',
          blocks: [
            { kind: 'table', table },
            {
              kind: 'svg',
              svg,
              caption: 'Estimated value by epsilon; flat lines: non-private policies and the logging policy.',
            },
            ...[...warnings].map((text) => ({ kind: 'paragraph' as const, text: `Warning: ${text}` })),
          ],
        },
      ],
      config,
      seeds: [f.seed],
    });
    const write = (name: string, text: string) => {
      writeAtomic(join(f.out!, name), text);
      files.push(join(f.out!, name));
    };
    write('results.json', `${JSON.stringify(report, null, 2)}\n`);
    write('results.csv', r.tableToCsv(table));
    write('report.md', md);
    write('report.html', html);
    write('value-by-epsilon.svg', svg);
  }
  if (f.json === true) {
    printJson({ ...report, files });
    return;
  }
  process.stdout.write(`${r.markdownSection(table, 3)}\n`);
  for (const w of warnings) process.stdout.write(`warning: ${w}\n`);
  process.stdout.write(
    `${wallSeconds.toFixed(1)} s wall, ${cpuSeconds.toFixed(1)} s CPU${files.length === 0 ? '' : `; report in ${f.out}/ (report.html, report.md, results.json, results.csv, value-by-epsilon.svg)`}\n`,
  );
}

async function logsCommand(f: LogsFlags): Promise<void> {
  if (f.out === undefined) throw new UsageError('logs synthetic: --out FILE is required.');
  const format = parseFormat(f.format, 'logs synthetic');
  if (f.logging !== 'uniform' && f.logging !== 'softmax') {
    throw new UsageError(
      `logs synthetic: --logging must be 'uniform' or 'softmax'. Got ${JSON.stringify(f.logging)}.`,
    );
  }
  if (!(f.temperature > 0))
    throw new UsageError(`logs synthetic: --temperature must be > 0. Got ${f.temperature}.`);
  if (!(f.explore >= 0 && f.explore <= 1)) {
    throw new UsageError(`logs synthetic: --explore must be in [0, 1]. Got ${f.explore}.`);
  }
  if (f.link !== undefined && f.link !== 'logistic' && f.link !== 'linear') {
    throw new UsageError(
      `logs synthetic: --link must be 'logistic' or 'linear'. Got ${JSON.stringify(f.link)}.`,
    );
  }
  const ev = await import('../../evaluation/index.js');
  const { createSyntheticEnvironment } = await import('../../envs/index.js');
  const env = {
    ...(f.dim === undefined ? {} : { dim: f.dim }),
    ...(f.arms === undefined ? {} : { arms: f.arms }),
    ...(f.armsPerRound === undefined ? {} : { armsPerRound: f.armsPerRound }),
    ...(f.thetaNorm === undefined ? {} : { thetaNorm: f.thetaNorm }),
    ...(f.link === undefined ? {} : { link: f.link as 'logistic' | 'linear' }),
  };
  const logging =
    f.logging === 'uniform'
      ? ({ kind: 'uniform' } as const)
      : ({ kind: 'softmax', temperature: f.temperature, explore: f.explore } as const);
  let environment: ReturnType<typeof createSyntheticEnvironment>;
  try {
    environment = createSyntheticEnvironment(env, f.seed);
  } catch (err) {
    throw new UsageError(`logs synthetic: ${(err as Error).message}`);
  }
  const fileFormat = format ?? ev.decisionLogFormatOf(f.out);
  const written = ev.writeDecisionLog(
    f.out,
    ev.syntheticDecisions({ env, seed: f.seed, rounds: f.rounds, logging }),
    fileFormat,
    (n) => {
      if (n % 100_000 === 0) process.stderr.write(`logs synthetic: ${n} decisions written\n`);
    },
  );
  // the logging policy's expected reward on exactly the logged rounds (same environment stream)
  const loggingValue = ev.onPolicyValue(
    createSyntheticEnvironment(env, f.seed),
    ev.syntheticLoggingPolicy(environment, logging).distribution,
    f.rounds,
  );
  const summary = {
    file: f.out,
    format: fileFormat,
    decisions: written,
    seed: f.seed,
    env: environment.describe(),
    logging,
    loggingExpectedValue: loggingValue,
  };
  if (f.json === true) printJson(summary);
  else {
    process.stdout.write(
      `wrote ${written} decisions to ${f.out} (${fileFormat}); logging policy ${f.logging === 'uniform' ? 'uniform' : `softmax(x^T theta* / ${f.temperature}) with ${f.explore} uniform exploration`}, expected value ${loggingValue.toFixed(4)} per round\n`,
    );
  }
}

/**
 * Registers `adaprivate evaluate` and `adaprivate logs synthetic`.
 *
 * @example
 * adaprivate logs synthetic --out logs.jsonl --rounds 5000 --seed 1
 * adaprivate evaluate --logs logs.jsonl --policy adaprivate-ts,lints --epsilon 0.5,1,5 --json
 */
export function registerEvaluate(program: Command): void {
  program
    .command('evaluate')
    .description(
      'off-policy evaluation: estimate the value of (private) policies on a decision log (JSON Lines or CSV) with replay, IPW, SNIPW, direct method and doubly robust, each with a bootstrap interval and its effective sample size',
    )
    .option(
      '--logs <file>',
      'decision log: .jsonl (one decision per line) or .csv (one row per candidate arm); see docs/evaluation.md',
    )
    .option('--policy <ids>', 'comma-separated policy ids to evaluate')
    .option(
      '--epsilon <list>',
      'comma-separated privacy budgets for private policies',
      parseNumberList('--epsilon'),
    )
    .option('--delta <number>', 'privacy delta (default 1e-5)', parseNumber('--delta'))
    .option('--batch <B>', 'batch size of batched policies (default 300)', parsePositiveInt('--batch'))
    .option('--estimators <list>', `comma-separated subset of ${ESTIMATORS.join(',')} (default: all)`)
    .option('--bootstrap <N>', 'bootstrap resamples (default 1000)', parsePositiveInt('--bootstrap'), 1000)
    .option(
      '--seed <n>',
      'exploration seed of the policies and seed of the bootstrap (default 1)',
      parseNonNegativeInt('--seed'),
      1,
    )
    .option(
      '--noise-seed <n>',
      'seeded privacy noise (research only: reproducible, but whoever knows it can remove the noise); default: secret noise',
      parseNonNegativeInt('--noise-seed'),
    )
    .option(
      '--samples <n>',
      'Monte Carlo draws per round for Thompson-sampling probabilities (default 500)',
      parsePositiveInt('--samples'),
      500,
    )
    .option('--level <p>', 'confidence level of the intervals (default 0.95)', parseNumber('--level'), 0.95)
    .option('--format <fmt>', "'jsonl' or 'csv' (default: from the file extension)")
    .option(
      '--allow-missing-propensity',
      'accept decisions without a propensity (left out of the estimates, with a warning)',
    )
    .option(
      '--out <dir>',
      'write report.html, report.md, results.json, results.csv and value-by-epsilon.svg here',
    )
    .option('--json', 'print one JSON object instead of the table (progress lines still go to stderr)')
    .action(async (flags: EvaluateFlags) => {
      await evaluateCommand(flags);
    });
  const logs = program.command('logs').description('decision logs for off-policy evaluation');
  logs
    .command('synthetic')
    .description(
      "write a decision log from the paper's synthetic environment with a known logging policy (propensities of every arm recorded)",
    )
    .option('--out <file>', 'output file: .jsonl or .csv')
    .option('--rounds <n>', 'number of decisions (default 5000)', parsePositiveInt('--rounds'), 5000)
    .option(
      '--seed <n>',
      'seed of the environment and the logging policy (default 1)',
      parseNonNegativeInt('--seed'),
      1,
    )
    .option('--logging <kind>', "'softmax' (default) or 'uniform' (what replay needs)", 'softmax')
    .option(
      '--temperature <t>',
      'softmax temperature on x^T theta* (default 0.5)',
      parseNumber('--temperature'),
      0.5,
    )
    .option(
      '--explore <share>',
      'uniform exploration share of the softmax logging policy (default 0.2)',
      parseNumber('--explore'),
      0.2,
    )
    .option('--dim <d>', 'feature dimension (default 20)', parsePositiveInt('--dim'))
    .option('--arms <n>', 'arm pool size (default 100)', parsePositiveInt('--arms'))
    .option(
      '--arms-per-round <K>',
      'arms offered per decision (default 5)',
      parsePositiveInt('--arms-per-round'),
    )
    .option('--theta-norm <S>', '||theta*|| (default 2)', parseNumber('--theta-norm'))
    .option('--link <link>', "'logistic' (default) or 'linear'")
    .option('--format <fmt>', "'jsonl' or 'csv' (default: from the file extension)")
    .option('--json', 'print a JSON summary (file, decisions, logging policy, its expected value)')
    .action(async (flags: LogsFlags) => {
      await logsCommand(flags);
    });
  logs.exitOverride();
}
