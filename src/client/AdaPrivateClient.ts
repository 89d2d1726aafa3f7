/**
 * A typed client of the decision service (fetch-based: Node 20 and browsers; no server code loaded).
 * Every method resolves with the answer's body or rejects with {@link AdaPrivateClientError}
 * (status, stable code, message).
 *
 * @example
 * const c = new AdaPrivateClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.ADAPRIVATE_API_KEY! });
 * const d = await c.rank('news', { arms: [{ id: 'a', features: [0.1, 0.2] }, { id: 'b', features: [0.3, 0] }] });
 * await c.reward('news', { eventId: d.eventId, reward: 1 }); // returns { status: 'recorded', ... }
 */

import {
  BINARY_RANK_TYPE,
  encodeBinaryRank,
  encodeBinaryRankBatch,
  type PackedRank,
} from '../service/binaryRank.js';
import type {
  CreateModelInput,
  CreateModelResponse,
  DecisionLogLine,
  DeleteModelResponse,
  HealthResponse,
  LedgerResponse,
  ModelList,
  ModelStatus,
  RankBatchResponse,
  RankRequest,
  RankResponse,
  RewardBatchResponse,
  RewardRequest,
  RewardResponse,
} from '../service/contract.js';
import { AdaPrivateClientError } from './AdaPrivateClientError.js';

export interface AdaPrivateClientOptions {
  /** e.g. 'http://127.0.0.1:8080' (no trailing /v1). */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** A fetch implementation (default globalThis.fetch). */
  readonly fetch?: typeof fetch;
}

export class AdaPrivateClient {
  private readonly base: string;
  private readonly auth: string;
  private readonly fetchFn: typeof fetch;

  constructor(options: AdaPrivateClientOptions) {
    if (typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) {
      throw new RangeError(
        `AdaPrivateClient: baseUrl must be an http(s) URL. Got ${JSON.stringify(options.baseUrl)}.`,
      );
    }
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.auth = `Bearer ${options.apiKey}`;
    this.fetchFn = options.fetch ?? globalThis.fetch;
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(method, path, body);
    return (await res.json()) as T;
  }

  /** `body` as JSON, or a binary body with its media type. */
  private async send(
    method: string,
    path: string,
    body?: unknown,
    binary?: { readonly type: string; readonly bytes: Uint8Array },
  ): Promise<Response> {
    const headers: Record<string, string> = { authorization: this.auth };
    if (binary !== undefined) headers['content-type'] = binary.type;
    else if (body !== undefined) headers['content-type'] = 'application/json';
    const payload =
      binary !== undefined ? binary.bytes : body === undefined ? undefined : JSON.stringify(body);
    const res = await this.fetchFn(`${this.base}${path}`, {
      method,
      headers,
      ...(payload === undefined ? {} : { body: payload }),
    });
    if (!res.ok) {
      const text = await res.text();
      let code = 'http_error';
      let message = `${method} ${path}: HTTP ${res.status}`;
      try {
        const e = JSON.parse(text) as { code?: string; message?: string };
        if (typeof e.code === 'string') code = e.code;
        if (typeof e.message === 'string') message = e.message;
      } catch {
        // not JSON: keep the generic message
      }
      throw new AdaPrivateClientError(res.status, code, message);
    }
    return res;
  }

  private static model(name: string): string {
    return `/v1/models/${encodeURIComponent(name)}`;
  }

  /**
   * Creates model `name` (first wins; `created` says whether this call created it). With a policy id
   * literal the options are typed for that policy (as `createPolicy`'s, `seed` optional).
   *
   * @example
   * await c.createModel('news', { policy: 'adaprivate-ts', options: { dim: 2, horizon: 100_000, epsilon: 1 } });
   */
  createModel<P extends string>(
    name: string,
    body: { readonly policy: P } & CreateModelInput<P>,
  ): Promise<CreateModelResponse> {
    return this.request('PUT', AdaPrivateClient.model(name), body);
  }

  /**
   * Deletes model `name`. Default: a tombstone (the model stops serving, its decisions, features
   * and raw pending rewards are erased, its ledger is kept and the name cannot be created again).
   * `purge: { confirm: name }`: the ledger is removed too and the name is free (the server refuses a
   * purge whose `confirm` is not the name). Released outputs cannot be recalled either way
   * (docs/serving.md, "Deleting a model").
   *
   * @example
   * await client.deleteModel('news'); // returns { outcome: 'deleted', ledgerKept: true, ... }
   * await client.deleteModel('news', { purge: { confirm: 'news' } }); // returns { outcome: 'purged', ... }
   */
  deleteModel(
    name: string,
    options: { readonly purge?: { readonly confirm: string } } = {},
  ): Promise<DeleteModelResponse> {
    const q =
      options.purge === undefined
        ? ''
        : `?${new URLSearchParams({ purge: 'true', confirm: options.purge.confirm })}`;
    return this.request('DELETE', `${AdaPrivateClient.model(name)}${q}`);
  }

