/**
 * `adaprivate audit`: the empirical privacy audit of a private policy (docs/audit.md). Prints the
 * epsilon the policy's ledger claims, the audited lower bound with its method, samples and
 * confidence; `--json` prints one object. Progress lines go to stderr (also when piped).
 * Bad input exits with code 2 and a one-line reason.
 */
import type { Command } from 'commander';
import type { PolicyAuditReport } from '../../audit/index.js';
import { policyIds, policyInfo } from '../../policies/index.js';
import { parseNumber, parsePositiveInt, printJson } from '../output.js';
import { policyIdFromFlag } from '../policySpecFromFlags.js';
import { UsageError } from '../UsageError.js';

interface AuditFlags {
  readonly policy: string;
  readonly epsilon?: number;
  readonly rho?: number;
  readonly delta?: number;
  readonly samples?: number;
  readonly mode: string;
  readonly seed: number;
  readonly noiseSeed?: number;
  readonly confidence?: number;
  readonly method: string;
  readonly batchSize?: number;
  readonly q?: number;
  readonly unit: string;
  readonly contributions?: number;
  readonly participations?: number;
  readonly json?: boolean;
}

const fmt = (v: number, digits = 4): string =>
  Number.isFinite(v) ? Number(v.toPrecision(digits)).toString() : String(v);

