/**
 * The multi-replica crash test through HTTP: three `adaprivate serve --db postgres://...` child
 * processes on one PostgreSQL database. Clients decide through every replica and reward through
 * every replica (also decisions made by another one). Replicas 1 and 2 are killed with SIGKILL inside
 * release transactions (the test hook, several times each) or at a random point, and restarted;
 * replica 0 survives and keeps serving throughout. One run per policy kind (`SCENARIOS`): a batched
 * policy (adaprivate-ts), and two with serialised learning: jdp-linucb (each reward one step under
 * the model row lock; releases at tree nodes) and dgs-linucb (its decisions release too, through
 * `decideSerialised`; killed inside such a decision's transaction as well as inside a step).
 * At the end: every acknowledged reward is counted exactly once (batched: released once or pending
 * once; serialised: consumed by exactly one step, none pending after the final drain), nothing was
 * recorded that was not sent, the ledger has versions 1..V without gaps, the sum of its `releases`
 * equals the `privacy.releases` reported by the survivor and by a restarted replica, which report the
 * same ledger and guarantee, and the restarted replica has caught up.
 * Nothing waits on a timer: each step waits for an event (a line on stdout, an answer, an exit).
 */
import assert from 'node:assert/strict';
import { after, before, type TestContext, test } from 'node:test';
import { AdaPrivateClient } from '../../src/client/index.js';
import { createRng } from '../../src/random/index.js';
import type { LedgerResponse, ModelStatus } from '../../src/service/contract.js';
import type { DecisionRow, LedgerRow, ModelState } from '../../src/store/index.js';
import { migratePostgres, PostgresStore } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { type ServeChild, startServeChild } from '../support/serveChild.js';

const KEY = 'replica-crash-key-0123456789abcdefgh';
const BATCH = 4;
/**
 * Lives of each of the replicas that are killed: life 0 is killed in its first release (the hook),
 * life 1 from outside; 3 until session 13, whose third life repeated the first's kind.
 */
const LIVES = 2;
/**
 * A hooked life that has not died after this many acknowledged rewards stops (the test then fails
 * on the count of kills) instead of running on.
 */
const HOOKED_ACKS = 200;
const ARMS = [
  { id: 'a', features: [0.5, 0.1, 0.2] },
  { id: 'b', features: [0.1, 0.6, 0.1] },
  { id: 'c', features: [0.2, 0.2, 0.7] },
];

