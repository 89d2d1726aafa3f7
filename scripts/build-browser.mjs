// Browser builds with esbuild (pinned in package.json): the ESM bundle of adaprivate-core
// (packages/core/dist/adaprivate-core.browser.js, from src/index.ts) and the live page's worker
// (site/playground/study-worker.js). Three modules that need Node, and the three WebAssembly kernel
// loaders (the JavaScript kernels give the same numbers), are swapped for their
// `.browser.ts` twins (version from package.json at build time; the file-based save/load throw),
// and the build fails if any other Node built-in is reached. Prints each output's size, raw and
// gzipped. Usage: node scripts/build-browser.mjs [--out-core FILE] [--out-site DIR] [--quiet]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : resolve(process.argv[i + 1]);
};
const outCore = arg('--out-core', join(root, 'packages/core/dist/adaprivate-core.browser.js'));
const outSite = arg('--out-site', join(root, 'site/playground'));
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const SWAPPED = [
  'src/version.ts',
  'src/policies/loadPolicyFile.ts',
  'src/policies/savePolicyFile.ts',
  // no WebAssembly kernels in the browser bundle (the JavaScript paths give the same numbers)
  'src/random/xoshiroPolarKernel.ts',
  'src/linalg/linalgKernel.ts',
  'src/linalg/kernelArena.ts',
];

const browserTwins = {
  name: 'browser-twins',
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, (args) => {
      if (args.kind === 'entry-point' || !args.path.startsWith('.')) return undefined;
      // a package's own relative imports (e.g. @noble/hashes) are its .js files, not our .ts sources
      if (args.importer.includes('/node_modules/')) return undefined;
      const ts = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      const rel = ts.slice(root.length + 1);
      if (SWAPPED.includes(rel)) return { path: ts.replace(/\.ts$/, '.browser.ts') };
      return { path: ts };
    });
    b.onResolve({ filter: /^node:|^(fs|path|os|crypto|stream|worker_threads)$/ }, (args) => ({
      errors: [{ text: `Node built-in ${args.path} imported by ${args.importer.slice(root.length + 1)}` }],
    }));
  },
};

const common = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  plugins: [browserTwins],
  define: { __ADAPRIVATE_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
  write: false,
};

const outputs = [
  { entry: join(root, 'src/index.ts'), out: outCore },
  { entry: join(root, 'src/playground/studyWorker.ts'), out: join(outSite, 'study-worker.js') },
];
const sizes = {};
for (const o of outputs) {
  mkdirSync(dirname(o.out), { recursive: true });
  const r = await build({ ...common, entryPoints: [o.entry], outfile: o.out });
  const text = r.outputFiles[0].contents;
  writeFileSync(o.out, text);
  sizes[o.out.slice(root.length + 1)] = {
    bytes: text.length,
    gzipBytes: gzipSync(text, { level: 9 }).length,
  };
}
// --quiet: nothing on stdout (npm pack --json reads the stdout of the core build it runs)
if (!process.argv.includes('--quiet')) console.log(JSON.stringify(sizes));