/** The human-readable report. */
export function auditText(r: PolicyAuditReport): string {
  const lines = [
    `policy            ${r.policy} (${r.mode} mode: ${r.mechanism})`,
    `neighbours        ${r.pair}`,
    ...(r.unit === 'user'
      ? [`claim is for      one user (user-level: the policy's ledger for its bounds)`]
      : []),
    `claimed epsilon   ${fmt(r.claim.epsilon)} at delta ${r.claim.delta} (the policy's ledger${r.claim.rho === null ? '' : `, rho ${fmt(r.claim.rho)}`})`,
    `audited epsilon   >= ${fmt(r.lowerBound)} with confidence ${r.confidence} (method ${r.method}${r.method === 'gdp' ? `: mu >= ${fmt(r.gdp.mu ?? 0)}` : ''})`,
    `  gdp tester       epsilon >= ${fmt(r.gdp.epsilon)} (mu >= ${fmt(r.gdp.mu ?? 0)})`,
    `  threshold tester epsilon >= ${fmt(r.threshold.epsilon)} (assumption-free)`,
    `samples           ${r.samples} runs per input (gdp: 10% select the test, 90% bound it; threshold: half and half), seed ${r.seed}`,
    `noise             ${r.noise === 'secure' ? 'secure (the production sampler: exact discrete Gaussian from the secure source)' : `seeded (noise seed ${r.noiseSeed}: reproducible, research mode)`}`,
    `verdict           ${r.refuted ? 'REFUTED: the audited lower bound exceeds the claimed epsilon' : `not refuted (lower bound / claim = ${fmt(r.ratio, 3)})`}`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Registers `adaprivate audit`.
 *
 * @example
 * adaprivate audit --policy adaprivate-ts --epsilon 1 --samples 50000 --json
 */
export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description(
      'empirical privacy audit: run a private policy on two reward sequences that differ in one reward, many times, and print a lower bound on the epsilon it actually provides next to the epsilon its ledger claims (docs/audit.md)',
    )
    .requiredOption(
      '--policy <id>',
      `a private policy (${policyIds.filter((p) => policyInfo(p).isPrivate).join(', ')})`,
    )
    .option(
      '--epsilon <E>',
      'privacy budget of the policy (default 1 unless --rho)',
      parseNumber('--epsilon'),
    )
    .option('--rho <R>', 'zCDP budget instead of --epsilon', parseNumber('--rho'))
    .option(
      '--delta <D>',
      'delta of the policy and of the audited bound (default 1e-5)',
      parseNumber('--delta'),
    )
    .option(
      '--mode <mode>',
      "'release': one release of the policy's mechanism; 'actions': the actions of a whole run",
      'release',
    )
    .option(
      '--samples <n>',
      'runs per input (default 50000 for release, 2000 for actions; >= 100)',
      parsePositiveInt('--samples'),
    )
    .option('--seed <n>', "seed of the runs' exploration and of the public inputs", parseNumber('--seed'), 1)
    .option(
      '--noise-seed <n>',
      'audit a seeded noise stream (reproducible, research mode) instead of the production sampler (default: secure noise)',
      parseNumber('--noise-seed'),
    )
    .option(
      '--confidence <c>',
      'probability that the lower bound holds (default 0.95)',
      parseNumber('--confidence'),
    )
    .option(
      '--method <m>',
      "'auto' (gdp for Gaussian releases, threshold otherwise), 'gdp' or 'threshold'",
      'auto',
    )
    .option(
      '--batch-size <B>',
      'batch length of an AdaPrivate policy (release mode default 4)',
      parsePositiveInt('--batch-size'),
    )
    .option('--q <q>', 'sampling rate of adaprivate-ts-amp', parseNumber('--q'))
    .option(
      '--unit <unit>',
      "'event': the neighbours differ in one reward; 'user': in every reward of one user (c + 1 per release in m + 1 releases), audited against a user-level policy (privacyUnit 'user', release mode, AdaPrivate policies)",
      'event',
    )
    .option(
      '--contributions <c>',
      '--unit user: the policy bound c, rewards of one user per release (default 1)',
      parsePositiveInt('--contributions'),
    )
    .option(
      '--participations <m>',
      '--unit user: the policy bound m, releases one user takes part in (default 2)',
      parsePositiveInt('--participations'),
    )
    .option('--json', 'print one JSON object')
    .exitOverride()
    .action(async (f: AuditFlags) => {
      const policy = policyIdFromFlag('audit', f.policy);
      if (!policyInfo(policy).isPrivate) {
        throw new UsageError(`audit: --policy ${f.policy} is not private; nothing to audit.`);
      }
      if (f.mode !== 'release' && f.mode !== 'actions') {
        throw new UsageError(`audit: --mode must be release or actions. Got ${JSON.stringify(f.mode)}.`);
      }
      if (f.method !== 'auto' && f.method !== 'gdp' && f.method !== 'threshold') {
        throw new UsageError(
          `audit: --method must be auto, gdp or threshold. Got ${JSON.stringify(f.method)}.`,
        );
      }
      if (f.unit !== 'event' && f.unit !== 'user') {
        throw new UsageError(`audit: --unit must be event or user. Got ${JSON.stringify(f.unit)}.`);
      }
      if (f.unit === 'event' && (f.contributions !== undefined || f.participations !== undefined)) {
        throw new UsageError('audit: --contributions and --participations need --unit user.');
      }
      if (f.unit === 'user' && f.mode !== 'release') {
        throw new UsageError('audit: --unit user audits --mode release only.');
      }
      if (f.epsilon !== undefined && f.rho !== undefined) {
        throw new UsageError('audit: give --epsilon or --rho, not both.');
      }
      const policyOptions: Record<string, unknown> = {};
      if (f.batchSize !== undefined) policyOptions.batchSize = f.batchSize;
      if (f.q !== undefined) policyOptions.q = f.q;
      const started = Date.now();
      // loaded here: the audit's statistics library is large, and the other commands do not need it
      const { audit } = await import('../../audit/index.js');
      let report: PolicyAuditReport;
      try {
        report = audit({
          policy,
          ...(f.rho !== undefined ? { rho: f.rho } : { epsilon: f.epsilon ?? 1 }),
          ...(f.delta !== undefined ? { delta: f.delta } : {}),
          mode: f.mode,
          ...(f.samples !== undefined ? { samples: f.samples } : {}),
          seed: f.seed,
          ...(f.noiseSeed !== undefined ? { noiseSeed: f.noiseSeed } : {}),
          ...(f.confidence !== undefined ? { confidence: f.confidence } : {}),
          method: f.method,
          unit: f.unit,
          ...(f.contributions !== undefined ? { contributionsPerRelease: f.contributions } : {}),
          ...(f.participations !== undefined ? { releasesPerEpoch: f.participations } : {}),
          policyOptions,
          onProgress: (done, total) => {
            const s = ((Date.now() - started) / 1000).toFixed(1);
            process.stderr.write(`audit: ${done}/${total} runs (${s} s)\n`);
          },
        });
      } catch (e) {
        if (e instanceof RangeError || (e instanceof Error && e.name === 'UnreachablePrivacyTargetError')) {
          // the policy's options are parsed by the policy schema table: the service's rule text
          throw new UsageError(e.message.startsWith('audit') ? e.message : `audit: ${e.message}`);
        }
        throw e;
      }
      if (f.json === true) {
        printJson({
          policy: report.policy,
          mode: report.mode,
          claimedEpsilon: report.claim.epsilon,
          delta: report.claim.delta,
          claimedRho: report.claim.rho,
          auditedEpsilonLowerBound: report.lowerBound,
          method: report.method,
          confidence: report.confidence,
          samples: report.samples,
          ratio: report.ratio,
          refuted: report.refuted,
          mechanism: report.mechanism,
          neighbours: report.pair,
          unit: report.unit,
          seed: report.seed,
          noise: report.noise,
          noiseSeed: report.noiseSeed,
          gdp: report.gdp,
          threshold: report.threshold,
        });
      } else process.stdout.write(auditText(report));
    });
}
