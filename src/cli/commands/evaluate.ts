/**
 * `adaprivate evaluate`: off-policy evaluation of (private) policies on a decision log, and
 * `adaprivate logs synthetic`: writes a decision log from the synthetic environment with a known
 * logging policy. Heavy modules (evaluation, policies, report rendering) load inside the actions.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { type Command, InvalidArgumentError } from 'commander';
import type { EstimatorId } from '../../evaluation/index.js';
import { VERSION } from '../../version.js';
import { parseNumber, parseNumberList, parsePositiveInt, printJson } from '../output.js';
import { UsageError } from '../UsageError.js';
import { checkPrivateFlags, type PrivateSetting, privateEvaluation } from './evaluatePrivate.js';
import type { EvaluatedSetting } from './evaluateReport.js';

const ESTIMATORS: readonly EstimatorId[] = ['replay', 'ipw', 'snipw', 'dm', 'dr'];

export interface EvaluateFlags {
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
  runs: number;
  target?: string;
  private?: boolean;
  privateEpsilon?: number;
  privateDelta?: number;
  unit?: string;
  weightClip?: number;
  contributions?: number;
  accountant?: string;
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
  units?: number;
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

/** Loads `--target`, turning a bad file into a usage error naming it. */
async function loadTargetOrExplain(
  file: string,
  log: import('../../evaluation/index.js').DecisionLog,
): Promise<Float64Array> {
  const ev = await import('../../evaluation/index.js');
  const { DataFormatError } = await import('../../data/index.js');
  try {
    return await ev.loadTarget(file, log);
  } catch (err) {
    if (err instanceof DataFormatError) throw new UsageError(`evaluate: ${err.message}`);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR')
      throw new UsageError(`evaluate: --target ${file} is not a readable file.`);
    throw err;
  }
}

