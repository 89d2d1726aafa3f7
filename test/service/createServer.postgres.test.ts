// The decision service's API test suite (test/service/createServer.test.ts) on a PostgreSQL store,
// so through the replica runtime (rewards pending in the database, releases by releaseBatch): one
// throwaway server for the file, a fresh database per test server. The suite runs unchanged: every
// policy it covers (DGS-LinUCB's horizon included) is served by replicas too.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { PostgresStore } from '../../src/store/index.js';
import { startPostgres } from '../support/postgres.js';
import { startTestServer, testStore } from './testServer.js';

const server = await startPostgres();
after(() => server.stop());
testStore.open = async () => PostgresStore.open(await server.createDatabase());
await import('./createServer.test.js');

test('the suite above really ran on PostgreSQL', async () => {
  const t = await startTestServer();
  try {
    const h = (await (await fetch(`${t.url}/health`)).json()) as { engine: string };
    assert.equal(h.engine, 'postgres');
  } finally {
    await t.close();
  }
});
