// Coverage study of the intervals `adaprivate evaluate` prints (docs/evaluation.md, "Coverage"):
// for a learning target (LinTS) and a private learning target (AdaPrivate-TS, epsilon 1), on LOGS
// independent uniform logs of N decisions from the synthetic environment (d = 4, 20 arms, 4 per
// round), the replay, IPW, SNIPW and DR intervals pooled over R runs (combineRuns: exploration seeds
// and noise draws) are checked against the truth; one-run intervals are shown for comparison.
//
// Truth (computed from the environment's expected rewards, with seeds the estimates never use):
// - IPW, SNIPW, DR: E over the policy's randomness of (1/n) sum_t sum_a pi_t(a|x_t) mu(x_t, a) on
//   this log (policy learning from the logged rounds), the mean of TRUTH_RUNS runs;
// - replay: the policy's expected online value over its first m rounds learning from its own choices
//   (m = the matched rounds), the mean of TRUTH_RUNS on-policy runs in the same environment.
//
// Private evaluation (`evaluate --private`, evaluation budget epsilon 1, delta 1e-5, exact
// accountant, weight clip 20, 95% normal intervals covering sampling and privacy noise):
// - AdaPrivate-TS: its distributions averaged over the same R runs, event level, IPW/SNIPW/DR
//   (a privately released reward model), against the truth above;
// - a fixed target (one LinTS run's distributions, as a `--target` file), whose exact value on the
//   log is known: event level IPW/SNIPW/DR, and user level IPW/SNIPW with units t mod N/3 (3
//   decisions each, k = 1 kept, clip 4 = the largest weight of a target on uniform logging of 4);
//   cheap, so on PRIVATE_LOGS logs (`--private-logs N`, default 200; `--private-only` runs only these).
//
// Run after `npm run build`:  nice -n 10 node scripts/evaluation-coverage.mjs [LOGS]
// Prints a Markdown table and the CPU and wall time.
import { createSyntheticEnvironment } from '../dist/src/envs/index.js';
import {
  combineRuns,
  crossFitRewardModel,
  decisionLogFromRecords,
  evaluableRounds,
  evaluatedFromPolicy,
  evaluateOnLog,
  evaluationMechanism,
  firstContributions,
  opeInputFromLog,
  privateDoublyRobust,
  privateEstimates,
  privateRewardModel,
  privateUnitDoublyRobust,
  privateUnitEstimates,
  privateUnitRewardModel,
  runPolicyOnLog,
  syntheticDecisions,
} from '../dist/src/evaluation/index.js';
import { createPolicy } from '../dist/src/policies/index.js';

const LOGS = Number(process.argv[2] ?? 40);
// fixed-target private cases are cheap: more logs (`--private-logs N`, default 200); `--private-only`
// runs only them
const PRIVATE_LOGS = Number(process.argv[process.argv.indexOf('--private-logs') + 1] ?? 200) || 200;
const PRIVATE_ONLY = process.argv.includes('--private-only');
// `--user-only`: only the user-level cases with DR and a learning policy (on LOGS logs)
const USER_ONLY = process.argv.includes('--user-only');
// decisions per log of the user-level cases (`--user-rounds N`, default 600, a multiple of 3)
const USER_N = Number(process.argv[process.argv.indexOf('--user-rounds') + 1] ?? 600) || 600;
const N = 600;
const R = 5;
const TRUTH_RUNS = 10;
const SAMPLES = 200;
const ENV = { dim: 4, arms: 20, armsPerRound: 4 };
const ESTIMATORS = ['replay', 'ipw', 'snipw', 'dr'];
const TARGETS = [
  { label: 'LinTS (learning)', id: 'lints', options: {} },
  {
    label: 'AdaPrivate-TS eps 1 (learning, private)',
    id: 'adaprivate-ts',
    options: { epsilon: 1, batchSize: 100 },
  },
];

const started = performance.now();
const cpu0 = process.cpuUsage();

function make(target, seed, horizon) {
  return createPolicy(target.id, {
    dim: ENV.dim,
    horizon,
    seed,
    ...target.options,
    ...(target.id === 'lints' ? {} : { noiseSeed: seed }),
    // the user-level policy is offered all N rewards (kept or dropped by its bounds)
  });
}

