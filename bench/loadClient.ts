/**
 * The client side of the service load benchmarks: a pool of pre-generated rank requests, one
 * autocannon run of rank + reward pairs against one server, and CPU seconds from /proc (Linux).
 */
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { createRng } from '../src/random/index.js';
import { BINARY_RANK_TYPE, encodeBinaryRank, encodeBinaryRankBatch } from '../src/service/binaryRank.js';

/** Fields after the command name in /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat (index 0 is the state). */
function statFields(pid: number, tid?: number): string[] | null {
  try {
    const f = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    return f.slice(f.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // exited
  }
}

/**
 * A server thread's CPU per pair of run `r` in microseconds (`cpuSeconds` measured over the run): the
 * steadier figure on a shared or throttled machine, where pairs/s moves with what else runs.
 */
export function microsecondsPerPair(r: PairRun, cpuSeconds: number): number {
  const pairs = (r.requests / 2) * r.batch; // a rank and a reward request per pair
  return pairs > 0 ? Math.round((1e6 * cpuSeconds) / pairs) : 0;
}

/** utime + stime of one thread `tid` of process `pid` in seconds (the main thread: tid = pid). */
export function threadCpuSeconds(pid: number, tid: number): number {
  const r = statFields(pid, tid);
  return r === null ? 0 : (Number(r[11]) + Number(r[12])) / 100;
}

/** utime + stime of a process in seconds. */
export function cpuSeconds(pid: number): number {
  const r = statFields(pid);
  return r === null ? 0 : (Number(r[11]) + Number(r[12])) / 100;
}

/**
 * CPU seconds of a process tree root and its children, reaped ones included (cutime + cstime):
 * for PostgreSQL, the postmaster and its backends.
 */
export function treeCpuSeconds(pid: number): number {
  const r = statFields(pid);
  if (r === null) return 0;
  let s = (Number(r[11]) + Number(r[12]) + Number(r[13]) + Number(r[14])) / 100;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const c = statFields(Number(name));
    if (c !== null && Number(c[1]) === pid) s += (Number(c[11]) + Number(c[12])) / 100;
  }
  return s;
}

/** `n` JSON arrays of K arms with unit-norm d-dimensional features (seeded). */
export function armsPool(d: number, k: number, n: number): string[] {
  const rng = createRng(1, 'loadtest');
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const arms = [];
    for (let a = 0; a < k; a++) {
      const x = Array.from({ length: d }, () => rng.normal());
      const norm = Math.hypot(...x);
      arms.push({ id: `arm${a}`, features: x.map((v) => Number((v / norm).toFixed(6))) });
    }
    out.push(JSON.stringify(arms));
  }
  return out;
}

/** What one run measured (latencies per request). */
export interface PairRun {
  readonly pairsPerSecond: number;
  readonly requests: number;
  readonly p50ms: number;
  readonly p99ms: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Events per request (1: the single-event routes; more: rank/batch and rewards/batch). */
  readonly batch: number;
  /** Events of batch answers that failed (`"ok":false`): must be 0, like non2xx. */
  readonly failedEvents: number;
}

/** Options of {@link runPairs}. */
export interface PairRunOptions {
  readonly url: string;
  readonly apiKey: string;
  readonly model: string;
  readonly pool: readonly string[];
  readonly connections: number;
  readonly seconds: number;
  /** Most requests in the run (autocannon ignores `duration` when an amount is set). */
  readonly maxRequests: number;
  /** Prefix of the event ids (unique per run). */
  readonly tag: string;
  /** Events per request (default 1: /rank and /rewards; more: /rank/batch and /rewards/batch). */
  readonly batch?: number;
  /**
   * Send ranks as the binary rank body (application/x-adaprivate-rank: the pool's features as raw
   * Float64; for batches the binary rank/batch body) instead of JSON (default false; rewards are JSON).
   */
  readonly binary?: boolean;
  /**
   * Ranks name no event id: the server makes one, and the reward is sent for the id the rank
   * answered (default false: the client names every event `<tag>-<n>`).
   */
  readonly serverIds?: boolean;
}

/** A pool entry (JSON arms) packed for the binary rank body: the arm ids and the K x d features. */
function packedArms(json: string): { readonly armIds: readonly string[]; readonly features: Float64Array } {
  const arms = JSON.parse(json) as { id: string; features: number[] }[];
  return { armIds: arms.map((a) => a.id), features: new Float64Array(arms.flatMap((a) => a.features)) };
}

/** How many events of a batch answer failed. */
function failedIn(body: string): number {
  let n = 0;
  for (let i = body.indexOf('"ok":false'); i >= 0; i = body.indexOf('"ok":false', i + 1)) n++;
  return n;
}

