// The light client package (packages/client, issue 26): packs it, installs the tarball into a fresh
// project offline (its one dependency, typebox, whose types the API types are written in, comes from
// the npm cache `npm ci` filled), checks what it installs (no native package, no install script, no
// engine warning on this Node, the installed size), compiles a strict TypeScript file against its
// types (createModel typed per policy id) with the repository's own typescript (in this process: test/packages/compileConsumer.ts), and runs it in a
// plain Node process with no service: a stand-in fetch answers.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileConsumer } from './compileConsumer.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url)); // dist/test/packages -> repo root
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'adaprivate-client-'));
after(() => rmSync(work, { recursive: true, force: true }));

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

/** True when a directory tree holds something a native build leaves or needs. */
function hasNativeParts(dir: string): boolean {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (hasNativeParts(p)) return true;
    } else if (e.name === 'binding.gyp' || e.name.endsWith('.node')) return true;
  }
  return false;
}

const CONSUMER = `
import {
  AdaPrivateClient,
  AdaPrivateClientError,
  type DeleteModelResponse,
  type RankResponse,
} from 'adaprivate-client';

const calls: { method: string; url: string; body: unknown; auth: string | null }[] = [];
const answers: [number, unknown][] = [
  [201, { name: 'news', created: true, policy: 'adaprivate-ts', options: {}, settings: {} }],
  [200, { eventId: 'e1', chosen: 1, chosenId: 'b', probabilities: [0.5, 0.5], probabilitySamples: 201, modelVersion: 0 }],
  [200, { name: 'news', outcome: 'deleted', ledgerKept: true, deletedAt: '2026-01-01T00:00:00.000Z',
          erased: { decisions: 1, pendingRewards: 0, unitCounts: 0, ledgerRows: 0 } }],
  [410, { statusCode: 410, code: 'model_deleted', error: 'Gone', message: "model 'news' was deleted" }],
];
const fakeFetch = (async (url: string | URL | Request, init?: RequestInit) => {
  const headers = new Headers(init?.headers);
  calls.push({
    method: init?.method ?? 'GET',
    url: String(url),
    body: init?.body === undefined ? null : JSON.parse(String(init.body)),
    auth: headers.get('authorization'),
  });
  const [status, body] = answers.shift()!;
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}) as typeof fetch;

const c = new AdaPrivateClient({ baseUrl: 'http://service.invalid/', apiKey: 'k'.repeat(32), fetch: fakeFetch });
const created = await c.createModel('news', {
  policy: 'adaprivate-ts',
  options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 10 },
  rewardWindowSeconds: 600,
});
const wrongOption = () =>
  c.createModel('news', {
    policy: 'adaprivate-ts',
    // @ts-expect-error q is not an option of adaprivate-ts (compile error; never called)
    options: { dim: 2, horizon: 1000, epsilon: 1, q: 0.3 },
  });
const ranked: RankResponse = await c.rank('news', { arms: [{ id: 'a', features: [1, 0] }, { id: 'b', features: [0, 1] }] });
const deleted: DeleteModelResponse = await c.deleteModel('news', { purge: { confirm: 'news' } });
let code = '';
try {
  await c.rank('news', { arms: [{ id: 'a', features: [1, 0] }] });
} catch (e) {
  if (e instanceof AdaPrivateClientError) code = e.status + ' ' + e.code;
}
console.log(JSON.stringify({
  created: created.created,
  chosenId: ranked.chosenId,
  outcome: deleted.outcome,
  code,
  wrongOption: typeof wrongOption,
  calls: calls.map((x) => [x.method, x.url, x.auth === 'Bearer ' + 'k'.repeat(32)]),
  createBody: calls[0]!.body,
}));
`;

