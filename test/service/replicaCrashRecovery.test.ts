/**
 * The multi-replica crash test through HTTP: three `adaprivate serve --db postgres://...` child
 * processes on one PostgreSQL database. Clients decide through every replica and reward through
 * every replica (also decisions made by another one). Replicas 1 and 2 are killed with SIGKILL inside
 * release transactions (the test hook, several times each) or at a random point, and restarted;
 * replica 0 survives and keeps serving throughout. At the end: every acknowledged reward is counted
 * exactly once (released once or pending once), nothing was recorded that was not sent, the ledger
 * has versions 1..V each consuming exactly one batch, the survivor and a restarted replica report the
 * same ledger and guarantee, and the restarted replica has caught up (no full batch left pending).
 * Nothing waits on a timer: each step waits for an event (a line on stdout, an answer, an exit).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AdaPrivateClient } from '../../src/client/index.js';
import { createRng } from '../../src/random/index.js';
import { migratePostgres, PostgresStore } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const KEY = 'replica-crash-key-0123456789';
const BATCH = 4;
/** Lives of each of the replicas that are killed (even lives: killed in their first release). */
const LIVES = 3;
const ARMS = [
  { id: 'a', features: [0.5, 0.1, 0.2] },
  { id: 'b', features: [0.1, 0.6, 0.1] },
  { id: 'c', features: [0.2, 0.2, 0.7] },
];

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

interface Life {
  readonly child: ChildProcess;
  /** null: the process died before listening (killed in the catch-up release at start). */
  readonly url: string | null;
  readonly exited: Promise<Exit>;
}

