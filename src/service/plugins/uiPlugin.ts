/**
 * The dashboard at `/ui` (docs/serving.md, "Dashboard"): the page and its script are static code
 * with no data, served to anyone so that a browser can open them; everything the page shows comes
 * from the key-protected API (`/v1/...` and this plugin's `/ui/api/models/{name}/rewards`, which
 * checks the same API key). The page keeps the key in the tab's sessionStorage and sends it as
 * `Authorization: Bearer <key>`.
 */
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../store/index.js';
import { ModelNameParams } from '../contract.js';
import type { ModelRegistry } from '../ModelRegistry.js';
import { DASHBOARD_HTML } from '../ui/dashboardPage.js';

/** Rows read per page, and pages per request, when the reward sums catch up with new decisions. */
const PAGE = 1000;
const MAX_PAGES = 50;

/** Running reward sums of one model: decisions up to `cursor` are counted or waiting for their reward. */
interface RewardState {
  cursor: number;
  n: number;
  sum: number;
  sumSquares: number;
  given: number;
  defaults: number;
  /** Decisions read before their reward arrived (event ids), checked again on the next request. */
  readonly waiting: Set<string>;
}

export const uiPlugin: FastifyPluginAsync<{
  readonly registry: ModelRegistry;
  readonly store: Store;
  /** The key check of the /v1 routes (authGuard), failed attempts rate-limited with theirs. */
  readonly auth: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
}> = async (app, opts) => {
  const { registry, store, auth } = opts;
  // the compiled browser module, next to this plugin's compiled file in dist
  const dataJs = readFileSync(new URL('../ui/dashboardData.js', import.meta.url), 'utf8');
  const page = async (_req: unknown, reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'",
      )
      .send(DASHBOARD_HTML);
  app.get('/ui', { schema: { hide: true } }, page);
  app.get('/ui/', { schema: { hide: true } }, page);
  app.get('/ui/dashboardData.js', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(dataJs),
  );

  const states = new Map<string, RewardState>();
  const add = (s: RewardState, reward: number | null, source: 'given' | 'default' | null) => {
    if (source === 'given') s.given++;
    else s.defaults++;
    if (reward === null) return;
    s.n++;
    s.sum += reward;
    s.sumSquares += reward * reward;
  };
  app.get<{ Params: ModelNameParams }>(
    '/ui/api/models/:name/rewards',
    {
      schema: { hide: true, params: ModelNameParams },
      // the /v1 routes' key check, with the same failed-attempt limit per address
      onRequest: auth,
    },
    async (req) => {
      const rt = await registry.get(req.params.name);
      const name = rt.row.name;
      if (!rt.row.settings.logRewards)
        return { logged: false, n: 0, sum: 0, sumSquares: 0, given: 0, defaults: 0 };
      let s = states.get(name);
      if (s === undefined) {
        s = { cursor: 0, n: 0, sum: 0, sumSquares: 0, given: 0, defaults: 0, waiting: new Set() };
        states.set(name, s);
      }
      await store.durable();
      for (const eventId of [...s.waiting]) {
        const d = await store.getDecision(name, eventId);
        if (d === null) s.waiting.delete(eventId);
        else if (d.rewardSource !== null) {
          add(s, d.reward, d.rewardSource);
          s.waiting.delete(eventId);
        }
      }
      for (let p = 0; p < MAX_PAGES; p++) {
        const rows = await store.exportDecisions(name, { afterSeq: s.cursor, limit: PAGE });
        for (const r of rows) {
          if (r.rewardSource === null) s.waiting.add(r.eventId);
          else add(s, r.reward, r.rewardSource);
          s.cursor = r.seq;
        }
        if (rows.length < PAGE) break;
      }
      return {
        logged: true,
        n: s.n,
        sum: s.sum,
        sumSquares: s.sumSquares,
        given: s.given,
        defaults: s.defaults,
        waiting: s.waiting.size,
      };
    },
  );
};