function start(db: string, killInRelease: string): Promise<ServeChild> {
  return startServeChild(db, KEY, killInRelease);
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

test('serve refuses a malformed release-hook spec (exit 2, naming the form)', async () => {
  const url = await pg.createDatabase();
  for (const spec of ['1:3:step', '1:3:decision:x']) {
    const life = await start(url, spec);
    const e = await life.exited;
    assert.equal(life.url, null, spec);
    assert.equal(e.code, 2, `${spec}: ${e.stderr}`);
    assert.match(
      e.stderr,
      /ADAPRIVATE_TEST_KILL_IN_RELEASE must be <probability>:<seed>\[:decision\|:rewards\]/,
    );
  }
});

/** One run of the crash test: the policy, how it learns on replicas, and where the hooks kill. */
interface Scenario {
  readonly policy: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** Serialised learning (one reward per step); false: batches of `BATCH`. */
  readonly serialised: boolean;
  /** The release-hook spec of hooked life `life` (0 or 2) of mortal replica `r` (1 or 2). */
  readonly hook: (r: number, life: number) => string;
  /** Kills inside a release transaction the run must have made, by the kind the hook names. */
  readonly minKills: { readonly rewards: number; readonly decision: number };
}

const SCENARIOS: readonly Scenario[] = [
  {
    policy: 'adaprivate-ts',
    options: { dim: 3, horizon: 1_000_000, epsilon: 1, batchSize: BATCH },
    serialised: false,
    hook: (r, life) => `1:${10 * r + life + 1}`,
    minKills: { rewards: 2, decision: 0 },
  },
  {
    // every reward is a step (a ledger row), releasing at the tree nodes it completes
    policy: 'jdp-linucb',
    options: { dim: 3, horizon: 2000, epsilon: 1 },
    serialised: true,
    hook: (r, life) => `1:${10 * r + life + 1}:rewards`,
    minKills: { rewards: 2, decision: 0 },
  },
  {
    // steps release nothing; a decision after new data releases (decideSerialised):
    // the hooked life of replica 1 dies inside such a decision's transaction, replica 2's inside a step's
    policy: 'dgs-linucb',
    options: { dim: 3, horizon: 2000, epsilon: 1 },
    serialised: true,
    hook: (r, life) => `1:${10 * r + life + 1}:${r === 1 ? 'decision' : 'rewards'}`,
    minKills: { rewards: 1, decision: 1 },
  },
];

/** What a run leaves: what the clients saw, what the replicas answered at the end, the tables. */
interface RunResult {
  readonly acked: ReadonlyMap<string, number>;
  readonly sent: ReadonlyMap<string, number>;
  readonly kills: number;
  readonly releaseKills: { readonly rewards: number; readonly decision: number };
  /** Of those, kills in a transaction whose ledger row records at least one privacy release. */
  readonly releasingKills: number;
  readonly survivorAcks: number;
  /** Status and ledger from the survivor (0) and from the replica restarted at the end (1). */
  readonly status: readonly [ModelStatus, ModelStatus];
  readonly ledgers: readonly [LedgerResponse, LedgerResponse];
  readonly decisions: readonly DecisionRow[];
  readonly state: ModelState;
  readonly ledgerRows: readonly LedgerRow[];
}

/**
 * Three replicas on a fresh database under `sc`: replica 0 serves throughout; replicas 1 and 2 live
 * `LIVES` lives each, the even ones killed by the release hook `sc.hook`, the odd ones SIGKILLed from
 * outside after 2-7 acknowledged rewards; then a restarted replica decides, the survivor takes its
 * reward, both report status and ledger and stop gracefully, and the tables are read.
 */
async function crashRun(sc: Scenario, seed: string): Promise<RunResult> {
  const db = await pg.createDatabase();
  await migratePostgres(db);
  const rng = createRng(20261201, seed);
  const acked = new Map<string, number>(); // eventId -> reward acknowledged
  const sent = new Map<string, number>(); // every reward sent (acknowledged or not)
  const unrewarded: string[] = []; // stored decisions (any replica) whose reward was not sent yet
  let eventNo = 0;
  let kills = 0;
  const releaseKills = { rewards: 0, decision: 0 };
  let releasingKills = 0;
  let stopSurvivor = false;

  const first = await start(db, '');
  assert.ok(first.url !== null, 'replica 0 listens');
  const c0 = new AdaPrivateClient({ baseUrl: first.url, apiKey: KEY });
  await c0.createModel('m', {
    policy: sc.policy,
    options: sc.options,
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
  const survivor = worker(
    c0,
    's0',
    () => stopSurvivor,
    () => {
      survivorAcks++;
    },
  );

  // replicas 1 and 2: even lives die in their first hooked transaction, odd lives are SIGKILLed
  // after a few acknowledged rewards (any point: in a request, between requests, in a release)
  const mortal = async (r: number) => {
    for (let life = 0; life < LIVES; life++) {
      const hooked = life % 2 === 0;
      const srv = await start(db, hooked ? sc.hook(r, life) : '');
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
      // the hook's line: `... (decision|rewards, version v, r rewards, n releases)`
      const hook =
        /SIGKILL inside a release transaction \((\w+), version \d+, \d+ rewards, (\d+) releases\)/.exec(
          e.stderr,
        );
      if (hook?.[1] === 'decision') releaseKills.decision++;
      else if (hook !== null) releaseKills.rewards++;
      if (hook !== null && Number(hook[2]) > 0) releasingKills++;
    }
  };
  await Promise.all([mortal(1), mortal(2)]);
  stopSurvivor = true;
  await survivor;

  // a restarted replica catches up (it releases what a dead replica left due) and decides; the
  // survivor takes that decision's reward (the final drain for serialised learning)
  const restarted = await start(db, '');
  assert.ok(restarted.url !== null);
  const c1 = new AdaPrivateClient({ baseUrl: restarted.url, apiKey: KEY });
  const d = await c1.rank('m', { eventId: 'final', arms: ARMS });
  sent.set('final', 1);
  await c0.reward('m', { eventId: d.eventId, reward: 1 }); // decided on one replica, rewarded on another
  acked.set('final', 1);
  const status = [await c0.status('m'), await c1.status('m')] as const;
  const ledgers = [await c0.ledger('m'), await c1.ledger('m')] as const;
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
    return {
      acked,
      sent,
      kills,
      releaseKills,
      releasingKills,
      survivorAcks,
      status,
      ledgers,
      decisions,
      state,
      ledgerRows,
    };
  } finally {
    await store.close();
  }
}

/** The checks of every run: rewards once, nothing unsent, one gapless ledger, replicas agree. */
function checkCommon(sc: Scenario, run: RunResult): void {
  const { acked, sent, decisions, state, ledgerRows } = run;
  assert.ok(
    run.releaseKills.rewards >= sc.minKills.rewards,
    `kills inside a batch or step transaction: ${run.releaseKills.rewards}`,
  );
  assert.ok(
    run.releaseKills.decision >= sc.minKills.decision,
    `kills inside a decision's release transaction: ${run.releaseKills.decision}`,
  );
  assert.ok(run.survivorAcks > 0, 'the survivor kept serving');
  const byEvent = new Map(decisions.map((r) => [r.eventId, r]));
  const pendingCount = new Map<string, number>();
  for (const p of state.pending) pendingCount.set(p.eventId, (pendingCount.get(p.eventId) ?? 0) + 1);
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
  // no version repeated or skipped: versions 1..V; the ledger consumed every released reward once
  const V = ledgerRows.length;
  assert.deepEqual(
    ledgerRows.map((r) => r.version),
    Array.from({ length: V }, (_, i) => i + 1),
  );
  for (const row of ledgerRows) {
    assert.equal(
      recorded.filter((r) => r.release === row.version).length,
      row.rewards,
      `release ${row.version}: its rewards are the decisions released at it`,
    );
  }
  const consumed = ledgerRows.reduce((acc, r) => acc + r.rewards, 0);
  assert.equal(recorded.length, consumed + state.pending.length);
  // the survivor and the restarted replica report the one ledger and the same guarantee
  const [s0, s1] = run.status;
  const [l0, l1] = run.ledgers;
  assert.deepEqual(l0, l1);
  assert.equal(l0.releases.length, V);
  assert.deepEqual(s0.privacy, s1.privacy);
  const ledgerReleases = ledgerRows.reduce((acc, r) => acc + r.releases, 0);
  for (const s of [s0, s1]) {
    assert.equal(
      s.privacy.releases,
      ledgerReleases,
      "sum of the ledger's releases = the replica's privacy.releases",
    );
    assert.equal(s.batchesReleased, V);
    assert.equal(s.modelVersion, V, 'decides from the last release');
    assert.equal(s.rounds, recorded.length);
    assert.equal(s.pendingRewards, state.pending.length);
  }
}

/** Batched: each release consumed exactly one batch; fewer than a batch left pending. */
function checkBatched(run: RunResult): void {
  const { state, ledgerRows } = run;
  assert.ok(state.pending.length < BATCH, `no full batch left pending (${state.pending.length})`);
  for (const row of ledgerRows) {
    assert.equal(row.rewards, BATCH, `release ${row.version} consumed one batch`);
    assert.equal(row.releases, 1);
    assert.equal(row.rounds, row.version * BATCH);
  }
  assert.ok(ledgerRows.length >= 5, `releases: ${ledgerRows.length}`);
  for (const s of run.status) {
    assert.ok(
      Math.abs((s.privacy.epsilon ?? Number.NaN) - 1) < 1e-6,
      `epsilon ${s.privacy.epsilon}: parallel composition`,
    );
  }
}

/**
 * Serialised learning: every acknowledged reward consumed by exactly one step (a ledger row of one
 * reward), rounds advancing by one per step, nothing pending after the final drain; a ledger row of
 * no reward is a decision that released (committed with that decision).
 */
function checkSerialised(sc: Scenario, run: RunResult): void {
  const { acked, decisions, state, ledgerRows } = run;
  assert.deepEqual(state.pending, [], 'nothing pending after the final drain');
  const byEvent = new Map(decisions.map((r) => [r.eventId, r]));
  for (const eventId of acked.keys()) assert.equal(byEvent.get(eventId)?.rewardState, 'released', eventId);
  let rounds = 0;
  for (const row of ledgerRows) {
    if (row.rewards > 0) {
      assert.equal(row.rewards, 1, `step ${row.version} consumed one reward`);
      rounds++;
    } else {
      assert.equal(sc.policy, 'dgs-linucb', `version ${row.version}: only DGS-LinUCB's decisions release`);
      assert.ok(row.releases >= 1, `decision release ${row.version} released`);
      assert.ok(
        decisions.some((d) => d.modelVersion === row.version),
        `decision release ${row.version} committed with a decision`,
      );
    }
    assert.equal(row.rounds, rounds, `version ${row.version}: rounds advance by one per step`);
  }
  const steps = ledgerRows.filter((r) => r.rewards > 0).length;
  assert.equal(steps, decisions.filter((r) => r.rewardState === 'released').length, 'one step per reward');
  assert.ok(steps >= 20, `steps: ${steps}`);
  const made = ledgerRows.reduce((acc, r) => acc + r.releases, 0);
  assert.ok(made > 0, 'the policy released');
  if (sc.policy === 'dgs-linucb')
    assert.ok(
      ledgerRows.some((r) => r.rewards === 0),
      'decisions released',
    );
  const last = ledgerRows.at(-1)!;
  for (const s of run.status)
    assert.equal(s.privacy.epsilon, last.spent.epsilon, 'the last row carries the guarantee');
}

for (const sc of SCENARIOS) {
  const how = sc.serialised ? 'serialised learning' : 'batched';
  test(`${sc.policy} (${how}): three replicas on one database, SIGKILLed inside release transactions and restarted: every acknowledged reward counted once`, async (t: TestContext) => {
    const run = await crashRun(sc, `replica-crash-test-${sc.policy}`);
    checkCommon(sc, run);
    if (sc.serialised) checkSerialised(sc, run);
    else checkBatched(run);
    const releases = run.ledgerRows.reduce((acc, r) => acc + r.releases, 0);
    t.diagnostic(
      `${sc.policy}: ${run.kills} kills (${run.releaseKills.rewards} inside a batch or step, ${run.releaseKills.decision} inside a releasing decision; ${run.releasingKills} of them in a transaction recording >= 1 privacy release), ` +
        `${run.acked.size} rewards acknowledged, ${run.ledgerRows.length} ledger rows, ${releases} privacy releases`,
    );
  });
}
