/**
 * The service's Prometheus metrics (prom-client), on a registry of their own (never the global one,
 * so two servers in one process do not collide). Exposed by the metrics plugin at GET /metrics.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly decisions: Counter<'model'>;
  readonly rewards: Counter<'model' | 'outcome'>;
  readonly releases: Counter<'model'>;
  readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;

  constructor(options: { readonly defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.decisions = new Counter({
      name: 'adaprivate_decisions_total',
      help: 'Decisions stored (rank requests answered).',
      labelNames: ['model'],
      registers,
    });
    this.rewards = new Counter({
      name: 'adaprivate_rewards_total',
      help: 'Rewards by outcome: recorded, default, duplicate, unknown_event, window_closed, not_learning.',
      labelNames: ['model', 'outcome'],
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
      help: 'HTTP request duration by route and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1],
      registers,
    });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }
}