/** `evaluate --private`: only the released estimates and the guarantee are printed. */
async function privateCommand(
  f: EvaluateFlags,
  ids: readonly string[],
  log: import('../../evaluation/index.js').DecisionLog,
  withReward: number,
  started: number,
  cpuStart: NodeJS.CpuUsage,
): Promise<void> {
  const { policyInfo, createPolicy, isPolicyId } = await import('../../policies/index.js');
  const { policySpecFromFlags } = await import('../policySpecFromFlags.js');
  const settings: PrivateSetting[] = [];
  if (f.target !== undefined) {
    settings.push({
      label: `target ${f.target}`,
      policy: 'target',
      epsilon: null,
      target: await loadTargetOrExplain(f.target, log),
    });
  }
  for (const id of ids) {
    if (!isPolicyId(id)) continue;
    const info = policyInfo(id);
    if (!info.isPrivate) {
      throw new UsageError(
        `evaluate: --private cannot evaluate ${info.displayName}: it learns from the raw logged rewards, so its probabilities (and any estimate from them) are not private. Evaluate a private policy or a --target file.`,
      );
    }
    const userLevel = f.unit === 'user';
    if (userLevel && info.userLevelRefusal !== null) {
      throw new UsageError(
        `evaluate: --unit user cannot evaluate ${info.displayName}: ${info.userLevelRefusal}.`,
      );
    }
    for (const e of f.epsilon ?? []) {
      settings.push({
        label: `${info.displayName} epsilon=${e}${userLevel ? ' (user level)' : ''}`,
        policy: id,
        epsilon: e,
        target: null,
        make: (run: number) => {
          const spec = policySpecFromFlags('evaluate', id, {
            dim: log.dim,
            horizon: Math.max(1, withReward),
            seed: f.seed + run,
            epsilon: e,
            ...(f.delta === undefined ? {} : { delta: f.delta }),
            ...(f.noiseSeed === undefined ? {} : { noiseSeed: f.noiseSeed + run }),
            ...(f.batch === undefined || !info.options.includes('batchSize') ? {} : { batchSize: f.batch }),
            // user level: each unit's rewards enter at most k releases, one per release
            ...(userLevel
              ? {
                  privacyUnit: 'user',
                  contributionsPerRelease: 1,
                  releasesPerEpoch: f.contributions ?? 1,
                }
              : {}),
          });
          return createPolicy(spec.id, spec.options);
        },
      });
    }
  }
  const { report, lines } = await privateEvaluation(
    log,
    settings,
    {
      privateEpsilon: f.privateEpsilon!,
      privateDelta: f.privateDelta ?? 1e-5,
      weightClip: f.weightClip ?? DEFAULT_WEIGHT_CLIP,
      unit: f.unit === 'user' ? 'user' : 'event',
      contributions: f.contributions ?? 1,
      accountant: f.accountant === 'zcdp' ? 'zcdp' : 'exact',
      estimators: privateEstimators(f.estimators),
      runs: f.runs,
      samples: f.samples,
      level: f.level,
      ...(f.noiseSeed === undefined ? {} : { noiseSeed: f.noiseSeed }),
    },
    progress,
  );
  const cpu = process.cpuUsage(cpuStart);
  const timing = {
    wallSeconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  const command = reproducingCommand(f, ids);
  const config = {
    logs: f.logs,
    policies: ids,
    target: f.target ?? null,
    epsilons: f.epsilon ?? [],
    seed: f.seed,
    runs: f.runs,
    samples: f.samples,
    level: f.level,
    noiseSeed: f.noiseSeed ?? null,
    noise: f.noiseSeed === undefined ? 'secure (secret)' : 'seeded (research only)',
    command,
  };
  const files: string[] = [];
  if (f.out !== undefined) {
    const { writeAtomic } = await import('../../experiments/writeAtomic.js');
    mkdirSync(f.out, { recursive: true });
    const write = (name: string, text: string) => {
      writeAtomic(join(f.out!, name), text);
      files.push(join(f.out!, name));
    };
    write(
      'results.json',
      `${JSON.stringify({ version: VERSION, config, privateEvaluation: report, timing }, null, 2)}\n`,
    );
    write(
      'report.md',
      [
        '# Private off-policy evaluation\n',
        `adaprivate ${VERSION} · \`${command}\`\n`,
        'Only the released estimates are shown; the ledger of the releases is in results.json.\n',
        ...lines.map((l) => `- ${l}`),
        '',
      ].join('\n'),
    );
  }
  if (f.json === true) {
    printJson({ version: VERSION, command, config, privateEvaluation: report, timing, files });
    return;
  }
  for (const l of lines) process.stdout.write(`${l}\n`);
  process.stdout.write(`reproduce: ${command}\n`);
  if (files.length > 0) process.stdout.write(`report in ${f.out}/ (report.md, results.json)\n`);
}

/** The estimators `--private` releases: ipw, snipw, dr (default all three). */
function privateEstimators(raw: string | undefined): ('ipw' | 'snipw' | 'dr')[] {
  if (raw === undefined) return ['ipw', 'snipw', 'dr'];
  const ids = raw.split(',').map((s) => s.trim());
  for (const id of ids) {
    if (id !== 'ipw' && id !== 'snipw' && id !== 'dr') {
      throw new UsageError(
        `evaluate: --private releases ipw, snipw and dr; --estimators ${JSON.stringify(id)} is not one of them.`,
      );
    }
  }
  return (['ipw', 'snipw', 'dr'] as const).filter((e) => ids.includes(e));
}

/** Default weight clip of `--private` (bounds the sensitivity; docs/evaluation.md). */
export const DEFAULT_WEIGHT_CLIP = 20;

/** The command line that reproduces this evaluation (every option that changes the numbers). */
export function reproducingCommand(f: EvaluateFlags, ids: readonly string[]): string {
  const parts = ['adaprivate evaluate', `--logs ${f.logs}`];
  if (ids.length > 0) parts.push(`--policy ${ids.join(',')}`);
  if (f.target !== undefined) parts.push(`--target ${f.target}`);
  if (f.epsilon !== undefined) parts.push(`--epsilon ${f.epsilon.join(',')}`);
  if (f.delta !== undefined) parts.push(`--delta ${f.delta}`);
  if (f.batch !== undefined) parts.push(`--batch ${f.batch}`);
  if (f.estimators !== undefined) parts.push(`--estimators ${f.estimators}`);
  parts.push(`--bootstrap ${f.bootstrap}`, `--seed ${f.seed}`, `--runs ${f.runs}`, `--samples ${f.samples}`);
  if (f.level !== 0.95) parts.push(`--level ${f.level}`);
  if (f.noiseSeed !== undefined) parts.push(`--noise-seed ${f.noiseSeed}`);
  if (f.format !== undefined) parts.push(`--format ${f.format}`);
  if (f.allowMissingPropensity === true) parts.push('--allow-missing-propensity');
  if (f.private === true) {
    parts.push('--private', `--private-epsilon ${f.privateEpsilon}`);
    if (f.privateDelta !== undefined) parts.push(`--private-delta ${f.privateDelta}`);
    if (f.unit !== undefined) parts.push(`--unit ${f.unit}`);
    if (f.weightClip !== undefined) parts.push(`--weight-clip ${f.weightClip}`);
    if (f.contributions !== undefined) parts.push(`--contributions ${f.contributions}`);
    if (f.accountant !== undefined) parts.push(`--accountant ${f.accountant}`);
  }
  return parts.join(' ');
}

/**
 * Position-wise IPW of one setting on a log with slots (docs/evaluation.md, "Display positions"):
 * per slot, per row and per impression, with the logged reward rate per slot beside. `targets`: the
 * setting's distribution per run (one for a `--target`; R runs of a randomised or private policy,
 * combined with their between-run variance by `combineSlotRuns`). A built-in policy's distribution
 * at a row is its probability of each candidate at that row's slot (it fills the slot from the row's
 * candidates), read before it learns the row.
 */
function slotwise(
  ev: typeof import('../../evaluation/index.js'),
  log: import('../../evaluation/index.js').DecisionLog,
  label: string,
  targets: readonly Float64Array[],
  f: EvaluateFlags,
): { json: Record<string, unknown>; lines: string[] } | null {
  if (log.slot === null || targets.length === 0) return null;
  const rounds = ev.evaluableRounds(log);
  const slots = Int32Array.from(rounds, (t) => log.slot![t]!);
  const z = normalQuantile((1 + f.level) / 2, 0, 1);
  let res: import('../../evaluation/index.js').SlotIpwResult;
  try {
    res = ev.combineSlotRuns(
      targets.map((target) => ev.slotIpw(ev.opeInputFromLog(log, target), slots, z)),
      z,
    );
  } catch (err) {
    if (err instanceof RangeError && /round (\d+)/.test(err.message)) {
      const t = rounds[Number(/round (\d+)/.exec(err.message)?.[1] ?? 0)] ?? 0;
      throw new UsageError(
        `evaluate: ${log.source}:${log.lines[t]}: this log has display positions (slot) but this decision has none; a log is slotted throughout or not at all.`,
      );
    }
    throw err;
  }
  const logged = new Map<number, { n: number; s: number }>();
  for (const t of rounds) {
    const a = logged.get(log.slot![t]!) ?? { n: 0, s: 0 };
    a.n++;
    a.s += log.reward[t]!;
    logged.set(log.slot![t]!, a);
  }
  const fmt = (v: number) => v.toFixed(4);
  const lines = [
    `Position-wise IPW of ${label} (each row one (impression, slot) decision, weighted by ${label.startsWith('target ') ? "the target's" : "the policy's"} probability at that slot, as Open Bandit Pipeline${targets.length > 1 ? `; ${targets.length} runs pooled` : ''}): per row ${fmt(res.perRow)}; per impression (sum over ${res.slots.length} slots) ${fmt(res.perImpression)} [${fmt(res.perImpressionInterval[0])}, ${fmt(res.perImpressionInterval[1])}].`,
    ...res.slots.map((s) => {
      const l = logged.get(s.slot)!;
      return `slot ${s.slot}: ${fmt(s.value)} [${fmt(s.interval[0])}, ${fmt(s.interval[1])}] over ${s.rows} rows (logged reward rate ${fmt(l.s / l.n)})`;
    }),
  ];
  return {
    json: {
      ...(label.startsWith('target ') ? { target: f.target } : { policy: label }),
      estimator: 'position-wise IPW',
      runs: targets.length,
      perRow: res.perRow,
      perImpression: res.perImpression,
      perImpressionInterval: res.perImpressionInterval,
      bySlot: res.slots.map((s) => ({
        ...s,
        loggedRewardRate: logged.get(s.slot)!.s / logged.get(s.slot)!.n,
      })),
    },
    lines,
  };
}

/** What the log cannot tell: no evaluated setting's interval of the change excludes 0 (DM aside). */
export function indistinguishableFinding(results: readonly EvaluatedSetting[]): string | null {
  const decided = results.some((s) =>
    s.estimates.some(
      (e) =>
        e.estimator !== 'dm' &&
        Number.isFinite(e.relativeInterval[0]) &&
        (e.relativeInterval[0] > 1 || e.relativeInterval[1] < 1),
    ),
  );
  if (decided || results.length === 0) return null;
  return 'No evaluated policy is distinguishable from the logging policy: every interval of the change vs the logging policy contains 0% (DM, model-based, aside). This log cannot decide between them; more decisions (or more rewards above 0) are needed.';
}

async function evaluateCommand(f: EvaluateFlags): Promise<void> {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  if (f.logs === undefined)
    throw new UsageError('evaluate: --logs FILE is required (JSON Lines or CSV; see docs/evaluation.md).');
  if (f.policy === undefined && f.target === undefined)
    throw new UsageError('evaluate: --policy ID[,ID..] or --target FILE is required.');
  const { policyInfo, createPolicy } = await import('../../policies/index.js');
  const { policyIdFromFlag, policySpecFromFlags } = await import('../policySpecFromFlags.js');
  const ids =
    f.policy === undefined ? [] : f.policy.split(',').map((s) => policyIdFromFlag('evaluate', s.trim()));
  const estimators = parseEstimators(f.estimators);
  const format = parseFormat(f.format, 'evaluate');
  const anyPrivate = ids.some((id) => policyInfo(id).isPrivate);
  if (f.private === true) {
    // `--private --epsilon E` with no private policy: E is the evaluation's budget
    const privateEpsilon =
      f.privateEpsilon ?? (!anyPrivate && f.epsilon?.length === 1 ? f.epsilon[0] : undefined);
    checkPrivateFlags({ ...f, ...(privateEpsilon === undefined ? {} : { privateEpsilon }) });
    privateEstimators(f.estimators);
    if (privateEpsilon !== undefined) f.privateEpsilon = privateEpsilon;
  }
  if (anyPrivate && (f.epsilon === undefined || f.epsilon.length === 0)) {
    throw new UsageError('evaluate: --epsilon E[,E..] is required for private policies.');
  }
  if (f.epsilon?.some((e) => !(e > 0))) {
    throw new UsageError(`evaluate: --epsilon values must be > 0. Got ${f.epsilon.join(',')}.`);
  }
  if (!(f.level > 0 && f.level < 1))
    throw new UsageError(`evaluate: --level must be in (0, 1). Got ${f.level}.`);
  if (existsSync(f.logs) && statSync(f.logs).isDirectory()) {
    throw new UsageError(
      `evaluate: --logs ${f.logs} is a directory; give the decision log file (.jsonl or .csv) inside it.`,
    );
  }
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
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`evaluate: --logs ${f.logs} does not exist.`);
    if (code === 'EISDIR')
      throw new UsageError(`evaluate: --logs ${f.logs} is a directory; give the log file.`);
    throw err;
  }
  const withReward = log.reward.filter((r) => !Number.isNaN(r)).length;
  progress(`${log.rounds} decisions (${withReward} with a reward), d = ${log.dim}, from ${f.logs}`);
  if (ev.evaluableRounds(log).length === 0) {
    throw new UsageError(
      withReward === 0
        ? `evaluate: ${f.logs} has no decision with a reward (${log.rounds} decisions): off-policy evaluation needs the logged rewards. A service export carries them only for models created with logRewards: true.`
        : `evaluate: ${f.logs} has no decision with both a reward and a propensity: every estimator needs the logging probability of the chosen arm.`,
    );
  }
  if (f.private === true) {
    await privateCommand(f, ids, log, withReward, started, cpuStart);
    return;
  }
  const needsModel = estimators.includes('dm') || estimators.includes('dr');
  const rewardModel = needsModel ? ev.crossFitRewardModel(log) : undefined;
  const settings: { id: import('../../policies/index.js').PolicyId | null; epsilon: number | null }[] = [];
  let fixedTarget: Float64Array | undefined;
  if (f.target !== undefined) {
    fixedTarget = await loadTargetOrExplain(f.target, log);
    settings.push({ id: null, epsilon: null });
  }
  for (const id of ids) {
    if (policyInfo(id).isPrivate) for (const e of f.epsilon!) settings.push({ id, epsilon: e });
    else settings.push({ id, epsilon: null });
  }
  const norms = ev.featureNormSummary(log);
  const results: EvaluatedSetting[] = [];
  const warnings = new Set<string>();
  if (norms.aboveOne > 0) {
    warnings.add(
      `${norms.aboveOne} of ${norms.vectors} candidate feature vectors have a norm above 1 (largest ${norms.largest.toPrecision(4)}): every policy rescales them to unit norm (the privacy model needs ||x|| <= 1), so this evaluates the policies on rescaled features; scale the logged features to unit norm to evaluate them as they would run.`,
    );
  }
  let logging: { value: number; interval: readonly [number, number]; note?: string } | null = null;
  let evaluable = 0;
  // position-wise IPW lines of the built-in policies on a slotted log (the --target's come first)
  const policySlotLines: string[] = [];
  for (const [i, s] of settings.entries()) {
    // --target: a fixed distribution from elsewhere, evaluated as given (one run, no learning)
    const info =
      s.id === null
        ? { displayName: `target ${f.target}`, isPrivate: false, family: 'fixed', options: [] as string[] }
        : policyInfo(s.id);
    const label = `${info.displayName}${s.epsilon === null ? '' : ` epsilon=${s.epsilon}`}`;
    // a deterministic non-private policy makes the same run whatever its seed: one run
    const runs = info.isPrivate || info.family === 'ts' ? f.runs : 1;
    progress(`(${i + 1}/${settings.length}) ${label}${runs > 1 ? ` (${runs} runs)` : ''}`);
    const make = (run: number) => {
      // the flags as untyped options through the policy parser (the service's rule text)
      const spec = policySpecFromFlags('evaluate', s.id ?? 'linucb', {
        dim: log.dim,
        horizon: Math.max(1, withReward),
        seed: f.seed + run,
        ...(s.epsilon === null ? {} : { epsilon: s.epsilon }),
        ...(f.delta === undefined || !info.isPrivate ? {} : { delta: f.delta }),
        ...(f.noiseSeed === undefined || !info.isPrivate ? {} : { noiseSeed: f.noiseSeed + run }),
        ...(f.batch === undefined || !info.options.includes('batchSize') ? {} : { batchSize: f.batch }),
      });
      return createPolicy(spec.id, spec.options);
    };
    const perRun: import('../../evaluation/index.js').OffPolicyEvaluation[] = [];
    let spent: ReturnType<ReturnType<typeof make>['privacy']> | null = null;
    for (let run = 0; run < runs; run++) {
      const evaluatedPolicy = make(run);
      const result = ev.evaluateOnLog(
        log,
        {
          evaluated: () => ev.evaluatedFromPolicy(evaluatedPolicy, { samples: f.samples }),
          ...(s.id === null ? { target: fixedTarget! } : { replaying: () => make(run) }),
        },
        {
          estimators,
          resamples: f.bootstrap,
          seed: f.seed,
          level: f.level,
          policyLabel: label,
          ...(rewardModel === undefined ? {} : { rewardModel }),
        },
      );
      evaluatedPolicy.finish();
      spent = evaluatedPolicy.privacy();
      perRun.push(result);
    }
    const first = perRun[0]!;
    for (const r of perRun) for (const w of r.warnings) warnings.add(w);
    const bySlot =
      s.id === null
        ? null
        : slotwise(
            ev,
            log,
            label,
            perRun.flatMap((r) => (r.target === null ? [] : [r.target])),
            f,
          );
    if (bySlot !== null) policySlotLines.push(...bySlot.lines);
    const loggingRep = ev.repeatReplicates(first.logging, runs);
    logging = {
      value: first.logging.value,
      interval: first.logging.interval,
      ...(first.logging.note === undefined ? {} : { note: first.logging.note }),
    };
    evaluable = first.evaluableRounds;
    results.push({
      policy: s.id ?? 'target',
      displayName: info.displayName,
      epsilon: s.epsilon,
      epsilonSpent: info.isPrivate ? spent!.epsilon : null,
      noise: spent!.noise ?? 'none',
      runs,
      estimates: first.estimates.map((e0, j) => {
        const e = ev.combineRuns(perRun.map((r) => r.estimates[j]!));
        // a one-sided estimate (no positive reward): its change is bounded above only
        const rel =
          e.note === undefined
            ? ev.pairedRatio(e, loggingRep, f.level)
            : { ratio: 0, interval: [0, e.interval[1] / first.logging.value] as const };
        return {
          estimator: e0.estimator as EstimatorId,
          value: e.value,
          interval: e.interval,
          effectiveSampleSize: e.effectiveSampleSize,
          relative: rel.ratio,
          relativeInterval: rel.interval,
          betweenRunSd: e.betweenRunSd,
          ...(e0.estimator === 'dm' ? { modelBased: 'model-based, for comparison' } : {}),
          ...(e.note === undefined ? {} : { note: e.note }),
          ...(e.value < 0 || e.value > 1 ? { outsideRewardRange: true } : {}),
        };
      }),
      ...(bySlot === null ? {} : { slots: bySlot.json }),
    });
  }
  const targetSlots =
    fixedTarget === undefined ? null : slotwise(ev, log, `target ${f.target}`, [fixedTarget], f);
  const slotReport =
    targetSlots === null && policySlotLines.length === 0
      ? null
      : { json: targetSlots?.json, lines: [...(targetSlots?.lines ?? []), ...policySlotLines] };
  const finding = indistinguishableFinding(results);
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const command = reproducingCommand(f, ids);
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
    runs: f.runs,
    noiseSeed: f.noiseSeed ?? null,
    samples: f.samples,
    learning: 'logged',
    rewardModel: 'ridge on [x, 1], lambda 1, 2-fold cross-fitting',
    interval: `percentile bootstrap over rounds (${f.bootstrap} resamples), pooled over ${f.runs} runs (exploration seeds ${f.seed}..${f.seed + f.runs - 1}${f.noiseSeed === undefined ? ', fresh secure noise each' : `, noise seeds ${f.noiseSeed}..${f.noiseSeed + f.runs - 1}`}) for randomised or private policies`,
    command,
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
    ...(targetSlots === null ? {} : { slots: targetSlots.json }),
    findings: finding === null ? [] : [finding],
    warnings: [...warnings],
    timing: { wallSeconds, cpuSeconds },
  };
  const r = await import('../../experiments/report/index.js');
  const { evaluationTable, evaluationCsv, valueChartSpec } = await import('./evaluateReport.js');
  const caption = `${evaluable} of ${log.rounds} decisions evaluated; each policy learns from the logged rounds in order (observe) and is scored before each round; intervals: percentile bootstrap over rounds (${f.bootstrap} resamples, seed ${f.seed}), pooled over ${f.runs} runs of each randomised or private policy (its exploration seed and noise); noise ${f.noiseSeed === undefined ? 'secret' : `seeded (${f.noiseSeed}..)`}. DM is model-based, for comparison (its interval treats the reward model as fixed).`;
  const table = evaluationTable(r, results, estimators, logging!, caption, f.level);
  const files: string[] = [];
  const notes = finding === null ? [] : [finding];
  if (f.out !== undefined) {
    const { writeAtomic } = await import('../../experiments/writeAtomic.js');
    mkdirSync(f.out, { recursive: true });
    const chartEstimator: EstimatorId = estimators.includes('dr') ? 'dr' : estimators[estimators.length - 1]!;
    const pct = `${Math.round(100 * f.level)}%`;
    const spec = valueChartSpec(r, results, chartEstimator, logging!, f.level, f.runs);
    const svg = await r.renderSvg(spec);
    const md = [
      '# Off-policy evaluation\n',
      `adaprivate ${VERSION} · \`${command}\`\n`,
      r.markdownSection(table, 2),
      ...(slotReport === null
        ? []
        : ['\n## By display position\n', ...slotReport.lines.map((l) => `- ${l}`), '']),
      '\n![value by epsilon](value-by-epsilon.svg)\n',
      ...(notes.length === 0 ? [] : ['\n## Findings\n', ...notes.map((w) => `- ${w}`), '']),
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
              caption: `Estimated value by epsilon; flat lines: non-private policies and the logging policy; shaded: ${pct} bootstrap interval over the logged rounds.`,
            },
            ...notes.map((text) => ({ kind: 'paragraph' as const, text })),
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
    write('results.csv', evaluationCsv(r, results, logging!));
    write('report.md', md);
    write('report.html', html);
    write('value-by-epsilon.svg', svg);
  }
  if (f.json === true) {
    printJson({ ...report, files });
    return;
  }
  process.stdout.write(`${r.markdownSection(table, 3)}\n`);
  for (const l of slotReport?.lines ?? []) process.stdout.write(`${l}\n`);
  for (const n of notes) process.stdout.write(`${n}\n`);
  for (const w of warnings) process.stdout.write(`warning: ${w}\n`);
  process.stdout.write(`reproduce: ${command}\n`);
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
  if (f.units !== undefined && fileFormat !== 'jsonl') {
    throw new UsageError(
      'logs synthetic: --units needs a .jsonl output (the CSV log form has no unit column on write).',
    );
  }
  const units = f.units;
  const decisions = ev.syntheticDecisions({ env, seed: f.seed, rounds: f.rounds, logging });
  const written = ev.writeDecisionLog(
    f.out,
    units === undefined
      ? decisions
      : (function* () {
          let t = 0;
          for (const d of decisions) yield { ...d, unit: `u${t++ % units}` };
        })(),
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

interface ImportFlags {
  events?: string;
  items?: string;
  out?: string;
  maxCategories?: number;
  json?: boolean;
}

async function importCommand(f: ImportFlags): Promise<void> {
  for (const [flag, v] of [
    ['--events FILE', f.events],
    ['--items FILE', f.items],
    ['--out FILE.jsonl', f.out],
  ] as const) {
    if (v === undefined)
      throw new UsageError(`logs import: ${flag} is required (see adaprivate logs import --help).`);
  }
  if (!f.out!.endsWith('.jsonl')) {
    throw new UsageError(
      `logs import: --out must be a .jsonl file (the CSV log form has no slot or unit columns on write). Got ${f.out}.`,
    );
  }
  const { readFileSync } = await import('node:fs');
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new UsageError(`logs import: ${flag} ${file} does not exist.`);
      if (code === 'EISDIR')
        throw new UsageError(`logs import: ${flag} ${file} is a directory; give the CSV file.`);
      throw err;
    }
  };
  const events = read('--events', f.events!);
  const items = read('--items', f.items!);
  const ev = await import('../../evaluation/index.js');
  const { DataFormatError } = await import('../../data/index.js');
  let imported: import('../../evaluation/index.js').ImportedLog;
  try {
    imported = ev.importPositionLog(events, f.events!, items, f.items!, {
      ...(f.maxCategories === undefined ? {} : { maxCategories: f.maxCategories }),
    });
    let dim: number | null = null;
    for (const d of imported.decisions) {
      ev.validateDecisionRecord(
        d,
        { file: f.events!, line: Number(d.eventId.slice(f.events!.length + 1)) },
        { dim },
      );
      dim = d.arms[0]!.features.length;
    }
  } catch (err) {
    if (err instanceof DataFormatError) throw new UsageError(`logs import: ${err.message}`);
    throw err;
  }
  const written = ev.writeDecisionLog(f.out!, imported.decisions, 'jsonl');
  const summary = {
    file: f.out,
    decisions: written,
    items: imported.items,
    features: imported.featureNames,
    slots: imported.positions,
  };
  if (f.json === true) printJson(summary);
  else {
    process.stdout.write(
      `wrote ${written} decisions to ${f.out}: ${imported.items} candidate items each, d = ${imported.featureNames.length} features (${imported.featureNames.join(', ')}); positions ${imported.positions.map((p) => `${p.position} -> slot ${p.slot}`).join(', ')}\n`,
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
      '--target <file>',
      'also evaluate a policy from elsewhere given by its probabilities at every logged decision: JSON Lines of {"eventId", "probabilities": [one per candidate arm, in the log\'s order]} (docs/evaluation.md)',
    )
    .option(
      '--epsilon <list>',
      'comma-separated privacy budgets for private policies',
      parseNumberList('--epsilon'),
    )
    .option('--delta <number>', 'privacy delta (default 1e-5)', parseNumber('--delta'))
    .option(
      '--batch <B>',
      'batch size of batched policies (a positive integer; default 300)',
      parseNumber('--batch'),
    )
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
    .option(
      '--runs <R>',
      'runs of each randomised or private policy (exploration seeds seed..seed+R-1 and fresh noise draws) pooled into its intervals (default 5; deterministic non-private policies run once)',
      parsePositiveInt('--runs'),
      5,
    )
    .option('--format <fmt>', "'jsonl' or 'csv' (default: from the file extension)")
    .option(
      '--private',
      'release differentially private IPW, SNIPW and DR instead (clipped weights, a privately released reward model, Gaussian noise through a ledger); prints only the released estimates and the guarantee',
    )
    .option(
      '--private-epsilon <E>',
      "the evaluation's own budget epsilon (with --private)",
      parseNumber('--private-epsilon'),
    )
    .option('--private-delta <D>', "the evaluation's delta (default 1e-5)", parseNumber('--private-delta'))
    .option(
      '--weight-clip <C>',
      'importance-weight clip of --private (default 20)',
      parseNumber('--weight-clip'),
    )
    .option(
      '--unit <unit>',
      "privacy unit of --private: 'event' (one logged reward; the default) or 'user' (a --target: all decisions of one value of the log's unit field; a private policy: all its rewards, the policy then runs with user-level privacy)",
    )
    .option(
      '--contributions <k>',
      'with --unit user: decisions kept per unit, its first k evaluable ones in log order (default 1); a private policy then learns at most k rewards of a unit, one per release',
      parsePositiveInt('--contributions'),
    )
    .option(
      '--accountant <name>',
      "accountant that calibrates the noise of --private: 'exact' (default) or 'zcdp'",
    )
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
    .option(
      '--units <n>',
      "give decision t the unit (user id) 'u' + (t mod n), for user-level evaluation (.jsonl only; default: no unit)",
      parsePositiveInt('--units'),
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
  logs
    .command('import')
    .description(
      'convert a logged-feedback CSV of the common shape (item_id, position, click, propensity_score, timestamp, user_feature*; one row per shown item, as the Open Bandit Dataset) and an item table (item_id, item_feature*) into a decision log (JSON Lines, with slots); every item of the table is a candidate of every row',
    )
    .option('--events <file>', 'the events CSV (one row per shown item)')
    .option('--items <file>', 'the item table CSV (item_id and item_feature* columns)')
    .option('--out <file>', 'the decision log to write (.jsonl)')
    .option(
      '--max-categories <n>',
      'most distinct values of a non-numeric feature column, one-hot encoded (default 64)',
      parsePositiveInt('--max-categories'),
    )
    .option('--json', 'print a JSON summary (decisions, items, features, slots)')
    .action(async (flags: ImportFlags) => {
      await importCommand(flags);
    });
  logs.exitOverride();
}
