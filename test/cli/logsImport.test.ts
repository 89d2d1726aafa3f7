// `adaprivate logs import` (issue 27): a logged-feedback CSV with display positions and an item
// table become a decision log with slots; position-wise IPW of a target on it, by hand.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from './runCli.js';

const here = fileURLToPath(import.meta.url);
const cli = here.endsWith('.ts')
  ? fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))
  : fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const nodeArgs = here.endsWith('.ts') ? ['--import', 'tsx', cli] : [cli];
// in-process (the spawned program's exit code and stderr are test/cli/main.test.ts's)
const run = runCli;
// the fixture lives in the source tree (test/fixtures), also when the compiled test runs from dist/
const fixture = (name: string) =>
  fileURLToPath(
    new URL(
      `${here.endsWith('.ts') ? '../' : '../../../test/'}fixtures/evaluation/position-log/${name}`,
      import.meta.url,
    ),
  );

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-import-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('adaprivate logs import', () => {
  const events = fixture('events.csv');
  const items = fixture('items.csv');
  const out = join(dir, 'imported.jsonl');

  it('writes one decision per row with every item as a candidate, slots 0..2 and the encoded features', async () => {
    const r = await run(['logs', 'import', '--events', events, '--items', items, '--out', out, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as {
      decisions: number;
      items: number;
      features: string[];
      slots: { position: string; slot: number }[];
    };
    assert.equal(summary.decisions, 12);
    assert.equal(summary.items, 4);
    assert.deepEqual(summary.features, [
      'item_feature_0',
      'item_feature_1=bags',
      'item_feature_1=shoes',
      'user_feature_0=77b2',
      'user_feature_0=9c0e',
      'user_feature_0=f3a1',
      'user_feature_1',
    ]);
    assert.deepEqual(
      summary.slots.map((s) => `${s.position}:${s.slot}`),
      ['1:0', '2:1', '3:2'],
    );
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const first = lines[0];
    assert.equal(first.chosen, 0);
    assert.equal(first.slot, 0);
    assert.equal(first.reward, 1);
    assert.equal(first.propensity, 0.25);
    assert.equal(first.time, '2019-11-24 00:00:01');
    assert.deepEqual(first.arms[0], { id: 'a', features: [0.5, 0, 1, 0, 0, 1, 0.1] });
    assert.deepEqual(first.arms[1], { id: 'b', features: [-0.25, 1, 0, 0, 0, 1, 0.1] });
    assert.equal(lines[4].chosen, 3); // item d
    assert.equal(lines[4].slot, 1);
  });

  it('evaluate --target on the imported log prints position-wise IPW equal to the hand values', async () => {
    const ids = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { eventId: string }).eventId);
    const target = join(dir, 'always-a.jsonl');
    writeFileSync(
      target,
      `${ids.map((eventId) => JSON.stringify({ eventId, probabilities: [1, 0, 0, 0] })).join('\n')}\n`,
    );
    const r = await run([
      'evaluate',
      '--logs',
      out,
      '--target',
      target,
      '--estimators',
      'ipw',
      '--bootstrap',
      '50',
      '--json',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as {
      slots: {
        perRow: number;
        perImpression: number;
        bySlot: { slot: number; value: number; loggedRewardRate: number }[];
      };
    };
    // item a shown and clicked: slot 0 once (imp 1), slot 1 once (imp 3); weight 1 / 0.25 = 4; 4 rows per slot
    assert.deepEqual(
      j.slots.bySlot.map((s) => [s.slot, s.value, s.loggedRewardRate]),
      [
        [0, 1, 0.5],
        [1, 1, 0.5],
        [2, 0, 0],
      ],
    );
    assert.equal(j.slots.perImpression, 2);
    assert.ok(Math.abs(j.slots.perRow - 8 / 12) < 1e-15);
    const text = await run([
      'evaluate',
      '--logs',
      out,
      '--target',
      target,
      '--estimators',
      'ipw',
      '--bootstrap',
      '50',
    ]);
    assert.match(
      text.stdout,
      /Position-wise IPW of target .*per row 0\.6667; per impression \(sum over 3 slots\) 2\.0000/,
    );
    assert.match(
      text.stdout,
      /slot 2: 0\.0000 \[0\.0000, 0\.0000\] over 4 rows \(logged reward rate 0\.0000\)/,
    );
  });

  it('refuses bad input with exit code 2 and a message naming the file, line and column', async () => {
    const badItem = join(dir, 'bad-item.csv');
    writeFileSync(badItem, readFileSync(events, 'utf8').replace('00:00:07,d,2', '00:00:07,z,2'));
    const a = await run([
      'logs',
      'import',
      '--events',
      badItem,
      '--items',
      items,
      '--out',
      join(dir, 'x.jsonl'),
    ]);
    assert.equal(a.status, 2);
    assert.match(a.stderr, /bad-item\.csv:6: item_id "z" is not in the item table/);
    const noClick = join(dir, 'no-click.csv');
    writeFileSync(noClick, readFileSync(events, 'utf8').replace(',click,', ',clicks,'));
    const b = await run([
      'logs',
      'import',
      '--events',
      noClick,
      '--items',
      items,
      '--out',
      join(dir, 'x.jsonl'),
    ]);
    assert.equal(b.status, 2);
    assert.match(b.stderr, /no-click\.csv:1: missing column: one of click \| reward is required/);
    const badP = join(dir, 'bad-p.csv');
    writeFileSync(badP, readFileSync(events, 'utf8').replace('a,1,1,0.25', 'a,1,1,0'));
    const c = await run([
      'logs',
      'import',
      '--events',
      badP,
      '--items',
      items,
      '--out',
      join(dir, 'x.jsonl'),
    ]);
    assert.equal(c.status, 2);
    assert.match(c.stderr, /bad-p\.csv:2: propensity_score must be a number in \(0, 1\]\. Got "0"/);
    const csvOut = await run([
      'logs',
      'import',
      '--events',
      events,
      '--items',
      items,
      '--out',
      join(dir, 'x.csv'),
    ]);
    assert.equal(csvOut.status, 2);
    assert.match(csvOut.stderr, /--out must be a \.jsonl file/);
    const missing = await run([
      'logs',
      'import',
      '--events',
      join(dir, 'nope.csv'),
      '--items',
      items,
      '--out',
      out,
    ]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--events .*nope\.csv does not exist/);
    // spawned: commander ends the process itself after a nested command's help
    const help = spawnSync(process.execPath, [...nodeArgs, 'logs', 'import', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--events <file>/);
    assert.match(help.stdout, /item_feature/);
  });
});
