// The committed WebAssembly modules (src/linalg/kernelsWasm.ts, src/random/xoshiroPolarWasm.ts) must
// be exactly what their .wat sources assemble to with the pinned wabt: the check rebuilds them in
// memory (scripts/build-wasm.mjs --check) and fails when one was edited by hand or not rebuilt.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const root = new URL('../../../', import.meta.url);

test('the generated WebAssembly modules match their .wat sources', () => {
  const r = spawnSync(process.execPath, ['scripts/build-wasm.mjs', '--check'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
});
