/**
 * The PL/pgSQL functions through which a replica commits a computed release in one round trip
 * (docs/serving-replicas.md, "One round trip under the lock"). Each function is one statement, so
 * at autocommit it is one transaction: it takes the model row lock, checks that the stored version
 * is the one the release was computed from, and writes everything the release commits together; the
 * lock is held for that one statement. PL/pgSQL runs each of its statements with a new snapshot at
 * READ COMMITTED, so what a function reads after taking the lock includes everything committed
 * before the lock was granted (a single CTE statement would not see that).
 *
 * They are created in each connection's own temporary schema (`pg_temp`) when the connection
 * opens: no schema migration, nothing shared between replicas of different versions, and no
 * privilege beyond TEMP (granted to every role by default). Callers name them `pg_temp.<name>`.
 *
 * Answers (text): 'gone' (no model), 'stale' (the stored version moved: nothing written), and per
 * function the others below.
 */

/** Ledger row, model row (version, rounds, snapshot) and the release notification of one release. */
const commitRelease = (channel: string): string => `
CREATE FUNCTION pg_temp.adaprivate_commit_release(p_model text, p_version bigint, p_time bigint,
  p_releases bigint, p_rounds bigint, p_rewards bigint, p_spent text, p_snapshot text)
RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
  INSERT INTO ledger (model, version, time, releases, rounds, rewards, spent)
    VALUES (p_model, p_version, p_time, p_releases, p_rounds, p_rewards, p_spent);
  UPDATE models SET version = p_version, rounds = p_rounds, snapshot = p_snapshot WHERE name = p_model;
  PERFORM pg_notify('${channel}', p_version || ':' || p_model);
END
$f$`;

/**
 * Consecutive steps of a serialised-learning policy, each consuming one reward directly (never
 * pending), computed in order from version `p_expected` and committed together (the group commit of
 * a replica's steps: one round trip, one lock, however many steps): 'unknown-event:<i>' or
 * 'duplicate:<i>' (the first step whose event has no decision, or already has a reward or repeats
 * an earlier step's; nothing written), 'stale' (version or rounds moved), 'pending' (rewards of the
 * model are pending: the caller takes the pending path, so they are learned first),
 * 'horizon-exhausted' (the steps would pass `p_horizon` learned rounds), or 'recorded' (step i, from
 * 1: its decision rewarded and released at version + i, its ledger row of 1 reward at rounds + i,
 * with its own time, releases and spent; the model row at the last step with `p_snapshot`).
 */
const stepRewards = (channel: string): string => `
CREATE FUNCTION pg_temp.adaprivate_step_rewards(p_model text, p_expected bigint, p_events text[],
  p_logged double precision[], p_sources text[], p_units text[], p_horizon bigint, p_times bigint[],
  p_releases bigint[], p_rounds bigint, p_spent text[], p_snapshot text)
RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
  v bigint;
  r bigint;
  st int;
  n int := cardinality(p_events);
BEGIN
  SELECT version, rounds INTO v, r FROM models WHERE name = p_model FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN 'unknown-event:0'; END IF;
  FOR i IN 1..n LOOP
    IF i > 1 AND p_events[i] = ANY(p_events[1:i - 1]) THEN RETURN 'duplicate:' || (i - 1); END IF;
    SELECT reward_state INTO st FROM decisions WHERE model = p_model AND event_id = p_events[i] FOR UPDATE;
    IF NOT FOUND THEN RETURN 'unknown-event:' || (i - 1); END IF;
    IF st <> 0 THEN RETURN 'duplicate:' || (i - 1); END IF;
  END LOOP;
  IF v <> p_expected OR p_rounds <> r + n THEN RETURN 'stale'; END IF;
  IF EXISTS (SELECT 1 FROM pending_rewards WHERE model = p_model) THEN RETURN 'pending'; END IF;
  IF p_horizon IS NOT NULL AND r + n > p_horizon THEN RETURN 'horizon-exhausted'; END IF;
  UPDATE decisions d SET reward_state = 2, reward = x.logged, reward_source = x.source, release = v + x.i
    FROM unnest(p_events, p_logged, p_sources) WITH ORDINALITY AS x(event_id, logged, source, i)
    WHERE d.model = p_model AND d.event_id = x.event_id;
  INSERT INTO decision_units (model, event_id, unit)
    SELECT p_model, x.event_id, x.unit FROM unnest(p_events, p_units) AS x(event_id, unit)
    WHERE x.unit IS NOT NULL
    ON CONFLICT (model, event_id) DO NOTHING;
  INSERT INTO ledger (model, version, time, releases, rounds, rewards, spent)
    SELECT p_model, v + x.i, x.time, x.releases, r + x.i, 1, x.spent
    FROM unnest(p_times, p_releases, p_spent) WITH ORDINALITY AS x(time, releases, spent, i);
  UPDATE models SET version = v + n, rounds = r + n, snapshot = p_snapshot WHERE name = p_model;
  PERFORM pg_notify('${channel}', (v + n) || ':' || p_model);
  RETURN 'recorded';
END
$f$`;

