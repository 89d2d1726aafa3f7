/**
 * The crash test of a user-level model on PostgreSQL replicas: three `adaprivate serve --db
 * postgres://...` child processes on one database. Replica 0 serves throughout; replicas 1 and 2 are
 * killed with SIGKILL, inside release transactions (the test hook) or at a seeded-random point, and
 * restarted. Every replica decides and rewards units drawn from one small sliding pool, so the same
 * unit's rewards arrive through several replicas at once, and decisions are often rewarded through
 * another replica than the one that made them. At the end, from the database: no unit ever has more
 * than c = 1 kept reward in one release (released or pending) nor takes part in more than m = 2
 * releases; every acknowledged reward is kept once (released or pending) or dropped once; the stored
 * counts equal what the tables hold; the ledger is gapless, one batch per release; and the replicas
 * report one guarantee.
 *
 * Always ends: new units keep entering the pool (so releases keep coming: the hang of a run where
 * every unit had used its m releases and no release ever came cannot happen), and a life whose server
 * is set to die in its next release is also capped at `HOOKED_ACKS` acknowledged rewards. Nothing
 * waits on a timer: each step waits for an event (a line on stdout, an answer, an exit).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { AdaPrivateClient } from '../../src/client/index.js';
import { createRng } from '../../src/random/index.js';
import { migratePostgres } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { type ServeChild, startServeChild } from '../support/serveChild.js';

const KEY = 'user-replica-crash-key-0123456789abcdef';
const BATCH = 3;
const M = 2;
/** Lives of each mortal replica (even lives die in their first release transaction). */
const LIVES = 3;
const HOOKED_ACKS = 150;
const ARMS = [
  { id: 'a', features: [0.5, 0.1, 0.2] },
  { id: 'b', features: [0.1, 0.6, 0.1] },
];

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(async () => {
  await server?.stop();
});

