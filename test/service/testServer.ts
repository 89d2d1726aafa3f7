/** Test helper: a service on 127.0.0.1 port 0 with an injected clock, and a client for it. */
import assert from 'node:assert/strict';
import { AdaPrivateClient } from '../../src/client/index.js';
import type { SnapshotKey } from '../../src/policies/index.js';
import { type AdaPrivateServer, createServer, type ServerOptions } from '../../src/service/index.js';
import type { Store } from '../../src/store/index.js';

export const TEST_KEY = 'test-key-0123456789abcdefghijklmnop';

/**
 * When `open` is set (test/service/createServer.postgres.test.ts sets it), test servers started
 * without an explicit `store` or `db` get their store from it: the same API tests on another engine.
 */
export const testStore: { open?: () => Promise<Store> } = {};

export interface TestServer {
  readonly server: AdaPrivateServer;
  readonly url: string;
  readonly client: AdaPrivateClient;
  /** Moves the injected clock forward by `ms`. */
  advance(ms: number): void;
  /** A raw request (for status codes and bodies the client does not model). */
  raw(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
    // biome-ignore lint/suspicious/noExplicitAny: parsed JSON answers of every shape
  ): Promise<{ status: number; body: any; text: string }>;
  close(): Promise<void>;
}

export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  let clock = Date.UTC(2026, 0, 1);
  const engine =
    testStore.open && !('store' in options) && !('db' in options) ? { store: await testStore.open() } : {};
  const server = await createServer({
    db: ':memory:',
    ...engine,
    apiKeys: [TEST_KEY],
    logger: false,
    defaultMetrics: false,
    now: () => clock,
    sweepIntervalMs: 0,
    // the 401 tests send many wrong keys (test/service/operations.test.ts checks the limit itself)
    authFailureLimit: { maxFailures: 1000 },
    ...options,
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  const client = new AdaPrivateClient({ baseUrl: url, apiKey: TEST_KEY });
  return {
    server,
    url,
    client,
    advance(ms) {
      clock += ms;
    },
    async raw(method, path, body, headers = {}) {
      const h: Record<string, string> = { authorization: `Bearer ${TEST_KEY}`, ...headers };
      let payload: string | undefined;
      if (body !== undefined) {
        h['content-type'] ??= 'application/json';
        payload = typeof body === 'string' ? body : JSON.stringify(body);
      }
      const res = await fetch(`${url}${path}`, {
        method,
        headers: h,
        ...(payload === undefined ? {} : { body: payload }),
      });
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
      return { status: res.status, body: parsed, text };
    },
    close: () => server.close(),
  };
}

/**
 * Creates model `name` (the PUT body `payload`) in the SQLite file `db` through the service, then
 * closes the service: for tests that open the file themselves afterwards.
 */
export async function createModelInFile(
  db: string,
  snapshotKey: SnapshotKey,
  name: string,
  payload: Record<string, unknown>,
  now?: () => number,
): Promise<void> {
  const server = await createServer({
    db,
    snapshotKey,
    apiKeys: [TEST_KEY],
    logger: false,
    defaultMetrics: false,
    ...(now === undefined ? {} : { now }),
  });
  try {
    const reply = await server.app.inject({
      method: 'PUT',
      url: `/v1/models/${name}`,
      headers: { authorization: `Bearer ${TEST_KEY}` },
      payload,
    });
    assert.equal(reply.statusCode, 201, reply.body);
  } finally {
    await server.close();
  }
}
