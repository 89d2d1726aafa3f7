import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DataFormatError } from '../../src/data/DataFormatError.js';
import { loadRatings } from '../../src/data/loadRatings.js';
import { guessRatingsFormat } from '../../src/data/RatingsFormat.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-load-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(name: string, text: string): string {
  const p = join(dir, `${n++}-${name}`);
  writeFileSync(p, text);
  return p;
}

describe('loadRatings', () => {
  it('reads ml-25m / ml-latest ratings.csv with CRLF line ends and re-indexes ids', async () => {
    const p = file(
      'ratings.csv',
      'userId,movieId,rating,timestamp\r\n1,31,2.5,1260759144\r\n1,1029,3.0,1260759179\r\n7,31,5,1260759182\r\n',
    );
    const d = await loadRatings(p, { format: 'movielens-csv' });
    assert.equal(d.count, 3);
    assert.deepEqual(Array.from(d.users), [0, 0, 1]);
    assert.deepEqual(Array.from(d.items), [0, 1, 0]);
    assert.deepEqual(Array.from(d.ratings), [2.5, 3, 5]);
    assert.deepEqual(Array.from(d.userIds), [1, 7]);
    assert.deepEqual(Array.from(d.itemIds), [31, 1029]);
    assert.equal(d.badRows, 0);
  });

  it('reads LF files without a final line end', async () => {
    const p = file('ratings.csv', 'userId,movieId,rating,timestamp\n1,2,4.5,10\n3,2,0.5,11');
    const d = await loadRatings(p, { format: 'movielens-csv' });
    assert.deepEqual(Array.from(d.ratings), [4.5, 0.5]);
  });

  it('reads ml-1m ratings.dat (::) and ml-100k u.data (tab)', async () => {
    const dat = await loadRatings(
      file('ratings.dat', '1::1193::5::978300760\n1::661::3::978302109\n2::1193::4::978301968\n'),
      {
        format: 'movielens-dat',
      },
    );
    assert.deepEqual(Array.from(dat.userIds), [1, 2]);
    assert.deepEqual(Array.from(dat.itemIds), [1193, 661]);
    assert.deepEqual(Array.from(dat.ratings), [5, 3, 4]);
    const u = await loadRatings(file('u.data', '196\t242\t3\t881250949\n186\t302\t3\t891717742\n'), {
      format: 'movielens-100k',
    });
    assert.deepEqual(Array.from(u.userIds), [196, 186]);
    assert.deepEqual(Array.from(u.ratings), [3, 3]);
  });

  it('reads Jester dataset 1 (count column, 99 = missing) and dataset 2', async () => {
    const row = (count: number, vals: number[]): string => [count, ...vals].join(',');
    const r1 = Array<number>(100).fill(99);
    r1[0] = -7.82;
    r1[4] = 8.5;
    r1[99] = 0;
    const r2 = Array<number>(100).fill(99);
    r2[1] = 10;
    const p = file('jester-data-1.csv', `${row(3, r1)}\r\n${row(1, r2)}\n`);
    const d = await loadRatings(p, { format: 'jester-1' });
    assert.equal(d.count, 4);
    assert.deepEqual(Array.from(d.userIds), [1, 2]);
    assert.deepEqual(Array.from(d.itemIds), [1, 5, 100, 2]);
    assert.deepEqual(Array.from(d.ratings), [Math.fround(-7.82), 8.5, 0, 10]);
    const j2 = await loadRatings(
      file('jester_ratings.dat', '1\t\t5\t\t0.219\n1  7 -9.281\n63978\t150\t10\n'),
      {
        format: 'jester-2',
      },
    );
    assert.deepEqual(Array.from(j2.userIds), [1, 63978]);
    assert.deepEqual(Array.from(j2.itemIds), [5, 7, 150]);
    assert.deepEqual(Array.from(j2.ratings), [Math.fround(0.219), Math.fround(-9.281), 10]);
  });

  it('fails on the first bad row with the file name and line number', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'userId,movieId,rating,timestamp\n1,2,4,5\n1,3,abc,6\n',
        'movielens-csv',
        /:3: rating must be a number in \[0\.5, 5\]\. Got "abc"/,
      ],
      [
        'userId,movieId,rating,timestamp\r\n1,2,4,5\r\n1,3,4\r\n',
        'movielens-csv',
        /:3: expected 4 columns\. Got 3/,
      ],
      ['userId,movieId,rating,timestamp\n1,2,5.5,5\n', 'movielens-csv', /:2: rating must be .*Got "5\.5"/],
      ['1,2,4,5\n', 'movielens-csv', /:1: expected the header/],
      ['userId,movieId,rating,timestamp\n1,2,4,5\n1,3', 'movielens-csv', /:3: expected 4 columns.*truncated/],
      ['1::2::x::4\n', 'movielens-dat', /:1: rating/],
      ['1\t2\t3\n', 'movielens-100k', /:1: expected 4 columns/],
      ['1 2\n', 'jester-2', /:1: expected 3 columns/],
      ['1 2 11\n', 'jester-2', /:1: rating must be a number in \[-10, 10\]/],
      ['x 2 1\n', 'jester-2', /:1: user id must be a non-negative integer/],
      [`2,${['1', '2', ...Array(98).fill('99')].join(',')}\n5,1\n`, 'jester-1', /:2: expected 101 columns/],
      [
        `3,${['1', '2', ...Array(98).fill('99')].join(',')}\n`,
        'jester-1',
        /:1: column 1 says 3 jokes were rated, but the row has 2/,
      ],
      [
        `1,${['12', ...Array(99).fill('99')].join(',')}\n`,
        'jester-1',
        /:1: column 2 \(joke 1\) must be a rating in \[-10, 10\] or 99/,
      ],
    ];
    for (const [text, format, re] of cases) {
      const p = file('bad.txt', text);
      await assert.rejects(
        loadRatings(p, { format: format as never }),
        (err: unknown) =>
          err instanceof DataFormatError && re.test(err.message) && err.message.includes('bad.txt'),
        `${format}: ${JSON.stringify(text.slice(0, 60))} should fail with ${re}`,
      );
    }
  });

  it('skips and counts bad rows when asked, keeping the good ones', async () => {
    const p = file('ratings.csv', 'userId,movieId,rating,timestamp\n1,2,4,5\n1,3,abc,6\n\n2,3,3.5,7\n2,4\n');
    const d = await loadRatings(p, { format: 'movielens-csv', skipBadRows: true });
    assert.equal(d.count, 2);
    assert.equal(d.badRows, 2);
    assert.match(d.badRowExamples[0]!, /ratings\.csv:3: /);
    assert.match(d.badRowExamples[1]!, /ratings\.csv:6: /);
    const row = `3,${['1', '2', ...Array(98).fill('99')].join(',')}\n`; // count disagrees: whole row dropped
    const good = `2,${['1', '2', ...Array(98).fill('99')].join(',')}\n`;
    const j = await loadRatings(file('j.csv', row + good), { format: 'jester-1', skipBadRows: true });
    assert.equal(j.count, 2);
    assert.equal(j.badRows, 1);
    assert.deepEqual(Array.from(j.userIds), [2]);
  });

  it('streams a file larger than one read chunk with lines split across chunks', async () => {
    const lines = ['userId,movieId,rating,timestamp'];
    for (let i = 0; i < 60000; i++)
      lines.push(`${(i % 997) + 1},${(i * 7) % 5003},${((i % 10) + 1) / 2},${1000000 + i}`);
    const d = await loadRatings(file('ratings.csv', `${lines.join('\n')}\n`), { format: 'movielens-csv' });
    assert.equal(d.count, 60000);
    assert.equal(d.userIds.length, 997);
    let sum = 0;
    for (const r of d.ratings) sum += r;
    assert.equal(sum, 60000 * 2.75);
  });

  it('guesses the format from official file names', () => {
    assert.equal(guessRatingsFormat('/x/ml-25m/ratings.csv'), 'movielens-csv');
    assert.equal(guessRatingsFormat('ratings.dat'), 'movielens-dat');
    assert.equal(guessRatingsFormat('ml-100k/u.data'), 'movielens-100k');
    assert.equal(guessRatingsFormat('jester-data-1.csv'), 'jester-1');
    assert.equal(guessRatingsFormat('jester_ratings.dat'), 'jester-2');
    assert.equal(guessRatingsFormat('other.txt'), undefined);
  });
});