function start(db: string, killInRelease: string): Promise<Life> {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--db', db, '--port', '0', '--json', '--log-level', 'error'],
    {
      env: { ...process.env, ADAPRIVATE_API_KEY: KEY, ADAPRIVATE_TEST_KILL_IN_RELEASE: killInRelease },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  const lines = createInterface({ input: child.stdout! });
  return new Promise<Life>((resolve) => {
    lines.once('line', (l) => resolve({ child, url: (JSON.parse(l) as { url: string }).url, exited }));
    exited.then(() => resolve({ child, url: null, exited }));
  });
}

let pg: PostgresServer;
before(async () => {
  pg = await startPostgres();
});
after(async () => {
  await pg?.stop();
});

test('serve refuses a PostgreSQL database whose schema is not current, naming adaprivate migrate (exit 2)', async () => {
  const url = await pg.createDatabase();
  const life = await start(url, '');
  const e = await life.exited;
  assert.equal(life.url, null);
  assert.equal(e.code, 2, e.stderr);
  assert.match(e.stderr, /run `adaprivate migrate/);
  assert.doesNotMatch(e.stderr, /\n\s+at /, 'one line, no stack');
});

test('three replicas on one database, SIGKILLed inside releases and restarted: every acknowledged reward counted once', async (t) => {
  const db = await pg.createDatabase();
  await migratePostgres(db);
  const rng = createRng(20261201, 'replica-crash-test');
  const acked = new Map<string, number>(); // eventId -> reward acknowledged
  const sent = new Map<string, number>(); // every reward sent (acknowledged or not)
  const unrewarded: string[] = []; // stored decisions (any replica) whose reward was not sent yet
  let eventNo = 0;
  let kills = 0;
  let releaseKills = 0;
  let stopSurvivor = false;

  const first = await start(db, '');
  assert.ok(first.url !== null, 'replica 0 listens');
  const c0 = new AdaPrivateClient({ baseUrl: first.url, apiKey: KEY });
  await c0.createModel('m', {
    policy: 'adaprivate-ts',
    options: { dim: 3, horizon: 1_000_000, epsilon: 1, batchSize: BATCH },
    logRewards: true,
    probabilitySamples: 16,
  });

  /** Decides and rewards through `client` until `stop()` or an error (the replica died). */
  const worker = async (client: AdaPrivateClient, w: string, stop: () => boolean, onAck: () => void) => {
    while (!stop()) {
      let eventId: string;
      if (unrewarded.length > 0 && rng.uniform() < 0.4) eventId = unrewarded.shift()!;
      else {
        eventId = `e${eventNo++}-${w}`;
        try {
          await client.rank('m', { eventId, arms: ARMS });
        } catch {
          return; // died: this decision may or may not be stored; its reward is never sent
        }
        if (rng.uniform() < 0.3) {
          unrewarded.push(eventId); // rewarded later, maybe through another replica
          continue;
        }
      }
      const reward = rng.integer(5) / 4;
      sent.set(eventId, reward);
      try {
        await client.reward('m', { eventId, reward });
      } catch {
        return;
      }
      acked.set(eventId, reward);
      onAck();
    }
  };

  // replica 0: survives, serves until the others are done
  let survivorAcks = 0;
  const survivor = Promise.all(
    ['s0'].map((w) =>
      worker(
        c0,
        w,
        () => stopSurvivor,
        () => {
          survivorAcks++;
        },
      ),
    ),
  );

  // replicas 1 and 2: even lives die in their first release (hook), odd lives are SIGKILLed after
  // a few acknowledged rewards (any point: in a request, between requests, in a release)
  const mortal = async (r: number) => {
    for (let life = 0; life < LIVES; life++) {
      const hooked = life % 2 === 0;
      const srv = await start(db, hooked ? `1:${10 * r + life + 1}` : '');
      let dead = srv.url === null;
      srv.exited.then(() => {
        dead = true;
      });
      if (srv.url !== null) {
        const client = new AdaPrivateClient({ baseUrl: srv.url, apiKey: KEY });
        const target = hooked ? Number.POSITIVE_INFINITY : 2 + rng.integer(6);
        let n = 0;
        await Promise.all(
          [`r${r}l${life}a`, `r${r}l${life}b`].map((w) =>
            worker(
              client,
              w,
              () => dead || n >= target,
              () => {
                n++;
              },
            ),
          ),
        );
      }
      if (!dead) srv.child.kill('SIGKILL');
      const e = await srv.exited;
      assert.equal(e.signal, 'SIGKILL', `replica ${r} life ${life}: ${e.stderr}`);
      kills++;
      if (e.stderr.includes('SIGKILL inside a release transaction')) releaseKills++;
    }
  };
  await Promise.all([mortal(1), mortal(2)]);
  stopSurvivor = true;
  await survivor;

  assert.ok(releaseKills >= 4, `kills inside a release transaction: ${releaseKills}`);
  assert.ok(survivorAcks > 0, 'the survivor kept serving');
  t.diagnostic(`${kills} kills (${releaseKills} inside a release), ${acked.size} rewards acknowledged`);

  // a restarted replica catches up: it releases what a dead replica left as a full batch, and
  // reports the same ledger and guarantee as the survivor
  const restarted = await start(db, '');
  assert.ok(restarted.url !== null);
  const c1 = new AdaPrivateClient({ baseUrl: restarted.url, apiKey: KEY });
  const d = await c1.rank('m', { eventId: 'final', arms: ARMS });
  sent.set('final', 1);
  await c0.reward('m', { eventId: d.eventId, reward: 1 }); // decided on one replica, rewarded on another
  acked.set('final', 1);
  const [s0, s1] = [await c0.status('m'), await c1.status('m')];
  const [l0, l1] = [await c0.ledger('m'), await c1.ledger('m')];
  for (const life of [first, restarted]) {
    life.child.kill('SIGTERM');
    const e = await life.exited;
    assert.equal(e.code, 0, `graceful exit: ${e.stderr}`);
  }

  const store = await PostgresStore.open(db, { migrate: false });
  try {
    const decisions = await store.exportDecisions('m', { limit: 1_000_000 });
    const state = await store.loadModelState('m');
    const ledgerRows = await store.ledger('m');
    assert.ok(state !== null);
    const byEvent = new Map(decisions.map((r) => [r.eventId, r]));
    const pendingCount = new Map<string, number>();
    for (const p of state.pending) pendingCount.set(p.eventId, (pendingCount.get(p.eventId) ?? 0) + 1);
    assert.ok(state.pending.length < BATCH, `no full batch left pending (${state.pending.length})`);

    for (const [eventId, reward] of acked) {
      const r = byEvent.get(eventId);
      assert.ok(r !== undefined, `acknowledged ${eventId} has its decision`);
      assert.equal(r.reward, reward, `${eventId}: the value acknowledged`);
      const inPending = pendingCount.get(eventId) ?? 0;
      if (r.rewardState === 'pending')
        assert.ok(inPending === 1 && r.release === null, `${eventId} pending once`);
      else {
        assert.equal(r.rewardState, 'released', `${eventId} released or pending`);
        assert.ok(inPending === 0 && r.release !== null, `${eventId} released once, not also pending`);
      }
    }
    const recorded = decisions.filter((r) => r.rewardState !== 'none');
    for (const r of recorded)
      assert.equal(sent.get(r.eventId), r.reward, `${r.eventId} was sent with this value`);
    for (const [eventId, n] of pendingCount) {
      assert.equal(n, 1, `${eventId} pending once`);
      assert.equal(byEvent.get(eventId)?.rewardState, 'pending');
    }
    // no batch released twice: versions 1..V, each consumed exactly one batch, each reward in one
    const V = ledgerRows.length;
    assert.deepEqual(
      ledgerRows.map((r) => r.version),
      Array.from({ length: V }, (_, i) => i + 1),
    );
    for (const row of ledgerRows) {
      assert.equal(row.rewards, BATCH, `release ${row.version} consumed one batch`);
      assert.equal(row.rounds, row.version * BATCH);
      assert.equal(recorded.filter((r) => r.release === row.version).length, BATCH);
    }
    assert.equal(recorded.length, V * BATCH + state.pending.length);
    assert.ok(V >= 5, `releases: ${V}`);
    // both replicas report the shared ledger
    assert.deepEqual(l0, l1);
    assert.equal(l0.releases.length, V);
    assert.deepEqual(s0.privacy, s1.privacy);
    for (const s of [s0, s1]) {
      assert.equal(s.batchesReleased, V);
      assert.equal(s.privacy.releases, V);
      assert.equal(s.rounds, recorded.length);
      assert.equal(s.pendingRewards, state.pending.length);
      assert.ok(Math.abs(s.privacy.epsilon - 1) < 1e-6, `epsilon ${s.privacy.epsilon}: parallel composition`);
    }
    assert.equal(s1.modelVersion, V, 'the restarted replica decides from the last release');
  } finally {
    await store.close();
  }
});
