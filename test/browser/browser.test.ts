// The pages in a real browser: headless Chromium from the Debian package (`apt-get install -y
// chromium`; .ci/run installs it), driven by playwright-core (no browser download). One launch:
// the live page runs a short study whose numbers must equal the CLI's for the same settings, the
// core bundle works in the page (WebCrypto, no Buffer), and the service dashboard shows the ledger.
// A missing Chromium FAILS this test (set CHROMIUM_PATH to use another binary).
// UPDATE_SCREENSHOTS=1 writes docs/img/playground.png and docs/img/dashboard.png.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { playgroundConfig } from '../../src/playground/playgroundStudy.js';
import { budgetSeries, epochBudgetSeries } from '../../src/service/ui/dashboardData.js';
import { startTestServer, TEST_KEY, type TestServer } from '../service/testServer.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshots = process.env.UPDATE_SCREENSHOTS === '1';

let browser: Browser;
let site: Server;
let siteUrl: string;
let dir: string;

/** A static file server for the built site on loopback. */
function serveStatic(root: string): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  const s = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((ok) => s.listen(0, '127.0.0.1', () => ok(s)));
}

before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `browser tests: no Chromium at ${CHROMIUM}. Install the Debian package (apt-get update && apt-get install -y chromium; .ci/run does this) or set CHROMIUM_PATH.`,
    );
  }
  dir = mkdtempSync(join(tmpdir(), 'adaprivate-site-'));
  execFileSync(
    process.execPath,
    ['scripts/build-browser.mjs', '--out-core', join(dir, 'core.js'), '--out-site', join(dir, 'playground')],
    { cwd: repo },
  );
  copyFileSync(join(repo, 'site', 'playground', 'index.html'), join(dir, 'playground', 'index.html'));
  site = await serveStatic(dir);
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (site ? site.close(ok) : ok(undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function newPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  (page as Page & { errors?: string[] }).errors = errors;
  return page;
}

test('the live page runs the study in a Web Worker and prints the CLI’s numbers for the same seeds', async () => {
  const page = await newPage();
  await page.goto(`${siteUrl}/playground/`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.fill('#epsilon', '1');
  await page.fill('#batchSize', '50');
  await page.fill('#seeds', '2');
  await page.fill('#horizon', '300');
  await page.click('#run');
  await page.waitForSelector('body[data-done="4"]');
  const rows = await page.$$eval('#runs tbody tr', (trs) =>
    trs.map((tr) => ({
      policy: tr.getAttribute('data-policy')!,
      seed: Number(tr.getAttribute('data-seed')),
      meanReward: Number(tr.getAttribute('data-mean-reward')),
      epsilon: Number(tr.getAttribute('data-epsilon')),
    })),
  );
  assert.equal(rows.length, 4);
  // the same study from the command line
  const cli = JSON.parse(
    execFileSync(
      process.execPath,
      [
        'dist/src/cli/main.js',
        'run',
        '--env',
        'synthetic',
        '--policy',
        'adaprivate-ts,adaprivate-ucb',
        '--epsilon',
        '1',
        '--batch',
        '50',
        '--seeds',
        '2',
        '--horizon',
        '300',
        '--workers',
        '1',
        '--json',
      ],
      { cwd: repo, encoding: 'utf8' },
    ),
  ) as { results: { policy: string; perSeed: number[]; seeds: number[]; epsilonSpent: number }[] };
  for (const r of cli.results) {
    for (const [i, seed] of r.seeds.entries()) {
      const row = rows.find((x) => x.policy === r.policy && x.seed === seed);
      assert.ok(row !== undefined, `${r.policy} seed ${seed} on the page`);
      assert.equal(row.meanReward, r.perSeed[i], `${r.policy} seed ${seed}: page = CLI`);
      assert.ok(Math.abs(row.epsilon - r.epsilonSpent) < 1e-12, `${r.policy}: epsilon spent`);
    }
  }
  // both charts drawn, with one line per policy
  assert.equal(await page.locator('#reward-chart polyline').count(), 2);
  assert.equal(await page.locator('#privacy-chart polyline').count(), 2);
  // privacy unit 'user': the synthetic users study (k = 4 arrivals per user, c = 1, m = k)
  await page.selectOption('#privacyUnit', 'user');
  assert.equal(await page.isVisible('#user-options'), true);
  await page.fill('#arrivalsPerUnit', '4');
  await page.click('#run');
  await page.waitForSelector('body[data-done="4"]');
  const userRows = await page.$$eval('#runs tbody tr', (trs) =>
    trs.map((tr) => ({
      policy: tr.getAttribute('data-policy')!,
      seed: Number(tr.getAttribute('data-seed')),
      meanReward: Number(tr.getAttribute('data-mean-reward')),
      epsilon: Number(tr.getAttribute('data-epsilon')),
      unit: tr.getAttribute('data-unit'),
      dropped: Number(tr.getAttribute('data-dropped')),
    })),
  );
  const usersConfig = join(dir, 'users.json');
  writeFileSync(
    usersConfig,
    JSON.stringify(
      playgroundConfig({
        policies: ['adaprivate-ts', 'adaprivate-ucb'],
        epsilon: 1,
        batchSize: 50,
        q: 0.3,
        seeds: 2,
        horizon: 300,
        privacyUnit: 'user',
        arrivalsPerUnit: 4,
        contributionsPerRelease: 1,
      }),
    ),
  );
  const cliUsers = JSON.parse(
    execFileSync(
      process.execPath,
      ['dist/src/cli/main.js', 'run', '--config', usersConfig, '--workers', '1', '--json'],
      { cwd: repo, encoding: 'utf8' },
    ),
  ) as { results: { policy: string; perSeed: number[]; seeds: number[]; epsilonSpent: number }[] };
  assert.equal(userRows.length, 4);
  for (const r of cliUsers.results) {
    for (const [i, seed] of r.seeds.entries()) {
      const row = userRows.find((x) => x.policy === r.policy && x.seed === seed);
      assert.ok(row !== undefined, `users: ${r.policy} seed ${seed} on the page`);
      assert.equal(row.unit, 'user');
      assert.equal(row.meanReward, r.perSeed[i], `users: ${r.policy} seed ${seed}: page = CLI`);
      assert.ok(Math.abs(row.epsilon - r.epsilonSpent) < 1e-12, `users: ${r.policy}: epsilon spent`);
      assert.ok(row.dropped > 0, 'a user arriving twice in a batch has the second reward dropped');
    }
  }
  // the core bundle in the page: WebCrypto noise, snapshots without Buffer
  // (a string specifier: the module is the page's, not one this file compiles against)
  const inPage = await page.evaluate(async (url: string) => {
    const m = (await import(url)) as typeof import('../../src/index.js');
    const p = m.createPolicy('adaprivate-ts', { dim: 2, horizon: 100, epsilon: 1, batchSize: 5, seed: 1 });
    const f = Float64Array.of(1, 0, 0, 1);
    for (let t = 0; t < 10; t++) {
      p.select(f, 2);
      p.update(1);
    }
    return {
      noBuffer: typeof (globalThis as { Buffer?: unknown }).Buffer === 'undefined',
      noise: p.privacy().noise,
      releases: m.loadPolicy(p.save()).privacy().releases,
    };
  }, '/core.js');
  assert.deepEqual(inPage, { noBuffer: true, noise: 'secure', releases: 2 });
  assert.deepEqual((page as Page & { errors?: string[] }).errors, []);
  if (screenshots)
    await page.screenshot({ path: join(repo, 'docs', 'img', 'playground.png'), fullPage: true });
  await page.close();
});

test('the dashboard, against a running server: key form, and the budget chart equals the ledger rows', async () => {
  const t: TestServer = await startTestServer();
  try {
    await t.client.createModel('shop', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 3, seed: 7 },
      logRewards: true,
    });
    const arms = [
      { id: 'a', features: [1, 0] },
      { id: 'b', features: [0, 1] },
    ];
    for (let i = 0; i < 10; i++) {
      const d = await t.client.rank('shop', { arms });
      t.advance(60_000);
      await t.client.reward('shop', { eventId: d.eventId, reward: i % 3 === 0 ? 1 : 0 });
    }
    await t.client.rank('shop', { arms }); // one pending
    // a user-level model with 1-day epochs: 2 releases on day 0, 1 on day 1
    await t.client.createModel('people', {
      policy: 'adaprivate-ts',
      options: {
        dim: 2,
        horizon: 1000,
        epsilon: 1,
        batchSize: 2,
        seed: 7,
        privacyUnit: 'user',
        releasesPerEpoch: 2,
        epochDays: 1,
      },
    });
    for (const [i, unit] of ['u1', 'u2', 'u1', 'u3', 'u1', 'u4', 'u5'].entries()) {
      if (i === 5) t.advance(86_400_000);
      const d = await t.client.rank('people', { unit, arms });
      await t.client.reward('people', { eventId: d.eventId, reward: 1 });
    }
    const page = await newPage();
    await page.goto(`${t.url}/ui?refresh=3600`);
    await page.fill('#key', TEST_KEY);
    await page.click('#key-form button[type=submit]');
    await page.waitForSelector('section[data-model="shop"]');
    const ledger = (await t.raw('GET', '/v1/models/shop/ledger')).body;
    const status = (await t.raw('GET', '/v1/models/shop')).body;
    const drawn = await page.$$eval('section[data-model="shop"] .budget circle', (cs) =>
      cs.map((c) => [Number(c.getAttribute('data-x')), Number(c.getAttribute('data-y'))]),
    );
    assert.equal(ledger.releases.length, 3);
    assert.deepEqual(
      drawn,
      budgetSeries(ledger.releases).map((p) => [p.t, p.epsilon]),
    );
    assert.deepEqual(
      drawn.map((d) => d[1]),
      ledger.releases.map((r: { spent: { epsilon: number } }) => r.spent.epsilon),
    );
    const field = (f: string) => page.textContent(`section[data-model="shop"] dd[data-field="${f}"]`);
    assert.equal(await field('pending'), String(status.pendingRewards));
    assert.equal(await field('releases'), String(status.privacy.releases));
    assert.match(
      (await field('reward-rate')) ?? '',
      /^0\.4 \[0\.\d+, 0\.\d+\] \(95% CI, normal approximation, n = 10\)$/,
    );
    assert.match(
      (await page.textContent('section[data-model="shop"] .guarantee')) ?? '',
      /^Every single reward \(event-level\) is protected by \(epsilon = /,
    );
    // the user-level model: cumulative and per-epoch budget charts, both the ledger's rows
    await page.waitForSelector('section[data-model="people"] .budget-epoch circle');
    const peopleLedger = (await t.raw('GET', '/v1/models/people/ledger')).body;
    const points = (sel: string) =>
      page.$$eval(`section[data-model="people"] ${sel} circle`, (cs) =>
        cs.map((c) => [Number(c.getAttribute('data-x')), Number(c.getAttribute('data-y'))]),
      );
    assert.equal(peopleLedger.releases.length, 3);
    assert.equal(epochBudgetSeries(peopleLedger.releases).length, 3);
    assert.deepEqual(
      await points('.budget-epoch'),
      peopleLedger.releases.map(
        (r: { time: string; spent: { releaseEpoch: { guarantee: { epsilon: number } } } }) => [
          Date.parse(r.time),
          r.spent.releaseEpoch.guarantee.epsilon,
        ],
      ),
    );
    assert.deepEqual(
      (await points('.budget')).map((p) => p[1]),
      peopleLedger.releases.map((r: { spent: { epsilon: number } }) => r.spent.epsilon),
    );
    assert.match(
      (await page.textContent('section[data-model="people"] .guarantee')) ?? '',
      /^User-level \(eps [0-9.]+, delta 1e-5\) per 1-day epoch/,
    );
    assert.match(
      (await page.textContent('section[data-model="people"] dd[data-field="dropped"]')) ?? '',
      /^1 \(0 past c rewards in a release, 1 past m releases in an epoch\)$/,
    );
    // the key lives in the tab's sessionStorage, not in a cookie
    assert.equal(
      await page.evaluate(() =>
        (
          globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }
        ).sessionStorage.getItem('adaprivate-key'),
      ),
      TEST_KEY,
    );
    assert.deepEqual(await page.context().cookies(), []);
    assert.deepEqual((page as Page & { errors?: string[] }).errors, []);
    if (screenshots)
      await page.screenshot({ path: join(repo, 'docs', 'img', 'dashboard.png'), fullPage: true });
    await page.close();
  } finally {
    await t.close();
  }
});