test('user-level model on three replicas, SIGKILLed inside releases and elsewhere and restarted: no unit ever passes c per release or m releases (from the database)', async (t) => {
  const db = await server.createDatabase();
  await migratePostgres(db);
  const rng = createRng(20261202, 'user-replica-crash');
  const acked = new Map<string, number>(); // eventId -> reward acknowledged (kept or dropped)
  const sent = new Map<string, number>();
  const unrewarded: { eventId: string }[] = [];
  let eventNo = 0;
  let droppedAcked = 0;
  let releaseKills = 0;
  let kills = 0;
  let stopSurvivor = false;
  // a failed assertion ends the run: no new life starts and every live server is killed (finally)
  let aborted = false;
  const live = new Set<ServeChild>();
  const start = async (hook: string): Promise<ServeChild> => {
    const c = await startServeChild(db, KEY, hook);
    live.add(c);
    c.exited.then(() => live.delete(c));
    if (aborted) c.child.kill('SIGKILL');
    return c;
  };
  try {
    const first = await start('');
    assert.ok(first.url !== null, 'replica 0 listens');
    const c0 = new AdaPrivateClient({ baseUrl: first.url, apiKey: KEY });
    await c0.createModel('m', {
      policy: 'adaprivate-ts',
      options: {
        dim: 3,
        horizon: 1_000_000,
        epsilon: 1,
        batchSize: BATCH,
        privacyUnit: 'user',
        releasesPerEpoch: M,
      },
      logRewards: true,
      probabilitySamples: 8,
    });
    // a sliding pool of 4 units: a new unit enters every 6 decisions
    const unit = () => `u${Math.floor(eventNo / 6) + rng.integer(4)}`;

    const worker = async (client: AdaPrivateClient, w: string, stop: () => boolean, onAck: () => void) => {
      while (!stop() && !aborted) {
        let eventId: string;
        const queued = unrewarded.length > 0 && rng.uniform() < 0.4 ? unrewarded.shift() : undefined;
        if (queued !== undefined) eventId = queued.eventId;
        else {
          eventId = `e${eventNo++}-${w}`;
          try {
            await client.rank('m', { eventId, unit: unit(), arms: ARMS });
          } catch {
            return; // died: the decision may or may not be stored; its reward is never sent
          }
          if (rng.uniform() < 0.3) {
            unrewarded.push({ eventId }); // rewarded later, maybe through another replica
            continue;
          }
        }
        const reward = rng.integer(5) / 4;
        sent.set(eventId, reward);
        try {
          const r = await client.reward('m', { eventId, reward });
          if (r.dropped !== undefined) droppedAcked++;
        } catch {
          return;
        }
        acked.set(eventId, reward);
        onAck();
      }
    };

    let survivorAcks = 0;
    const survivor = worker(
      c0,
      's0',
      () => stopSurvivor,
      () => {
        survivorAcks++;
      },
    );
    const mortal = async (r: number) => {
      for (let life = 0; life < LIVES && !aborted; life++) {
        const hooked = life % 2 === 0;
        const srv = await start(hooked ? `1:${10 * r + life + 1}:rewards` : '');
        let dead = srv.url === null;
        srv.exited.then(() => {
          dead = true;
        });
        if (srv.url !== null) {
          const client = new AdaPrivateClient({ baseUrl: srv.url, apiKey: KEY });
          const target = hooked ? HOOKED_ACKS : 2 + rng.integer(6);
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
        if (/SIGKILL inside a release transaction/.test(e.stderr)) releaseKills++;
      }
    };
    await Promise.all([mortal(1), mortal(2)]);
    stopSurvivor = true;
    await survivor;

    // a restarted replica releases what a dead one left due; both report status and ledger
    const restarted = await start('');
    assert.ok(restarted.url !== null);
    const c1 = new AdaPrivateClient({ baseUrl: restarted.url, apiKey: KEY });
    const status = [await c0.status('m'), await c1.status('m')] as const;
    const ledgers = [await c0.ledger('m'), await c1.ledger('m')] as const;
    for (const life of [first, restarted]) {
      life.child.kill('SIGTERM');
      const e = await life.exited;
      assert.equal(e.code, 0, `graceful exit: ${e.stderr}`);
    }

    assert.equal(kills, 2 * LIVES);
    assert.ok(releaseKills >= 2, `kills inside a release transaction: ${releaseKills}`);
    assert.ok(survivorAcks > 0, 'the survivor kept serving');
    assert.ok(droppedAcked > 0, 'the bounds were reached');
    assert.deepEqual(status[0].privacy, status[1].privacy, 'the replicas report one guarantee');
    assert.deepEqual(ledgers[0], ledgers[1]);

    const pool = new pg.Pool({ connectionString: db, max: 1 });
    // the server's shutdown (after) must not surface as an error of a connection still closing
    pool.on('error', () => {});
    try {
      const q = async <T>(sql: string): Promise<T[]> => (await pool.query(sql)).rows as T[];
      const rows = await q<{
        event_id: string;
        unit: string;
        reward_state: number;
        reward: number | null;
        release: number | null;
        group: number | null;
        pending: boolean;
      }>(
        `SELECT d.event_id, u.unit, d.reward_state, d.reward, d.release::int AS release, p.release::int AS "group",
              EXISTS (SELECT 1 FROM pending_rewards r WHERE r.model = d.model AND r.event_id = d.event_id) AS pending
       FROM decisions d JOIN decision_units u ON u.model = d.model AND u.event_id = d.event_id
       LEFT JOIN unit_pending p ON p.model = d.model AND p.event_id = d.event_id
       WHERE d.model = 'm'`,
      );
      const byEvent = new Map(rows.map((r) => [r.event_id, r]));
      for (const [eventId, reward] of acked) {
        const r = byEvent.get(eventId);
        assert.ok(r !== undefined, `acknowledged ${eventId} has its decision`);
        assert.ok([1, 2, 3].includes(r.reward_state), `${eventId} kept or dropped`);
        assert.equal(r.reward, reward, `${eventId}: the value acknowledged`);
      }
      const perRelease = new Map<string, number>();
      const participations = new Map<string, Set<string>>();
      let dropped = 0;
      for (const r of rows) {
        if (r.reward_state === 0) continue;
        assert.equal(sent.get(r.event_id), r.reward, `${r.event_id} was sent with this value`);
        if (r.reward_state === 3) {
          dropped++;
          assert.ok(
            !r.pending && r.group === null && r.release === null,
            `dropped ${r.event_id} never pending`,
          );
          continue;
        }
        // released: its ledger version; pending: the group it was admitted to
        const pendingNow = r.reward_state === 1;
        assert.equal(pendingNow, r.pending, `${r.event_id} pending iff state pending`);
        assert.equal(pendingNow, r.group !== null, `${r.event_id} pending iff in a group`);
        const rel = pendingNow ? `g${r.group}` : `v${r.release}`;
        const k = `${r.unit}|${rel}`;
        perRelease.set(k, (perRelease.get(k) ?? 0) + 1);
        const set = participations.get(r.unit) ?? new Set<string>();
        set.add(rel);
        participations.set(r.unit, set);
      }
      for (const [k, n] of perRelease) assert.ok(n <= 1, `${k}: ${n} kept rewards in one release (c = 1)`);
      for (const [u, set] of participations)
        assert.ok(set.size <= M, `${u} takes part in ${set.size} releases (m = ${M})`);
      const totals = await q<{ n: string }>(
        "SELECT dropped_release + dropped_epoch AS n FROM unit_totals WHERE model = 'm'",
      );
      assert.equal(Number(totals[0]?.n), dropped, 'every dropped reward counted once');
      assert.ok(dropped >= droppedAcked);
      const counts = await q<{ unit: string; in_release: number; releases: number }>(
        "SELECT unit, in_release, releases FROM unit_counts WHERE model = 'm'",
      );
      assert.equal(counts.length, participations.size, 'one count per unit that kept a reward');
      for (const c of counts) {
        assert.ok(c.in_release <= 1 && c.releases <= M, `${c.unit}: stored count within the bounds`);
        assert.equal(c.releases, participations.get(c.unit)?.size, `${c.unit}: stored count = the tables`);
      }
      // the ledger: versions 1..V, one batch each; nothing closed left pending
      const ledger = await q<{ version: number; rewards: number; releases: number }>(
        "SELECT version::int AS version, rewards::int AS rewards, releases::int AS releases FROM ledger WHERE model = 'm' ORDER BY version",
      );
      assert.deepEqual(
        ledger.map((l) => l.version),
        ledger.map((_, i) => i + 1),
      );
      for (const l of ledger) assert.ok(l.rewards === BATCH && l.releases === 1, `release ${l.version}`);
      const groups = await q<{ n: number }>(
        "SELECT COUNT(DISTINCT release)::int AS n FROM unit_pending WHERE model = 'm'",
      );
      assert.ok((groups[0]?.n ?? 0) <= 1, 'only the open group is pending');
      for (const s of status) {
        assert.equal(s.modelVersion, ledger.length);
        assert.equal(s.privacy.releases, ledger.length);
        assert.equal(s.privacy.dropped?.total, dropped);
        assert.ok((s.privacy.perEpoch?.epsilon ?? 9) <= 1 + 1e-9);
      }
      t.diagnostic(
        `${kills} kills (${releaseKills} inside a release transaction), ${acked.size} rewards acknowledged (${dropped} dropped), ${ledger.length} releases, ${participations.size} units`,
      );
    } finally {
      await pool.end();
    }
  } finally {
    aborted = true;
    stopSurvivor = true;
    for (const c of live) c.child.kill('SIGKILL');
  }
});
