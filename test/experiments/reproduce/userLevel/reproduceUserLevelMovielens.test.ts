// MovieLens by user on a small generated ratings file: users of very different activity, arrivals
// by activity, bounds chosen from the training split, the event-level group guarantee for the median
// and heaviest user from the runs' per-user counts, and user-level rows with the share dropped.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  createReplayStream,
  loadRatings,
  prepareFeaturesFile,
  trainingRatingsPerUser,
} from '../../../../src/data/index.js';
import { reproduceUserLevelMovielens } from '../../../../src/experiments/reproduce/userLevel/reproduceUserLevelMovielens.js';
import { createRng } from '../../../../src/random/index.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-ml-users-'));
const source = join(dir, 'ratings.csv');
after(() => rmSync(dir, { recursive: true, force: true }));

before(() => {
  // 30 users x 60 movies; user u rates a share of the movies growing with u (a few heavy users)
  const rng = createRng(5, 'data');
  const lines = ['userId,movieId,rating,timestamp'];
  for (let u = 1; u <= 30; u++) {
    const share = u <= 25 ? 0.2 : 0.95;
    const a = rng.normal();
    for (let m = 1; m <= 60; m++) {
      if (rng.uniform() > share) continue;
      const r = Math.min(5, Math.max(0.5, Math.round((3 + a * Math.sin(m) + 0.5 * rng.normal()) * 2) / 2));
      lines.push(`${u},${m},${r.toFixed(1)},${u * 1000 + m}`);
    }
  }
  writeFileSync(source, `${lines.join('\n')}\n`);
});

describe('MovieLens by user', () => {
  test('activity arrivals: heavy users arrive more often, every step carries its user', async () => {
    const featuresFile = join(dir, 'f.bin');
    await prepareFeaturesFile({ source, format: 'movielens-csv', out: featuresFile, params: { rank: 3 } });
    const count = (userArrivals: 'uniform' | 'activity') => {
      const s = createReplayStream({ featuresFile, horizon: 3000, userArrivals }, 1);
      const x = new Float64Array(s.armsPerRound * s.dim);
      const seen = new Map<string, number>();
      for (let t = 0; t < 3000; t++) {
        s.nextStep(x);
        const u = s.unit!();
        seen.set(u, (seen.get(u) ?? 0) + 1);
      }
      return seen;
    };
    const heavy = (m: Map<string, number>) =>
      ['u25', 'u26', 'u27', 'u28', 'u29'].reduce((n, u) => n + (m.get(u) ?? 0), 0);
    assert.ok(heavy(count('activity')) > 2 * heavy(count('uniform')), 'heavy users arrive more often');
    assert.throws(
      () => createReplayStream({ featuresFile, userArrivals: 'weekly' as never }, 1),
      /userArrivals must be 'uniform' or 'activity'. Got "weekly"/,
    );
  });

  test('the study: bounds from the training split, group guarantees, user-level rows', async () => {
    const doc = join(dir, 'REPRODUCTION-movielens.md');
    writeFileSync(doc, '# MovieLens\n');
    const r = await reproduceUserLevelMovielens({
      source,
      format: 'movielens-csv',
      outDir: join(dir, 'out'),
      quick: true,
      horizon: 3000,
      rank: 3,
      inProcess: true,
      docPath: doc,
    });
    // the rule saw the training split only
    const data = await loadRatings(source, { format: 'movielens-csv' });
    const train = trainingRatingsPerUser(data, { evalFraction: 0.5, seed: 1 });
    assert.equal(r.bounds.users, Array.from(train).filter((c) => c > 0).length);
    assert.equal(r.bounds.rewards, 600);
    const ts = r.rows.find((x) => x.policy === 'adaprivate-ts' && x.unit === 'event' && x.epsilon === 1)!;
    assert.ok(ts.perUser !== null && ts.perUser.max > ts.perUser.median);
    assert.ok(
      ts.heaviestUser!.zcdpEpsilon! > ts.medianUser!.zcdpEpsilon! && ts.medianUser!.zcdpEpsilon! >= 1,
    );
    assert.ok(ts.heaviestUser!.exactEpsilon! < ts.heaviestUser!.zcdpEpsilon!);
    const user = r.rows.filter((x) => x.unit === 'user');
    assert.equal(user.length, 8, 'AdaPrivate-TS and -UCB at eps 1 and 5, zCDP and exact');
    for (const u of user) assert.ok(u.dropped !== null && u.dropped.mean >= 0 && u.dropped.mean < 1);
    // the exact accountant's user-level noise is smaller than zCDP's at the same (eps, delta)
    for (const eps of [1, 5]) {
      const z = user.find(
        (u) => u.policy === 'adaprivate-ts' && u.epsilon === eps && u.accountant === 'zcdp',
      )!;
      const x = user.find(
        (u) => u.policy === 'adaprivate-ts' && u.epsilon === eps && u.accountant === 'exact',
      )!;
      assert.ok(x.noiseSigma! < z.noiseSigma!, `eps ${eps}: exact ${x.noiseSigma} < zCDP ${z.noiseSigma}`);
    }
    const md = readFileSync(doc, 'utf8');
    assert.match(md, /<!-- section:user-level-movielens:start -->/);
    assert.match(md, /Bounds rule \(training split only\)/);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
    assert.deepEqual(results.seeds, [1, 2]);
    assert.equal(results.bounds.contributionsPerRelease, r.bounds.contributionsPerRelease);
  });
});