  async listModels(): Promise<readonly CreateModelResponse[]> {
    return (await this.request<ModelList>('GET', '/v1/models')).models;
  }

  status(name: string): Promise<ModelStatus> {
    return this.request('GET', AdaPrivateClient.model(name));
  }

  rank(name: string, body: RankRequest): Promise<RankResponse> {
    return this.request('POST', `${AdaPrivateClient.model(name)}/rank`, body);
  }

  /**
   * {@link rank} with the candidates' features packed (arms.length x dim values, arm by arm), sent
   * as the binary rank body (raw Float64, no number text to write or parse: for large candidate sets).
   *
   * @example
   * await c.rankPacked('news', { armIds: ['a', 'b'], features: new Float64Array([0.1, 0.2, 0.3, 0]) });
   */
  async rankPacked(name: string, req: PackedRank): Promise<RankResponse> {
    const res = await this.send('POST', `${AdaPrivateClient.model(name)}/rank`, undefined, {
      type: BINARY_RANK_TYPE,
      bytes: encodeBinaryRank(req),
    });
    return (await res.json()) as RankResponse;
  }

  /** Resolves once the reward is durable on the server. */
  reward(name: string, body: RewardRequest): Promise<RewardResponse> {
    return this.request('POST', `${AdaPrivateClient.model(name)}/rewards`, body);
  }

  /**
   * Ranks several events in one request, in order. Resolves with one result per event: `ok: true`
   * and the rank answer, or `ok: false` and the error the single rank would have had (that event
   * changed nothing; the others are unaffected). Rejects only when the whole request fails.
   */
  async rankBatch(name: string, events: readonly RankRequest[]): Promise<RankBatchResponse['results']> {
    return (
      await this.request<RankBatchResponse>('POST', `${AdaPrivateClient.model(name)}/rank/batch`, { events })
    ).results;
  }

  /**
   * {@link rankBatch} with each event's features packed (one dim for all events), sent as the binary
   * rank/batch body (raw Float64: for large candidate sets and batches).
   *
   * @example
   * await c.rankBatchPacked('news', [{ armIds: ['a', 'b'], features: new Float64Array([0.1, 0.2, 0.3, 0]) }]);
   */
  async rankBatchPacked(name: string, events: readonly PackedRank[]): Promise<RankBatchResponse['results']> {
    const res = await this.send('POST', `${AdaPrivateClient.model(name)}/rank/batch`, undefined, {
      type: BINARY_RANK_TYPE,
      bytes: encodeBinaryRankBatch(events),
    });
    return ((await res.json()) as RankBatchResponse).results;
  }

  /**
   * Records several rewards in one request, in order; each `ok: true` result is durable. Failed
   * events (`ok: false`, with the single reward's status and code) changed nothing.
   */
  async rewardBatch(
    name: string,
    rewards: readonly RewardRequest[],
  ): Promise<RewardBatchResponse['results']> {
    return (
      await this.request<RewardBatchResponse>('POST', `${AdaPrivateClient.model(name)}/rewards/batch`, {
        rewards,
      })
    ).results;
  }

  ledger(name: string): Promise<LedgerResponse> {
    return this.request('GET', `${AdaPrivateClient.model(name)}/ledger`);
  }

  /** The decision log (NDJSON export), parsed. */
  async exportDecisions(
    name: string,
    options: { after?: string | number; limit?: number } = {},
  ): Promise<DecisionLogLine[]> {
    const q = new URLSearchParams();
    if (options.after !== undefined) q.set('after', String(options.after));
    if (options.limit !== undefined) q.set('limit', String(options.limit));
    const qs = q.size > 0 ? `?${q}` : '';
    const res = await this.send('GET', `${AdaPrivateClient.model(name)}/decisions${qs}`);
    const text = await res.text();
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as DecisionLogLine);
  }

  /**
   * Every decision of model `name` after `after` (a line's `cursor`; default: from the first), in
   * pages of `pageSize` lines (default 1000), each page asked after the last line of the one before.
   *
   * @example
   * for await (const line of client.iterateDecisions('news')) console.log(line.eventId);
   */
  async *iterateDecisions(
    name: string,
    options: { after?: string; pageSize?: number } = {},
  ): AsyncGenerator<DecisionLogLine, void, undefined> {
    const pageSize = options.pageSize ?? 1000;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
      throw new RangeError(`iterateDecisions: pageSize must be a positive integer. Got ${String(pageSize)}.`);
    }
    let after = options.after;
    for (;;) {
      const page = await this.exportDecisions(name, {
        limit: pageSize,
        ...(after === undefined ? {} : { after }),
      });
      yield* page;
      if (page.length < pageSize) return;
      after = page[page.length - 1]!.cursor;
    }
  }

  /** GET /health (no key needed). */
  async health(): Promise<HealthResponse> {
    const res = await this.fetchFn(`${this.base}/health`);
    if (!res.ok) throw new AdaPrivateClientError(res.status, 'unhealthy', `health: HTTP ${res.status}`);
    return (await res.json()) as HealthResponse;
  }
}
