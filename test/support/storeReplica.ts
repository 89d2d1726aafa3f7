// A replica process for test/store/replicaCrash.test.ts: records the rewards of the events given on
// the command line through a PostgresStore, prints `ack <event id>` once each is committed, and
// after each reward tries to release a batch. Arguments: url model batchSize killAt event...; with
// killAt = n > 0 it kills itself with SIGKILL inside its n-th release transaction, after every write
// and before COMMIT (0: never).

import { PostgresStore } from '../../src/store/index.js';
import { rewardOf, sumRelease } from './storeFixtures.js';

const [url, model, batchRaw, killRaw, ...events] = process.argv.slice(2);
const batch = Number(batchRaw);
const killAt = Number(killRaw);
let releases = 0;

if (url !== undefined && model !== undefined) {
  const store = await PostgresStore.open(url, {
    migrate: false,
    poolSize: 2,
    beforeReleaseCommit: () => {
      releases++;
      if (releases === killAt) process.kill(process.pid, 'SIGKILL');
    },
  });
  for (const e of events) {
    const outcome = await store.recordReward(
      { model, eventId: e, reward: rewardOf(e), time: 2, source: 'given', logReward: true },
      null,
    );
    // 'duplicate': committed by an earlier incarnation that died before printing its ack
    if (outcome !== 'recorded' && outcome !== 'duplicate') throw new Error(`${e}: ${outcome}`);
    process.stdout.write(`ack ${e}\n`);
    await store.releaseBatch(model, batch, 3, sumRelease);
  }
  await store.close();
}