/** The two requests of one pair of `batch` events: ranks (single or batched), then their rewards. */
function pairRequests(o: PairRunOptions, batch: number, onFailed: (n: number) => void): autocannon.Request[] {
  let counter = 0;
  const server = o.serverIds === true;
  const rewardOf = (n: number) => (n % 3 === 0 ? 1 : 0);
  if (batch === 1) {
    const packed = o.binary === true ? o.pool.map(packedArms) : null;
    const binaryHeaders = { authorization: `Bearer ${o.apiKey}`, 'content-type': BINARY_RANK_TYPE };
    return [
      {
        method: 'POST',
        path: `/v1/models/${o.model}/rank`,
        ...(packed === null ? {} : { headers: binaryHeaders }),
        setupRequest: (req: autocannon.Request, context: object) => {
          const n = counter++;
          (context as { first: number }).first = n;
          const id = server ? {} : { eventId: `${o.tag}-${n}` };
          if (packed !== null) {
            const body = encodeBinaryRank({ ...id, ...packed[n % packed.length]! });
            req.body = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
          } else
            req.body = `{${server ? '' : `"eventId":"${o.tag}-${n}",`}"arms":${o.pool[n % o.pool.length]}}`;
          return req;
        },
        ...(server
          ? {
              onResponse: (_status: number, body: string, context: object) => {
                (context as { id: string }).id = (JSON.parse(body) as { eventId: string }).eventId;
              },
            }
          : {}),
      },
      {
        method: 'POST',
        path: `/v1/models/${o.model}/rewards`,
        setupRequest: (req: autocannon.Request, context: object) => {
          const n = (context as { first: number }).first;
          const id = server ? (context as { id: string }).id : `${o.tag}-${n}`;
          req.body = `{"eventId":"${id}","reward":${rewardOf(n)}}`;
          return req;
        },
      },
    ];
  }
  const count = (_status: number, body: string) => onFailed(failedIn(body));
  // with server ids, the ids the rank batch answered (null for a failed event: no reward sent)
  const countAndKeep = (_status: number, body: string, context: object) => {
    const results = (JSON.parse(body) as { results: { eventId?: string; ok: boolean }[] }).results;
    onFailed(results.filter((r) => !r.ok).length);
    (context as { ids: (string | null)[] }).ids = results.map((r) =>
      r.ok && r.eventId !== undefined ? r.eventId : null,
    );
  };
  const packed = o.binary === true ? o.pool.map(packedArms) : null;
  return [
    {
      method: 'POST',
      path: `/v1/models/${o.model}/rank/batch`,
      ...(packed === null
        ? {}
        : { headers: { authorization: `Bearer ${o.apiKey}`, 'content-type': BINARY_RANK_TYPE } }),
      setupRequest: (req: autocannon.Request, context: object) => {
        const first = counter;
        counter += batch;
        (context as { first: number }).first = first;
        if (packed !== null) {
          const events = [];
          for (let n = first; n < first + batch; n++) {
            events.push({ ...(server ? {} : { eventId: `${o.tag}-${n}` }), ...packed[n % packed.length]! });
          }
          const body = encodeBinaryRankBatch(events);
          req.body = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
          return req;
        }
        const events: string[] = [];
        for (let n = first; n < first + batch; n++) {
          events.push(`{${server ? '' : `"eventId":"${o.tag}-${n}",`}"arms":${o.pool[n % o.pool.length]}}`);
        }
        req.body = `{"events":[${events.join(',')}]}`;
        return req;
      },
      onResponse: server ? countAndKeep : count,
    },
    {
      method: 'POST',
      path: `/v1/models/${o.model}/rewards/batch`,
      setupRequest: (req: autocannon.Request, context: object) => {
        const first = (context as { first: number }).first;
        const rewards: string[] = [];
        const ids = server ? (context as { ids: (string | null)[] }).ids : null;
        for (let n = first; n < first + batch; n++) {
          const id = ids === null ? `${o.tag}-${n}` : ids[n - first];
          if (id !== null && id !== undefined) rewards.push(`{"eventId":"${id}","reward":${rewardOf(n)}}`);
        }
        req.body = `{"rewards":[${rewards.join(',')}]}`;
        return req;
      },
      onResponse: count,
    },
  ];
}

/**
 * Keeps `connections` connections busy with rank + reward-of-that-event pairs for `seconds`; with
 * `batch` > 1 each request carries `batch` events (a rank batch, then the rewards of those events).
 */
export async function runPairs(o: PairRunOptions): Promise<PairRun> {
  const batch = o.batch ?? 1;
  let failedEvents = 0;
  const r = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.seconds,
    maxOverallRequests: o.maxRequests,
    headers: { authorization: `Bearer ${o.apiKey}`, 'content-type': 'application/json' },
    requests: pairRequests(o, batch, (n) => {
      failedEvents += n;
    }),
  });
  return {
    pairsPerSecond: (r.requests.total / 2 / r.duration) * batch,
    requests: r.requests.total,
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    batch,
    failedEvents,
  };
}
