// StrykerJS configuration of `npm run mutation` (docs/privacy.md, "Mutation testing").
// Two scopes, chosen by MUTATION_SCOPE: 'policies' (default) mutates the release code of the
// private policies, 'privacy' the accounting in src/privacy/. Tests run straight from TypeScript
// through the command runner (scripts/mutation-tests.mjs: tsx, no build per mutant, stops at the
// first failing file). The line ranges are computed here from method signatures, so they follow
// the code when it moves.
import { readFileSync } from 'node:fs';

/**
 * Lines [start, end] (1-based) of the block that opens on the first line starting with `signature`
 * ('signature|stop': the range ends before the first later line starting with `stop`).
 */
function blockRange(file, spec) {
  const [signature, stop] = spec.split('|');
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith(signature));
  if (start < 0) throw new Error(`stryker.config: '${signature}' not found in ${file}`);
  const indent = lines[start].length - lines[start].trimStart().length;
  const close = `${' '.repeat(indent)}}`;
  let end = start + 1;
  while (end < lines.length && !lines[end].startsWith(close)) end++;
  if (stop !== undefined) {
    const cut = lines.findIndex((l, i) => i > start && l.trimStart().startsWith(stop));
    if (cut > start && cut <= end) end = cut - 1;
  }
  return `${file}:${start + 1}-${end + 1}`;
}

const P = 'src/policies/';
/**
 * The release code of the private policies: where noise, sensitivity, sampling and ledger meet data.
 * The calibration formulas (jdpParameters, episodeBound, the DGS constructor, budgetEpsilon) are
 * left out to fit the CPU budget of a shared machine; test/policies/privacy.test.ts checks them.
 */
const POLICY_BLOCKS = [
  [`${P}BatchedRidgePolicy.ts`, ['protected learn(', 'protected onFinish(', 'private release(|const ex = this.exploration;']],
  [`${P}DgsLinUcbPolicy.ts`, ['protected learn(', 'private releaseEstimate(']],
  [`${P}JdpLinUcbPolicy.ts`, ['protected learn(']],
  [`${P}SwitchingOfulPolicy.ts`, ['protected learn(', 'protected onFinish(', 'private switchEpisode(']],
  [`${P}ZcdpEpisodicPolicy.ts`, ['protected learn(', 'private startEpisode(']],
  [`${P}BasePolicy.ts`, ['function copyClip(', 'private checkReward(']],
  [`${P}createPolicy.ts`, ['function zcdpBatch(']],
  [`${P}privacyAdapter.ts`, ['export function budgetRho(']],
];

/**
 * The privacy scope: the zCDP accountant and the (eps, delta) conversions, the formulas every
 * printed guarantee goes through (the RDP series, calibration and ledger bookkeeping are left out
 * to fit the CPU budget; their reference tests are in test/privacy/).
 */
const PRIVACY_FILES = ['src/privacy/zcdp.ts', 'src/privacy/conversion.ts'];
const PRIVACY_TESTS = [
  'test/privacy/zcdp.test.ts',
  'test/privacy/conversion.test.ts',
  'test/privacy/ledger.test.ts',
  'test/privacy/calibrateSigma.test.ts',
];
// fastest first (the runner stops at the first failing file); mechanisms.test.ts (8 s) last
const POLICY_TESTS = [
  'test/policies/BasePolicy.test.ts',
  'test/policies/privacy.test.ts',
  'test/policies/ZcdpEpisodicPolicy.test.ts',
  'test/policies/BatchedRidgePolicy.test.ts',
  'test/policies/contract.test.ts',
  'test/policies/learning.test.ts',
  'test/policies/mechanisms.test.ts',
];

const scope = process.env.MUTATION_SCOPE ?? 'policies';
const mutate =
  scope === 'privacy'
    ? PRIVACY_FILES
    : POLICY_BLOCKS.flatMap(([file, sigs]) => sigs.map((s) => blockRange(file, s)));
const tests = scope === 'privacy' ? PRIVACY_TESTS : POLICY_TESTS;

export default {
  testRunner: 'command',
  commandRunner: { command: `node scripts/mutation-tests.mjs ${tests.join(' ')}` },
  mutate,
  // error-message texts are not privacy behaviour
  mutator: { excludedMutations: ['StringLiteral'] },
  coverageAnalysis: 'off',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  timeoutFactor: 1,
  timeoutMS: 20000,
  reporters: ['clear-text', 'json', 'progress-append-only'],
  jsonReporter: { fileName: `reports/mutation/${scope}.json` },
  tempDirName: `.stryker-tmp-${scope}`,
  cleanTempDir: true,
  ignorePatterns: ['dist', 'reports', 'data', 'docs', 'bench', '.stryker-tmp*', '.scratch'],
};