/**
 * The release of pending rewards `p_seqs` (read without the lock at version `p_expected`):
 * 'gone', 'stale', or 'released' (those raw rewards deleted, their decisions marked released, the
 * ledger row and the model row written). Pending rewards are deleted only by a release, which moves
 * the version, so at the expected version all of them are still there; if not, it raises (nothing
 * is committed).
 */
const RELEASE_PENDING = `
CREATE FUNCTION pg_temp.adaprivate_release_pending(p_model text, p_expected bigint, p_seqs bigint[],
  p_time bigint, p_releases bigint, p_rounds bigint, p_spent text, p_snapshot text)
RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
  v bigint;
  r bigint;
  ids text[];
BEGIN
  SELECT version, rounds INTO v, r FROM models WHERE name = p_model FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN 'gone'; END IF;
  IF v <> p_expected OR p_rounds <> r + cardinality(p_seqs) THEN RETURN 'stale'; END IF;
  WITH d AS (DELETE FROM pending_rewards WHERE model = p_model AND seq = ANY(p_seqs) RETURNING event_id)
    SELECT array_agg(event_id) INTO ids FROM d;
  IF coalesce(cardinality(ids), 0) <> cardinality(p_seqs) THEN
    RAISE EXCEPTION 'adaprivate: pending rewards of model % changed at version %', p_model, v;
  END IF;
  UPDATE decisions SET reward_state = 2, release = v + 1 WHERE model = p_model AND event_id = ANY(ids);
  PERFORM pg_temp.adaprivate_commit_release(p_model, v + 1, p_time, p_releases, p_rounds,
    cardinality(p_seqs), p_spent, p_snapshot);
  RETURN 'released';
END
$f$`;

/**
 * A decision of a policy whose select may release (DGS-LinUCB), decided at version `p_expected`:
 * 'gone', 'stale', 'exists' (the event id has a decision: nothing written), or 'inserted' (the
 * decision and, when `p_snapshot` is not null, its release: ledger row of 0 rewards, version + 1).
 */
const DECIDE = `
CREATE FUNCTION pg_temp.adaprivate_decide(p_model text, p_expected bigint, p_event text, p_time bigint,
  p_arm_ids text, p_features bytea, p_dim int, p_chosen int, p_chosen_features bytea,
  p_probabilities text, p_model_version bigint, p_unit text, p_releases bigint, p_rounds bigint,
  p_spent text, p_snapshot text, p_clipped int)
RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
  v bigint;
  n int;
BEGIN
  SELECT version INTO v FROM models WHERE name = p_model FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN 'gone'; END IF;
  IF v <> p_expected THEN RETURN 'stale'; END IF;
  INSERT INTO decisions (model, event_id, time, arm_ids, features, dim, chosen, chosen_features,
      probabilities, model_version, clipped)
    VALUES (p_model, p_event, p_time, p_arm_ids, p_features, p_dim, p_chosen, p_chosen_features,
      p_probabilities, p_model_version, p_clipped)
    ON CONFLICT (model, event_id) DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n = 0 THEN RETURN 'exists'; END IF;
  IF p_unit IS NOT NULL THEN
    INSERT INTO decision_units (model, event_id, unit) VALUES (p_model, p_event, p_unit)
      ON CONFLICT (model, event_id) DO NOTHING;
  END IF;
  IF p_snapshot IS NOT NULL THEN
    PERFORM pg_temp.adaprivate_commit_release(p_model, v + 1, p_time, p_releases, p_rounds, 0, p_spent, p_snapshot);
  END IF;
  RETURN 'inserted';
END
$f$`;

