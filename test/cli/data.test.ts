import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from './runCli.js';

// in-process (runCli; it passes the test runner's own byte writes through): the spawned program's
// exit code and stderr are test/cli/main.test.ts's
const run = runCli;

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-data-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// 30 users x 12 movies, every user rates every movie; ratings in 0.5..5 steps of 0.5
const rows = ['userId,movieId,rating,timestamp'];
for (let u = 1; u <= 30; u++)
  for (let m = 1; m <= 12; m++)
    rows.push(`${u},${100 + m},${(((u * 7 + m * 3) % 10) + 1) / 2},${u * 1000 + m}`);
const ratings = join(dir, 'ratings.csv');
writeFileSync(ratings, `${rows.join('\n')}\n`);

test('data info --json describes a ratings file (counts, range, mean)', async () => {
  const r = await run(['data', 'info', ratings, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as Record<string, number | string>;
  assert.equal(j.kind, 'ratings');
  assert.equal(j.ratings, 360);
  assert.equal(j.users, 30);
  assert.equal(j.items, 12);
  assert.equal(j.ratingMin, 0.5);
  assert.equal(j.ratingMax, 5);
  assert.equal(j.badRows, 0);
});

test('data prepare writes a features file that data info recognises, and reuses it', async () => {
  const out = join(dir, 'features.bin');
  const r = await run(['data', 'prepare', '--source', ratings, '--out', out, '--rank', '3', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { reused: boolean; header: { params: { rank: number } } };
  assert.equal(j.reused, false);
  assert.equal(j.header.params.rank, 3);
  const again = JSON.parse(
    (await run(['data', 'prepare', '--source', ratings, '--out', out, '--rank', '3', '--json'])).stdout,
  );
  assert.equal(again.reused, true);
  const info = await run(['data', 'info', out, '--json']);
  assert.equal(JSON.parse(info.stdout).kind, 'features');
});

test('bad input: missing file, unknown format, too large a rank, unknown dataset (exit 2, one line)', async () => {
  const cases: [string[], RegExp][] = [
    [['data', 'info', join(dir, 'nope.csv')], /does not exist/],
    [['data', 'prepare', '--source', ratings, '--out', join(dir, 'x.bin'), '--format', 'xls'], /--format/],
    [
      ['data', 'prepare', '--source', ratings, '--out', join(dir, 'y.bin'), '--rank', '50'],
      /rank must be at most/,
    ],
    [['data', 'fetch', 'netflix'], /dataset must be one of/],
  ];
  for (const [args, re] of cases) {
    const r = await run(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    // progress lines ('load: 5576/5576 (100%, 0.0 s)') may come first; the error is one line, the last
    const lines = r.stderr.trim().split('\n');
    const other = lines.filter((l) => !/^[\w -]+: \d+\/(\d+|\?)( \w+)? \(/.test(l));
    assert.equal(other.length, 1, r.stderr);
    assert.equal(lines.at(-1), other[0], r.stderr);
    assert.match(other[0]!, re);
  }
});
