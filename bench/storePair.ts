/**
 * The SQLite store's share of a rank + reward pair, without HTTP or a model: per event, the
 * decision insert, the reward's read of its decision (`rewardTarget`) and `recordReward`, with a
 * release (a snapshot of the size of an AdaPrivate-TS one at d = 20, its ledger row, the batch's
 * pending rewards deleted) every `--release-every` rewards, in groups of `--group` events whose
 * writes commit together (the server's group commit), on a file in a temporary directory with the
 * background checkpoint worker, as `serve` opens it. Prints the process CPU seconds (main thread and
 * worker) and wall seconds per pair, best of `--repeat` runs.
 *
 * Usage (after `npm run build`): node dist/bench/storePair.js [--dim 20] [--arms 5] [--group 8]
 * [--pairs 20000] [--release-every 300] [--repeat 3] [--ids counter|uuid4|uuid7] [--json]. --ids: the
 * event ids (counter: e-<n>, ordered like the load test's; uuid4: random, as clients that make
 * their own UUIDs; uuid7: the service's own, time-ordered). Also prints the main thread's CPU per pair
 * (the rest is the checkpoint worker's).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventIdGenerator } from '../src/service/eventIds.js';
import type { DecisionRow, ReleaseInput } from '../src/store/index.js';
import { SqliteStore } from '../src/store/SqliteStore.js';
import { benchArgs } from './benchArgs.js';
import { threadCpuSeconds } from './loadClient.js';

const args = benchArgs(
  import.meta.url,
  { arms: '5', dim: '20', group: '8', ids: 'counter', pairs: '20000', 'release-every': '300', repeat: '3' },
  ['json'],
);

const d = Number(args.dim);
const k = Number(args.arms);
const group = Number(args.group);
const pairs = Number(args.pairs);
const releaseEvery = Number(args['release-every']);
const repeat = Number(args.repeat);
const json = args.json;
const idKind = args.ids;
if (idKind !== 'counter' && idKind !== 'uuid4' && idKind !== 'uuid7') {
  process.stderr.write(`storePair: --ids takes counter, uuid4 or uuid7. Got ${idKind}.\n`);
  process.exit(2);
}
/** The event ids of a run: e-<n>, random (version 4) or time-ordered (version 7, the service's) UUIDs. */
function eventIds(n: number): string[] {
  const next = idKind === 'uuid4' ? randomUUID : idKind === 'uuid7' ? eventIdGenerator() : null;
  return Array.from({ length: n }, (_, e) => (next === null ? `e-${e}` : next()));
}

/** A snapshot string of about the size of AdaPrivate-TS's at dimension `dim` (d^2 numbers). */
function snapshotOfSize(dim: number): string {
  const xs = Array.from({ length: dim * dim + 4 * dim }, (_, i) => Math.sin(i) / 3);
  return JSON.stringify({ format: 1, state: xs });
}

async function once(): Promise<{ cpu: number; main: number; wall: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-storepair-'));
  const store = SqliteStore.open(join(dir, 's.db'), {
    groupCommit: true,
    checkpoint: 'background',
    lock: true,
  });
  const model = 'm';
  const snapshot = snapshotOfSize(d);
  await store.createModel({
    name: model,
    policy: 'adaprivate-ts',
    options: { dim: d },
    settings: {
      rewardWindowSeconds: 86400,
      defaultReward: null,
      duplicateRule: 'first',
      logRewards: false,
      probabilitySamples: null,
      retainDecisionsDays: null,
      logCandidates: true,
    },
    createdAt: 0,
    snapshot,
  });
  const feats = new Float64Array(k * d).map((_, i) => Math.cos(i));
  const chosen = feats.slice(0, d);
  const armIds = Array.from({ length: k }, (_, a) => `arm${a}`);
  let version = 0;
  let rewards = 0;
  const ids = eventIds(pairs);
  const c0 = process.cpuUsage();
  const m0 = threadCpuSeconds(process.pid, process.pid);
  const t0 = process.hrtime.bigint();
  for (let first = 0; first < pairs; first += group) {
    const n = Math.min(group, pairs - first);
    const ranks: Promise<boolean>[] = [];
    for (let e = first; e < first + n; e++) {
      const row: DecisionRow = {
        model,
        eventId: ids[e]!,
        seq: 0,
        time: e,
        armIds,
        features: feats,
        dim: d,
        chosen: 0,
        chosenFeatures: chosen,
        probabilities: null,
        inversePropensity: { kind: 'exact', value: 1.25, cap: null },
        modelVersion: version,
        rewardState: 'none',
        reward: null,
        rewardSource: null,
        release: null,
      };
      ranks.push(store.insertDecision(row, null));
    }
    await Promise.all(ranks);
    await store.durable();
    const rs: Promise<unknown>[] = [];
    for (let e = first; e < first + n; e++) {
      const target = await store.rewardTarget(model, ids[e]!);
      if (target === null) throw new Error(`no decision ${ids[e]}`);
      rewards++;
      const release: ReleaseInput | null =
        rewards % releaseEvery === 0
          ? { version: ++version, snapshot, spent: { rho: 0.1 * version }, releases: 1, rounds: rewards }
          : null;
      rs.push(
        store.recordReward(
          {
            model,
            eventId: ids[e]!,
            reward: e % 3 === 0 ? 1 : 0,
            time: e,
            source: 'given',
            logReward: false,
          },
          release,
        ),
      );
    }
    for (const r of await Promise.all(rs)) if (r !== 'recorded') throw new Error(`reward: ${String(r)}`);
    await store.durable();
  }
  const cu = process.cpuUsage(c0);
  const main = threadCpuSeconds(process.pid, process.pid) - m0;
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return { cpu: (cu.user + cu.system) / 1e6, main, wall };
}

const runs: { cpu: number; main: number; wall: number }[] = [];
for (let i = 0; i < repeat; i++) runs.push(await once());
const best = runs.reduce((a, b) => (b.cpu < a.cpu ? b : a));
const out = {
  dim: d,
  arms: k,
  group,
  pairs,
  releaseEvery,
  ids: idKind,
  cpuMicrosecondsPerPair: runs.map((r) => Math.round((1e6 * r.cpu) / pairs)),
  mainThreadCpuMicrosecondsPerPair: runs.map((r) => Math.round((1e6 * r.main) / pairs)),
  wallMicrosecondsPerPair: runs.map((r) => Math.round((1e6 * r.wall) / pairs)),
  bestCpuMicrosecondsPerPair: Math.round((1e6 * best.cpu) / pairs),
};
process.stdout.write(json ? `${JSON.stringify(out)}\n` : `${JSON.stringify(out, null, 2)}\n`);
