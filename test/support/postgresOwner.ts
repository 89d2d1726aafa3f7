// A process that starts a harness server, prints it as one JSON line and waits to be killed.
// Used by test/store/postgresHarness.test.ts to check what a killed test process leaves behind.
import { startPostgres } from './postgres.js';

const server = await startPostgres();
process.stdout.write(`${JSON.stringify({ pid: server.pid, root: server.root, url: server.url })}\n`);
setInterval(() => {}, 60_000);
