// CLI flags that build a policy go through the one policy parser (parsePolicySpec, issue 26): a
// refused option gives the CLI the same message the service answers in its 400 invalid_options.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../service/testServer.js';

const here = fileURLToPath(import.meta.url);
const cli = here.endsWith('.ts')
  ? fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))
  : fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const nodeArgs = here.endsWith('.ts') ? ['--import', 'tsx', cli] : [cli];

/** The CLI's one-line error (exit code 2), without the `adaprivate: <command>: ` prefix. */
function cliError(command: string, args: string[]): string {
  const r = spawnSync(process.execPath, [...nodeArgs, command, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 2, `${command} ${args.join(' ')}: status ${r.status}\n${r.stderr}`);
  const line = r.stderr.trim();
  const prefix = `adaprivate: ${command}: `;
  assert.ok(line.startsWith(prefix), line);
  return line.slice(prefix.length);
}

describe('CLI policy flags and HTTP options: one parser, one message', () => {
  let t: TestServer;
  let n = 0;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());
  /** The service's message for `options` of `policy`. */
  async function httpError(policy: string, options: Record<string, unknown>): Promise<string> {
    const r = await t.raw('PUT', `/v1/models/m${n++}`, { policy, options });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.code, 'invalid_options');
    return r.body.message as string;
  }

  it('run: a refused delta and batch size, before any cell runs', async () => {
    const base = ['--policy', 'adaprivate-ts', '--epsilon', '1', '--seeds', '1', '--horizon', '10'];
    const delta = cliError('run', [...base, '--delta', '0.5']);
    assert.equal(delta, await httpError('adaprivate-ts', { dim: 2, horizon: 10, epsilon: 1, delta: 0.5 }));
    assert.match(delta, /^AdaPrivate-TS: delta must be at most 0\.001/);
    const batch = cliError('run', [...base, '--batch', '0']);
    assert.equal(batch, await httpError('adaprivate-ts', { dim: 2, horizon: 10, epsilon: 1, batchSize: 0 }));
    assert.equal(batch, 'AdaPrivate-TS: batchSize must be a positive integer. Got 0.');
  });

  it('bench and audit: a refused epsilon and sampling rate', async () => {
    const eps = cliError('bench', ['--policy', 'adaprivate-ucb', '--epsilon', '-1', '--horizon', '10']);
    assert.equal(eps, await httpError('adaprivate-ucb', { dim: 2, horizon: 10, epsilon: -1 }));
    const q = cliError('audit', ['--policy', 'adaprivate-ts-amp', '--q', '2']);
    assert.equal(q, await httpError('adaprivate-ts-amp', { dim: 2, horizon: 10, epsilon: 1, q: 2 }));
  });

  it('an unknown policy id names the known ones, from the same parser', () => {
    for (const command of ['run', 'bench', 'audit']) {
      const args =
        command === 'run' ? ['--policy', 'ts', '--seeds', '1', '--horizon', '10'] : ['--policy', 'ts'];
      assert.match(cliError(command, args), /^--policy: unknown policy id "ts"\. Known ids: adaprivate-ts, /);
    }
  });
});
