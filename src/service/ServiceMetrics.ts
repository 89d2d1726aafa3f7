/**
 * The service's Prometheus metrics (prom-client), on a registry of their own (never the global one,
 * so two servers in one process do not collide). Exposed by the metrics plugin at GET /metrics
 * (behind the API key unless the server is built with `openMetrics`).
 *
 * No per-reward signal: whether a given reward arrived is the protected data (with a `defaultReward`
 * pattern, a reward request is itself the signal), so no metric moves with a reward. Rewards show
 * only through `adaprivate_releases_total` (one per release, after a batch), the request histogram
 * leaves out the reward routes, and refused rewards are not counted (a `duplicate_reward` refusal
 * would tell that a reward came). Decisions (ranks) are counted: they are not the protected data.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly decisions: Counter<'model'>;
  readonly releaseFailures: Counter<'model'>;
  readonly releases: Counter<'model'>;
  readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly rankJsonBodies: Counter<'reader'>;

  constructor(options: { readonly defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.decisions = new Counter({
      name: 'adaprivate_decisions_total',
      help: 'Decisions stored (rank requests answered).',
      labelNames: ['model'],
      registers,
    });
    this.releaseFailures = new Counter({
      name: 'adaprivate_release_failures_total',
      help: 'Replicas: releases that failed after their reward was stored (the batch stays pending and is released later).',
      labelNames: ['model'],
      registers,
    });
    this.releases = new Counter({
      name: 'adaprivate_releases_total',
      help: 'Batch releases committed (noisy statistic + ledger entry in one transaction).',
      labelNames: ['model'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'adaprivate_http_request_duration_seconds',
      help: 'HTTP request duration by route and status (the reward routes are left out: no per-reward signal).',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1],
      registers,
    });
    this.rankJsonBodies = new Counter({
      name: 'adaprivate_rank_json_bodies_total',
      help: "JSON bodies of the rank routes by reader: 'fast' (read straight into packed features, src/service/rankJson.ts) or 'parsed' (JSON.parse and the schema: a body outside the fast path, e.g. a number with an exponent or an escaped string, or an invalid one).",
      labelNames: ['reader'],
      registers,
    });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }
}

/** True for the routes whose requests carry rewards (left out of the request histogram). */
export function isRewardRoute(route: string | undefined): boolean {
  return route !== undefined && /\/rewards(\/|$)/.test(route);
}

/** Counts a rank body's JSON reader (`read`: the fast path's result, null when it left the body to JSON.parse). */
export function countedRead<T>(metrics: ServiceMetrics, read: T | null): T | null {
  metrics.rankJsonBodies.inc({ reader: read === null ? 'parsed' : 'fast' });
  return read;
}
