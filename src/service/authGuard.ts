/**
 * The API key check of the /v1 routes (and of /metrics unless it is open), with failed attempts
 * rate-limited per client address (@fastify/rate-limit's limiter): after `maxFailures` wrong or
 * missing keys within `windowMs`, every request from that address is answered 429 `too_many_auth_failures`
 * until the window ends, whether its key is right or not (so that a blocked client learns nothing
 * about the keys it tries). Requests with a right key from an address that is not blocked are never
 * counted.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeys } from './ApiKeys.js';
import { errorBody } from './errorBody.js';

/** Failed-authentication limit: `maxFailures` per client address within `windowMs`. */
export interface AuthFailureLimit {
  /** Wrong or missing keys accepted per address and window before it is blocked (default 20). */
  readonly maxFailures: number;
  /** Window length in milliseconds (default 60000). */
  readonly windowMs: number;
}

export const DEFAULT_AUTH_FAILURE_LIMIT: AuthFailureLimit = { maxFailures: 20, windowMs: 60_000 };

/** Blocked addresses kept at most (the oldest entry is dropped first). */
const MAX_BLOCKED = 10_000;

/** Registers the limiter on `app` and returns the onRequest hook that checks the key. */
export async function authGuard(
  app: FastifyInstance,
  keys: ApiKeys,
  limit: AuthFailureLimit,
  now: () => number = Date.now,
): Promise<(req: FastifyRequest, reply: FastifyReply) => Promise<void>> {
  await app.register(rateLimit, { global: false });
  const failed = app.createRateLimit({
    max: limit.maxFailures,
    timeWindow: limit.windowMs,
    keyGenerator: (req) => req.ip,
  });
  /** Address -> end of its block (ms since the epoch). */
  const blocked = new Map<string, number>();
  const tooMany = (reply: FastifyReply, until: number) => {
    const seconds = Math.max(1, Math.ceil((until - now()) / 1000));
    reply
      .code(429)
      .header('retry-after', String(seconds))
      .send(
        errorBody(
          429,
          'too_many_auth_failures',
          `more than ${limit.maxFailures} requests with a missing or wrong API key from this address within ${limit.windowMs / 1000} s; retry after ${seconds} s.`,
        ),
      );
  };
  return async (req, reply) => {
    const until = blocked.get(req.ip);
    if (until !== undefined) {
      if (until > now()) return tooMany(reply, until);
      blocked.delete(req.ip);
    }
    if (keys.check(req.headers.authorization)) return;
    const r = await failed(req);
    if (!r.isAllowed && r.isExceeded) {
      const end = now() + (r.ttl > 0 ? r.ttl : limit.windowMs);
      if (blocked.size >= MAX_BLOCKED) blocked.delete(blocked.keys().next().value as string);
      blocked.set(req.ip, end);
      return tooMany(reply, end);
    }
    reply
      .code(401)
      .send(errorBody(401, 'unauthorized', 'missing or wrong API key (send Authorization: Bearer <key>).'));
  };
}