/** The policy's expected online value over its first m rounds (on-policy, its own choices). */
function onPolicyValue(target, envSeed, seed, m) {
  const env = createSyntheticEnvironment(ENV, envSeed);
  const p = make(target, seed, Math.max(1, m));
  const k = ENV.armsPerRound;
  const x = new Float64Array(k * ENV.dim);
  const mu = new Float64Array(k);
  let total = 0;
  for (let t = 0; t < m; t++) {
    env.nextRound(x, mu);
    const a = p.select(x, k);
    total += mu[a];
    p.update(env.reward(a));
  }
  return total / Math.max(1, m);
}

const rows = [];
const privateHits = new Map();
const Z = 1.959964;
/** Counts coverage of private estimates against the truth. */
function privateCase(name, estimates, want) {
  for (const e of estimates) {
    const key = `${name}|${e.estimator}`;
    const h = privateHits.get(key) ?? { covered: 0, width: 0, noise: 0, n: 0 };
    if (e.interval[0] <= want && want <= e.interval[1]) h.covered++;
    h.width += e.interval[1] - e.interval[0];
    h.noise += e.noiseSd;
    h.n++;
    privateHits.set(key, h);
  }
}
/** Event-level private IPW, SNIPW and DR of a fixed distribution on the log (3 releases). */
function privateEvent(log, target, seed) {
  const { mechanism } = evaluationMechanism({ epsilon: 1, delta: 1e-5 }, 3, {
    noiseSeed: seed,
    coordinates: log.dim + 1,
  });
  const q = privateRewardModel(log, evaluableRounds(log), mechanism, { round: 0, label: 'model' });
  const input = opeInputFromLog(log, target, q);
  const opts = { clip: 20, z: Z, label: 'coverage' };
  return [
    ...privateEstimates(input, mechanism, { ...opts, round: 1 }),
    privateDoublyRobust(input, mechanism, { ...opts, round: 2 }),
  ];
}
// fixed target (as a --target file): one LinTS run's distributions on the log, exact value known
for (let l = 0; l < (USER_ONLY ? 0 : PRIVATE_LOGS); l++) {
  const envSeed = 1000 + l;
  const env = createSyntheticEnvironment(ENV, envSeed);
  const records = [
    ...syntheticDecisions({ env: ENV, seed: envSeed, rounds: N, logging: { kind: 'uniform' } }),
  ];
  const log = decisionLogFromRecords(records);
  const fixed = runPolicyOnLog(
    log,
    evaluatedFromPolicy(make(TARGETS[0], 300_000 + l, N), { samples: SAMPLES }),
  );
  const valueOn = (rounds) => {
    let v = 0;
    for (const t of rounds) {
      records[t].arms.forEach((arm, a) => {
        v += fixed[log.armOffsets[t] + a] * env.poolMeans[Number(arm.id)];
      });
    }
    return v / rounds.length;
  };
  privateCase('fixed target, event level', privateEvent(log, fixed, 6000 + l), valueOn(evaluableRounds(log)));
  const unitLog = decisionLogFromRecords(records.map((rec, t) => ({ ...rec, unit: `u${t % (N / 3)}` })));
  const kept = firstContributions(unitLog, evaluableRounds(unitLog), 1);
  const { mechanism } = evaluationMechanism({ epsilon: 1, delta: 1e-5 }, 1, { noiseSeed: 7000 + l });
  privateCase(
    'fixed target, user level (k = 1 of 3 per unit)',
    privateUnitEstimates(opeInputFromLog(unitLog, fixed, undefined, kept.rounds), mechanism, {
      clip: 4,
      contributions: 1,
      z: Z,
      round: 0,
      label: 'coverage user',
    }),
    valueOn(kept.rounds),
  );
  if ((l + 1) % 20 === 0)
    process.stderr.write(`coverage: fixed target (private) log ${l + 1}/${PRIVATE_LOGS}\n`);
}
// User level with DR and a learning private policy (docs/evaluation.md, section 4), on LOGS logs of
// USER_N decisions, units t mod USER_N / 3 (3 decisions per unit).
// - fixed target (one LinTS run), a unit's rows removed (contexts included), k = 1, clip 4: the
//   private reward model (Gram matrix and reward statistic), IPW/SNIPW and DR, 3 releases;
// - AdaPrivate-TS eps 1 run with user-level privacy (each unit's rewards in at most 2 releases, one
//   per release), R runs' distributions averaged, a unit's rewards protected (contexts public),
//   k = 2 kept per unit: reward model, IPW/SNIPW and DR with sensitivity 2x the event level's;
//   truth: mean over TRUTH_RUNS other seeds of the user-level policy's exact value on the kept rows.
const USER_TS = {
  label: 'AdaPrivate-TS eps 1 (user level)',
  id: 'adaprivate-ts',
  options: {
    epsilon: 1,
    batchSize: 100,
    privacyUnit: 'user',
    contributionsPerRelease: 1,
    releasesPerEpoch: 2,
  },
};
for (let l = 0; l < (USER_ONLY || !PRIVATE_ONLY ? LOGS : 0); l++) {
  const envSeed = 1000 + l;
  const env = createSyntheticEnvironment(ENV, envSeed);
  const records = [
    ...syntheticDecisions({ env: ENV, seed: envSeed, rounds: USER_N, logging: { kind: 'uniform' } }),
  ];
  const log = decisionLogFromRecords(records.map((rec, t) => ({ ...rec, unit: `u${t % (USER_N / 3)}` })));
  const exactValue = (target, rounds) => {
    let v = 0;
    for (const t of rounds) {
      records[t].arms.forEach((arm, a) => {
        v += target[log.armOffsets[t] + a] * env.poolMeans[Number(arm.id)];
      });
    }
    return v / rounds.length;
  };
  // fixed target, rows relation, k = 1
  const fixed = runPolicyOnLog(
    log,
    evaluatedFromPolicy(make(TARGETS[0], 300_000 + l, USER_N), { samples: SAMPLES }),
  );
  const kept1 = firstContributions(log, evaluableRounds(log), 1);
  {
    const { mechanism } = evaluationMechanism({ epsilon: 1, delta: 1e-5 }, 3, {
      noiseSeed: 8000 + l,
      coordinates: 40,
    });
    const q = privateUnitRewardModel(log, kept1.rounds, mechanism, {
      contributions: 1,
      round: 0,
      label: 'model',
    });
    const input = opeInputFromLog(log, fixed, q, kept1.rounds);
    const opts = { clip: 4, contributions: 1, z: Z, label: 'coverage user' };
    privateCase(
      'fixed target, user level with DR (k = 1 of 3 per unit, clip 4, 3 releases)',
      [
        ...privateUnitEstimates(input, mechanism, { ...opts, round: 1 }),
        privateUnitDoublyRobust(input, mechanism, { ...opts, round: 2 }),
      ],
      exactValue(fixed, kept1.rounds),
    );
  }
  // learning private policy at user level, rewards relation, k = 2
  const kept2 = firstContributions(log, evaluableRounds(log), 2);
  const avg = new Float64Array(log.armOffsets[USER_N]);
  for (let r = 0; r < R; r++) {
    const t = runPolicyOnLog(
      log,
      evaluatedFromPolicy(make(USER_TS, 10 * l + r + 1, USER_N), { samples: SAMPLES }),
      {
        units: true,
      },
    );
    for (let j = 0; j < avg.length; j++) avg[j] += t[j] / R;
  }
  let truth = 0;
  for (let s = 0; s < TRUTH_RUNS; s++) {
    const tgt = runPolicyOnLog(
      log,
      evaluatedFromPolicy(make(USER_TS, 100_000 + 100 * l + s, USER_N), { samples: SAMPLES }),
      { units: true },
    );
    truth += exactValue(tgt, kept2.rounds) / TRUTH_RUNS;
  }
  {
    const { mechanism } = evaluationMechanism({ epsilon: 1, delta: 1e-5 }, 3, {
      noiseSeed: 9000 + l,
      coordinates: log.dim + 1,
    });
    const q = privateRewardModel(log, kept2.rounds, mechanism, {
      contributions: 2,
      round: 0,
      label: 'model',
    });
    const input = opeInputFromLog(log, avg, q, kept2.rounds);
    const opts = { clip: 20, contributions: 2, z: Z, label: 'coverage user policy' };
    privateCase(
      `${USER_TS.label}, ${R} runs averaged, a unit's rewards (k = 2 of 3 per unit, 3 releases)`,
      [
        ...privateEstimates(input, mechanism, { ...opts, round: 1 }),
        privateDoublyRobust(input, mechanism, { ...opts, round: 2 }),
      ],
      truth,
    );
  }
  if ((l + 1) % 10 === 0) process.stderr.write(`coverage: user level log ${l + 1}/${LOGS}\n`);
}
for (const target of PRIVATE_ONLY || USER_ONLY ? [] : TARGETS) {
  const hits = Object.fromEntries(
    ESTIMATORS.map((e) => [e, { pooled: 0, single: 0, width: 0, singleWidth: 0 }]),
  );
  for (let l = 0; l < LOGS; l++) {
    const envSeed = 1000 + l;
    const env = createSyntheticEnvironment(ENV, envSeed);
    const records = [
      ...syntheticDecisions({ env: ENV, seed: envSeed, rounds: N, logging: { kind: 'uniform' } }),
    ];
    const log = decisionLogFromRecords(records);
    const rewardModel = crossFitRewardModel(log);
    const runs = [];
    for (let r = 0; r < R; r++) {
      runs.push(
        evaluateOnLog(
          log,
          {
            evaluated: () => evaluatedFromPolicy(make(target, 10 * l + r + 1, N), { samples: SAMPLES }),
            replaying: () => make(target, 10 * l + r + 1, N),
          },
          { estimators: ESTIMATORS, rewardModel, resamples: 200, seed: l },
        ),
      );
    }
    // truth of the logged-learning estimand: mean over TRUTH_RUNS other seeds of the exact value
    let truth = 0;
    for (let s = 0; s < TRUTH_RUNS; s++) {
      const tgt = runPolicyOnLog(
        log,
        evaluatedFromPolicy(make(target, 100_000 + 100 * l + s, N), { samples: SAMPLES }),
      );
      let v = 0;
      records.forEach((rec, t) => {
        rec.arms.forEach((arm, a) => {
          v += tgt[log.armOffsets[t] + a] * env.poolMeans[Number(arm.id)];
        });
      });
      truth += v / N / TRUTH_RUNS;
    }
    if (target.id === 'adaprivate-ts') {
      // what `evaluate --private` releases for a private policy: its R runs' distributions averaged
      const avg = new Float64Array(log.armOffsets[N]);
      for (let r = 0; r < R; r++) {
        const t = runPolicyOnLog(
          log,
          evaluatedFromPolicy(make(target, 10 * l + r + 1, N), { samples: SAMPLES }),
        );
        for (let j = 0; j < avg.length; j++) avg[j] += t[j] / R;
      }
      privateCase(
        `${target.label}, ${R} runs averaged, event level`,
        privateEvent(log, avg, 5000 + l),
        truth,
      );
    }
    const matched = Math.round(runs.reduce((s, x) => s + x.estimates[0].effectiveSampleSize, 0) / R);
    let online = 0;
    for (let s = 0; s < TRUTH_RUNS; s++)
      online += onPolicyValue(target, envSeed, 200_000 + 100 * l + s, matched) / TRUTH_RUNS;
    ESTIMATORS.forEach((id, j) => {
      const want = id === 'replay' ? online : truth;
      const pooled = combineRuns(runs.map((x) => x.estimates[j]));
      const single = runs[0].estimates[j];
      if (pooled.interval[0] <= want && want <= pooled.interval[1]) hits[id].pooled++;
      if (single.interval[0] <= want && want <= single.interval[1]) hits[id].single++;
      hits[id].width += (pooled.interval[1] - pooled.interval[0]) / LOGS;
      hits[id].singleWidth += (single.interval[1] - single.interval[0]) / LOGS;
    });
    process.stderr.write(`coverage: ${target.label} log ${l + 1}/${LOGS}\n`);
  }
  for (const id of ESTIMATORS) rows.push({ target: target.label, id, ...hits[id] });
}

const cpu = process.cpuUsage(cpu0);
console.log(
  `| target | estimator | covered, ${R} runs pooled | mean width | covered, one run | mean width |`,
);
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(
    `| ${r.target} | ${r.id} | ${r.pooled}/${LOGS} | ${r.width.toFixed(3)} | ${r.single}/${LOGS} | ${r.singleWidth.toFixed(3)} |`,
  );
}
console.log(
  '\n| private evaluation (epsilon 1, exact accountant) | estimator | covered | mean width | mean noise sd |',
);
console.log('| --- | --- | ---: | ---: | ---: |');
for (const [key, h] of privateHits) {
  const [name, id] = key.split('|');
  console.log(
    `| ${name} | ${id} | ${h.covered}/${h.n} | ${(h.width / h.n).toFixed(3)} | ${(h.noise / h.n).toFixed(4)} |`,
  );
}
console.log(
  `\n${PRIVATE_ONLY || USER_ONLY ? 0 : LOGS} logs x ${N} decisions per learning target, ${USER_ONLY ? 0 : PRIVATE_LOGS} logs for the fixed target, ${PRIVATE_ONLY ? 0 : LOGS} logs x ${USER_N} decisions for the user-level cases; ${((performance.now() - started) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU`,
);