/**
 * Consecutive decisions of a policy whose select may release (DGS-LinUCB), decided in order from
 * version `p_expected` and committed together (a replica's group commit of the decisions that
 * queued while its last commit was in flight): 'gone', 'stale', 'exists:<i>' (the first decision
 * whose event id has a decision, or repeats an earlier one's: nothing written), or 'inserted' (every
 * decision, and for each one that released, `p_releases[i]` not null, a ledger row of 0 rewards at
 * the next version, in order; the model row at the last of them with `p_snapshot`).
 */
const decideMany = (channel: string): string => `
CREATE FUNCTION pg_temp.adaprivate_decide_many(p_model text, p_expected bigint, p_events text[],
  p_times bigint[], p_arm_ids text[], p_features bytea[], p_dims int[], p_chosen int[],
  p_chosen_features bytea[], p_probabilities text[], p_model_versions bigint[], p_units text[],
  p_releases bigint[], p_spent text[], p_rounds bigint, p_snapshot text, p_clipped int[])
RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
  v bigint;
  n int := cardinality(p_events);
  m int;
BEGIN
  SELECT version INTO v FROM models WHERE name = p_model FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN 'gone'; END IF;
  IF v <> p_expected THEN RETURN 'stale'; END IF;
  FOR i IN 1..n LOOP
    IF (i > 1 AND p_events[i] = ANY(p_events[1:i - 1]))
      OR EXISTS (SELECT 1 FROM decisions WHERE model = p_model AND event_id = p_events[i]) THEN
      RETURN 'exists:' || (i - 1);
    END IF;
  END LOOP;
  INSERT INTO decisions (model, event_id, time, arm_ids, features, dim, chosen, chosen_features,
      probabilities, model_version, clipped)
    SELECT p_model, x.event_id, x.time, x.arm_ids, x.features, x.dim, x.chosen, x.chosen_features,
      x.probabilities, x.model_version, x.clipped
    FROM unnest(p_events, p_times, p_arm_ids, p_features, p_dims, p_chosen, p_chosen_features,
      p_probabilities, p_model_versions, p_clipped) WITH ORDINALITY
      AS x(event_id, time, arm_ids, features, dim, chosen, chosen_features, probabilities, model_version,
        clipped, i)
    ORDER BY x.i
    ON CONFLICT (model, event_id) DO NOTHING;
  GET DIAGNOSTICS m = ROW_COUNT;
  IF m <> n THEN
    RAISE EXCEPTION 'adaprivate: a decision of model % exists at version %', p_model, v;
  END IF;
  INSERT INTO decision_units (model, event_id, unit)
    SELECT p_model, x.event_id, x.unit FROM unnest(p_events, p_units) AS x(event_id, unit)
    WHERE x.unit IS NOT NULL
    ON CONFLICT (model, event_id) DO NOTHING;
  INSERT INTO ledger (model, version, time, releases, rounds, rewards, spent)
    SELECT p_model, v + row_number() OVER (ORDER BY x.i), x.time, x.releases, p_rounds, 0, x.spent
    FROM unnest(p_times, p_releases, p_spent) WITH ORDINALITY AS x(time, releases, spent, i)
    WHERE x.releases IS NOT NULL;
  GET DIAGNOSTICS m = ROW_COUNT;
  IF m > 0 THEN
    UPDATE models SET version = v + m, snapshot = p_snapshot WHERE name = p_model;
    PERFORM pg_notify('${channel}', (v + m) || ':' || p_model);
  END IF;
  RETURN 'inserted';
END
$f$`;

/**
 * The statements that create the functions in a new connection's temporary schema, as one
 * simple-protocol query (one round trip); releases are announced on `channel` (LISTEN/NOTIFY).
 *
 * @example
 * await client.query(postgresRoutines('adaprivate_release')); // then: SELECT pg_temp.adaprivate_decide(...)
 */
export function postgresRoutines(channel: string): string {
  if (!/^[a-z_]+$/.test(channel)) {
    throw new RangeError(`postgresRoutines: channel must be lower-case letters and '_'. Got '${channel}'.`);
  }
  return [commitRelease(channel), stepRewards(channel), RELEASE_PENDING, DECIDE, decideMany(channel)].join(
    ';\n',
  );
}
