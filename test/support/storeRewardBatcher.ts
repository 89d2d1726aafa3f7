// A replica process for test/store/replicaCrash.test.ts's batched-rewards test: sends the rewards
// of all events given on the command line at once through PostgresStore.recordPending (so they go
// out in shared insert statements), prints `ack <event id> <largest batch so far>` once each is
// acknowledged, and with killAfter = n > 0 kills itself with SIGKILL right after the n-th
// acknowledgement, while later statements may be in flight. Arguments: url model killAfter event...

import { PostgresStore } from '../../src/store/index.js';
import { rewardOf } from './storeFixtures.js';

const [url, model, killRaw, ...events] = process.argv.slice(2);
const killAfter = Number(killRaw);
let acks = 0;

if (url !== undefined && model !== undefined) {
  const store = await PostgresStore.open(url, { migrate: false, poolSize: 3 });
  const send = async (e: string): Promise<void> => {
    const out = await store.recordPending(
      { model, eventId: e, reward: rewardOf(e), time: 2, source: 'given', logReward: true },
      null,
    );
    // 'duplicate': committed by an earlier incarnation that died before printing its ack
    if (out.outcome !== 'recorded' && out.outcome !== 'duplicate') throw new Error(`${e}: ${out.outcome}`);
    acks++;
    process.stdout.write(`ack ${e} ${store.stats().largestRewardBatch}\n`); // synchronous on a pipe
    if (acks === killAfter) process.kill(process.pid, 'SIGKILL');
  };
  // in groups of 10, a turn of the event loop apart: statements go out while others are queued, so
  // the kill comes with statements in flight (the first reward goes out alone, the rest of its
  // group waits for it and shares the next statement)
  const all: Promise<void>[] = [];
  for (let i = 0; i < events.length; i += 10) {
    for (const e of events.slice(i, i + 10)) all.push(send(e));
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all(all);
  await store.close();
}
