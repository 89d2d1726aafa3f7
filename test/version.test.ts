import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { VERSION } from '../src/version.js';

const compiled = fileURLToPath(new URL('../src/version.js', import.meta.url));

/** Imports a private copy of the compiled module placed at `rel` under `root`. */
async function versionAt(root: string, rel: string): Promise<string> {
  const file = join(root, rel, 'version.js');
  mkdirSync(join(root, rel), { recursive: true });
  copyFileSync(compiled, file);
  return ((await import(pathToFileURL(file).href)) as { VERSION: string }).VERSION;
}

test('VERSION is the version in the repository package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  assert.equal(VERSION, pkg.version);
  assert.notEqual(VERSION, '0.0.0-unknown');
});

test('VERSION is found from a build copied deeper in the package (e.g. .cache/build/src), skipping other packages', async () => {
  const root = mkdtempSync(join(tmpdir(), 'adaprivate-version-'));
  try {
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'adaprivate', version: '9.8.7', type: 'module' }),
    );
    // a package.json of another package on the way up is not ours
    mkdirSync(join(root, '.cache'), { recursive: true });
    writeFileSync(
      join(root, '.cache', 'package.json'),
      JSON.stringify({ name: 'other', version: '1.2.3', type: 'module' }),
    );
    assert.equal(await versionAt(root, join('.cache', 'build', 'src')), '9.8.7');
    // the light core's own package.json is found the same way
    writeFileSync(
      join(root, '.cache', 'package.json'),
      JSON.stringify({ name: 'adaprivate-core', version: '4.5.6', type: 'module' }),
    );
    assert.equal(await versionAt(root, join('.cache', 'core', 'dist')), '4.5.6');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('VERSION says 0.0.0-unknown only when no package.json of ours exists at any level', async () => {
  const root = mkdtempSync(join(tmpdir(), 'adaprivate-version-'));
  try {
    assert.equal(await versionAt(root, join('lib', 'src')), '0.0.0-unknown');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