test('the packed client installs offline without native packages or engine warnings, compiles strictly (createModel typed per policy id) and runs without a service', () => {
  const packDir = join(work, 'pack');
  mkdirSync(packDir);
  const packed = JSON.parse(
    run(npm, ['pack', './packages/client', '--pack-destination', packDir, '--json'], repo),
  ) as { filename: string; integrity: string; files: { path: string }[] }[];
  const info = packed[0]!;
  const files = info.files.map((f) => f.path);
  assert.ok(files.includes('dist/index.js') && files.includes('dist/types/client/index.d.ts'));
  assert.deepEqual(
    files.filter((f) => f.endsWith('.js')),
    ['dist/index.js'],
    'one bundled module: no server, store or policy code',
  );
  assert.deepEqual(
    files.filter((f) => f.endsWith('.map')),
    [],
  );

  const app = join(work, 'app');
  mkdirSync(app);
  const tarball = `file:${join(packDir, info.filename)}`;
  const manifestIn = JSON.parse(readFileSync(join(repo, 'packages', 'client', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const repoLock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  const lockPackages: Record<string, unknown> = {
    '': { name: 'app', version: '1.0.0', dependencies: { 'adaprivate-client': tarball } },
    'node_modules/adaprivate-client': {
      version: '0.1.0',
      resolved: tarball,
      integrity: info.integrity,
      dependencies: manifestIn.dependencies,
    },
  };
  for (const dep of Object.keys(manifestIn.dependencies)) {
    const entry = repoLock.packages[`node_modules/${dep}`] as
      | { version: string; integrity: string }
      | undefined;
    assert.ok(entry !== undefined, `the client's dependency ${dep} is in the repository's lock file`);
    const base = dep.split('/').at(-1)!;
    lockPackages[`node_modules/${dep}`] = {
      ...entry,
      resolved: `https://registry.npmjs.org/${dep}/-/${base}-${entry.version}.tgz`,
    };
  }
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'app',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies: { 'adaprivate-client': tarball },
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
  const ci = spawnSync(npm, ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8' });
  assert.equal(ci.status, 0, `${ci.stdout}\n${ci.stderr}`);
  assert.doesNotMatch(`${ci.stdout}\n${ci.stderr}`, /EBADENGINE|Unsupported engine/, 'no engine warning');

  const installed = join(app, 'node_modules', 'adaprivate-client');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    scripts?: Record<string, string>;
  };
  assert.deepEqual(manifest.dependencies, { typebox: '1.4.3' }, 'one dependency: the types of the contract');
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) {
    assert.equal(manifest.scripts?.[hook], undefined, `no ${hook} script`);
  }
  assert.deepEqual(readdirSync(join(app, 'node_modules')).sort(), [
    '.package-lock.json',
    'adaprivate-client',
    'typebox',
  ]);
  for (const dep of ['adaprivate-client', 'typebox']) {
    const m = JSON.parse(readFileSync(join(app, 'node_modules', dep, 'package.json'), 'utf8')) as {
      gypfile?: boolean;
      scripts?: Record<string, string>;
      dependencies?: Record<string, string>;
    };
    assert.equal(m.gypfile, undefined, `${dep}: no native build`);
    assert.equal(m.scripts?.install ?? m.scripts?.postinstall, undefined, `${dep}: no install script`);
    assert.ok(!hasNativeParts(join(app, 'node_modules', dep)), `${dep}: no binding.gyp or .node file`);
  }
  assert.deepEqual(
    Object.keys(
      JSON.parse(readFileSync(join(app, 'node_modules', 'typebox', 'package.json'), 'utf8')).dependencies ??
        {},
    ),
    [],
  );
  const size = bytesUnder(join(app, 'node_modules'));
  const own = bytesUnder(installed);
  // the README gives these figures (the budget leaves room for typebox patch releases)
  assert.ok(size < 8_000_000, `installed size ${size} bytes (all of node_modules) must stay under 8 MB`);
  assert.ok(own < 1_000_000, `adaprivate-client alone ${own} bytes must stay under 1 MB`);
  console.log(`adaprivate-client installed: ${size} bytes in node_modules, ${own} bytes of its own`);

  // loads in a plain Node process (no service, no TypeScript)
  const plain = run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const m = await import('adaprivate-client'); console.log(Object.keys(m).sort().join(','));",
    ],
    app,
  );
  assert.equal(
    plain.trim(),
    'AdaPrivateClient,AdaPrivateClientError,BINARY_RANK_TYPE,encodeBinaryRank,encodeBinaryRankBatch',
  );

  writeFileSync(join(app, 'main.ts'), CONSUMER);
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
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
  // type-checks main.ts and every declaration file of adaprivate-client (skipLibCheck: false for ours)
  assert.deepEqual(compileConsumer(app, ['adaprivate-client']), [], 'the consumer compiles');
  assert.ok(existsSync(join(app, 'out', 'main.js')));
  const out = JSON.parse(run(process.execPath, [join(app, 'out', 'main.js')], app));
  assert.deepEqual(out, {
    created: true,
    chosenId: 'b',
    outcome: 'deleted',
    code: '410 model_deleted',
    wrongOption: 'function',
    calls: [
      ['PUT', 'http://service.invalid/v1/models/news', true],
      ['POST', 'http://service.invalid/v1/models/news/rank', true],
      ['DELETE', 'http://service.invalid/v1/models/news?purge=true&confirm=news', true],
      ['POST', 'http://service.invalid/v1/models/news/rank', true],
    ],
    createBody: {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 10 },
      rewardWindowSeconds: 600,
    },
  });
});
