// The consumer test: packs the light package (packages/core), installs the tarball into a fresh
// project offline (its dependencies, csv-parse, @noble/hashes and typebox, come from the npm cache `npm ci` filled),
// compiles a strict TypeScript file that uses the public API with the repository's own typescript (in this process:
// test/packages/compileConsumer.ts), and runs it.
// Also checks what the tarball holds: no source maps, no install-time scripts, under 6 MB installed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileConsumer } from './compileConsumer.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url)); // dist/test/packages -> repo root
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'adaprivate-consumer-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Runs a command; on failure the error carries its output (compiler diagnostics, npm messages). */
function run(cmd: string, args: readonly string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${cmd} ${args.join(' ')} failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`,
    );
  }
}

function bytesUnder(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? bytesUnder(p) : statSync(p).size;
  }
  return n;
}

const CONSUMER = `
import {
  createPolicy,
  createSyntheticEnvironment,
  epsilonToRho,
  evaluateReplay,
  HorizonExceededError,
  loadPolicy,
  type Policy,
  type PolicyOptionsFor,
  replayFromEnvironment,
} from 'adaprivate-core';
import { evaluatedFromPolicy, syntheticDecisions } from 'adaprivate-core/evaluation';
import { runCell, runExperiment } from 'adaprivate-core/runner';

const d = 3;
const k = 4;
const options: PolicyOptionsFor<'adaprivate-ts'> = { dim: d, horizon: 200, seed: 1, epsilon: 1, batchSize: 20 };
const policy = createPolicy('adaprivate-ts', options);
const batchSize: number = policy.config.batchSize;
const wrongOption = () =>
  createPolicy('adaprivate-ts', {
    ...options,
    // @ts-expect-error q is not an option of adaprivate-ts (compile error; never called)
    q: 0.3,
  });
const features = Float64Array.from({ length: k * d }, (_, i) => ((i * 7) % 5) / 10);

const scores = policy.scores(features, k);
const probs = policy.probabilities(features, k, { samples: 500 });
const picked = policy.selectWithPropensity(features, k);
policy.update(0.5);
const arm = policy.select(features, k);
policy.discard();
policy.observe(features.subarray(arm * d, (arm + 1) * d), 1);
policy.observeMany(features.subarray(0, 2 * d), [0, 1]);
const { ticket } = policy.selectTicket(features, k);
policy.updateTicket(ticket, 0.25);
const copy: Policy = createPolicy('adaprivate-ts', options);
copy.restore(JSON.parse(JSON.stringify(policy.snapshot())));
const loaded: Policy = loadPolicy(policy.save()); // rebuilt from the JSON text alone (id, config, version)

const bounded = createPolicy('dgs-linucb', { dim: d, horizon: 1, seed: 2, rho: 0.5 });
bounded.select(features, k);
bounded.update(1);
let refused = 0;
try {
  bounded.select(features, k);
} catch (e) {
  if (e instanceof HorizonExceededError) refused = e.horizon;
}

const env = createSyntheticEnvironment({ dim: 5, arms: 20 }, 3);
const log = replayFromEnvironment(env, 2000, 3);
const replay = evaluateReplay(createPolicy('lints', { dim: 5, horizon: 2000, seed: 3 }), log);

const cell = runCell({
  env: { kind: 'synthetic', dim: 4, arms: 20, armsPerRound: 5, thetaNorm: 2, link: 'logistic' },
  protocol: 'full-information', policy: 'adaprivate-ucb', epsilon: 1, delta: 1e-5, params: {},
  horizon: 300, seed: 1, checkpointEvery: 100,
});
const experiment = await runExperiment(
  {
    name: 'consumer', env: { kind: 'synthetic', dim: 4, arms: 20, armsPerRound: 5, thetaNorm: 2, link: 'logistic' },
    protocol: 'replay', policies: [{ policy: 'linucb', params: {} }], epsilons: [], delta: 1e-5,
    seeds: [1, 2], horizon: 500, checkpoints: 2,
  },
  { inProcess: true },
);

const [decision] = syntheticDecisions({ seed: 1, rounds: 1, logging: { kind: 'uniform' } });
const evaluated = evaluatedFromPolicy(createPolicy('linucb', { dim: 3, horizon: 10, seed: 1 }));

loaded.finish(); // the loaded policy now holds the lineage (policy itself can no longer release)
console.log(JSON.stringify({
  loggedPropensity: decision?.propensity ?? 0,
  evaluated: typeof evaluated.distribution,
  wrongOption: typeof wrongOption,
  batchSize,
  scores: scores.length,
  probabilitySum: probs.probabilities.reduce((a, b) => a + b, 0),
  samples: probs.samples,
  propensity: picked.propensity,
  rounds: policy.roundsLearned,
  releases: loaded.privacy().releases,
  copyRounds: copy.roundsLearned,
  loadedRounds: loaded.roundsLearned,
  loadedNoise: loaded.privacy().noise === 'secure' ? 1 : 0,
  refused,
  replaySteps: replay.steps,
  effective: replay.effectiveSteps,
  checkpoints: cell.checkpoints.length,
  cells: experiment.cells.length,
  rho: Math.round(epsilonToRho(5, 1e-5) * 1e4) / 1e4,
}));
`;

test('the packed core installs offline, compiles strictly against its types and runs', () => {
  const packDir = join(work, 'pack');
  mkdirSync(packDir);
  const packed = JSON.parse(
    run(npm, ['pack', './packages/core', '--pack-destination', packDir, '--json'], repo),
  ) as { filename: string; integrity: string; files: { path: string }[] }[];
  const info = packed[0]!;
  const files = info.files.map((f) => f.path);
  assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts'));
  assert.ok(files.includes('dist/experiments/runner.js') && files.includes('dist/experiments/cellWorker.js'));
  assert.ok(
    files.includes('dist/adaprivate-core.browser.js'),
    'the browser bundle (adaprivate-core/browser)',
  );
  assert.deepEqual(
    files.filter((f) => f.endsWith('.map')),
    [],
    'no source maps (they would point at sources the tarball does not ship)',
  );
  assert.deepEqual(
    files.filter((f) => /(^|\/)(cli|report)\//.test(f)),
    [],
    'no CLI or report code in the core',
  );

  // The app pins the tarball and, from this repository's lock file, the core's dependencies, so that
  // `npm ci --offline` takes every tarball from the cache `npm ci` filled, by integrity, without
  // asking the registry for package metadata (which that cache does not hold).
  const app = join(work, 'app');
  mkdirSync(app);
  const tarball = `file:${join(packDir, info.filename)}`;
  const coreManifest = JSON.parse(readFileSync(join(repo, 'packages', 'core', 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const repoLock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  const lockPackages: Record<string, unknown> = {
    '': { name: 'app', version: '1.0.0', dependencies: { 'adaprivate-core': tarball } },
    'node_modules/adaprivate-core': {
      version: '0.1.0',
      resolved: tarball,
      integrity: info.integrity,
      dependencies: coreManifest.dependencies ?? {},
    },
  };
  for (const dep of Object.keys(coreManifest.dependencies ?? {})) {
    const entry = repoLock.packages[`node_modules/${dep}`] as
      | { version: string; integrity: string }
      | undefined;
    assert.ok(entry !== undefined, `the core's dependency ${dep} is in the repository's lock file`);
    // the tarball's registry address, so that npm needs no package metadata (cached by integrity)
    const base = dep.split('/').at(-1)!;
    const resolved = `https://registry.npmjs.org/${dep}/-/${base}-${entry.version}.tgz`;
    lockPackages[`node_modules/${dep}`] = { ...entry, resolved };
  }
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'app',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies: { 'adaprivate-core': tarball },
    }),
  );
  writeFileSync(
    join(app, 'package-lock.json'),
    JSON.stringify({
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: lockPackages,
    }),
  );
  run(npm, ['ci', '--offline', '--no-audit', '--no-fund'], app);
  const installed = join(app, 'node_modules', 'adaprivate-core');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    scripts?: Record<string, string>;
  };
  assert.deepEqual(
    manifest.dependencies,
    { '@noble/hashes': '1.8.0', 'csv-parse': '7.0.3', typebox: '1.4.3' },
    'three runtime dependencies (the snapshot MAC outside Node, decision-log CSV, the decision-log schema)',
  );
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) {
    assert.equal(manifest.scripts?.[hook], undefined, `no ${hook} script: nothing builds at install time`);
  }
  assert.deepEqual(readdirSync(join(app, 'node_modules')).sort(), [
    '.package-lock.json',
    '@noble',
    'adaprivate-core',
    'csv-parse',
    'typebox',
  ]);
  const size = bytesUnder(join(app, 'node_modules'));
  // 5.6 MB measured: 3.9 MB before typebox (the decision-log schema, issue 26) added 1.6 MB
  assert.ok(size < 6_000_000, `installed size ${size} bytes (all of node_modules) must stay under 6 MB`);

  writeFileSync(join(app, 'main.ts'), CONSUMER);
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022'],
        // an app on Node has @types/node; the repository's copy (the library's .d.ts name AbortSignal)
        typeRoots: [join(repo, 'node_modules', '@types')],
        types: ['node'],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        outDir: 'out',
      },
      files: ['main.ts'],
    }),
  );
  // type-checks main.ts and every declaration file of adaprivate-core (skipLibCheck: false for ours)
  assert.deepEqual(compileConsumer(app, ['adaprivate-core']), [], 'the consumer compiles');
  const out = JSON.parse(run(process.execPath, [join(app, 'out', 'main.js')], app)) as Record<string, number>;
  assert.equal(out.batchSize, 20);
  assert.equal(out.scores, 4);
  assert.ok(Math.abs(out.probabilitySum! - 1) < 1e-12);
  assert.equal(out.samples, 500);
  assert.ok(out.propensity! > 0 && out.propensity! <= 1);
  assert.equal(out.rounds, 5); // update + observe + 2 observeMany + updateTicket; the discarded round is not learned
  assert.equal(out.copyRounds, 5); // restored from the snapshot
  assert.equal(out.loadedRounds, 5); // loadPolicy(save()) rebuilds the same state
  assert.equal(out.loadedNoise, 1); // a loaded policy draws fresh secure noise
  assert.ok(out.releases! >= 1);
  assert.equal(out.refused, 1);
  assert.equal(out.replaySteps, 2000);
  assert.ok(
    out.effective! > 250 && out.effective! < 600,
    `effective steps ${out.effective} of 2000 with 5 arms`,
  );
  assert.equal(out.checkpoints, 3);
  assert.equal(out.cells, 2);
  assert.equal(out.rho, 0.4496);
  assert.equal(out.loggedPropensity, 0.2);
});
