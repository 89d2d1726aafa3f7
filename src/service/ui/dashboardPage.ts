/**
 * The dashboard page served at `/ui`: one HTML document with its style and a module script that
 * imports the pure functions of `/ui/dashboardData.js`. The page holds no data: it asks for the
 * API key (kept in this tab's sessionStorage only, never in a cookie or the URL) and reads
 * everything it shows from the key-protected API with `Authorization: Bearer <key>`.
 */

/** Seconds between two refreshes of the page's data (the page also takes `?refresh=<seconds>`). */
export const DASHBOARD_REFRESH_SECONDS = 5;

/** The HTML of the dashboard. */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>adaprivate dashboard</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1rem 1.5rem; color: #222; background: #fafafa; }
  h1 { font-size: 1.3rem; margin: 0 0 .5rem; }
  form { margin: .5rem 0 1rem; }
  #models { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 1rem; }
  .model { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .8rem 1rem; }
  .model h2 { font-size: 1.1rem; margin: 0 0 .3rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .8rem; margin: .4rem 0; }
  dt { color: #555; } dd { margin: 0; font-variant-numeric: tabular-nums; }
  .guarantee { background: #f1f5fa; border-left: 3px solid #4477AA; padding: .4rem .6rem; margin: .5rem 0; }
  #status { color: #555; } .error { color: #b00020; }
</style>
</head>
<body>
<h1>adaprivate: models, budget and rewards</h1>
<form id="key-form" autocomplete="off">
  <label>API key <input id="key" type="password" size="40" required></label>
  <button type="submit">Show</button>
  <button type="button" id="forget">Forget key</button>
  <span id="status"></span>
</form>
<div id="models"></div>
<script type="module">
import { budgetSeries, droppedText, epochBudgetSeries, fmt, guaranteeText, lineChartSvg, rewardRate } from '/ui/dashboardData.js';

const KEY = 'adaprivate-key';
const params = new URLSearchParams(location.search);
const every = Math.max(1, Number(params.get('refresh') ?? ${DASHBOARD_REFRESH_SECONDS}));
const statusEl = document.getElementById('status');
const modelsEl = document.getElementById('models');

async function get(path) {
  const key = sessionStorage.getItem(KEY);
  const res = await fetch(path, { headers: { authorization: 'Bearer ' + key } });
  if (res.status === 401) { sessionStorage.removeItem(KEY); throw new Error('wrong or missing API key'); }
  if (!res.ok) throw new Error(path + ': HTTP ' + res.status);
  return res.json();
}


function card(name, status, ledger, rewards) {
  const series = budgetSeries(ledger.releases);
  const rate = rewards.logged ? rewardRate(rewards) : null;
  const rateText = !rewards.logged
    ? 'not stored: the model was created without logRewards'
    : rate === null ? 'fewer than 2 rewards yet'
    : fmt(rate.mean) + ' [' + fmt(rate.lo) + ', ' + fmt(rate.hi) + '] (95% CI, normal approximation, n = ' + rate.n + ')';
  const el = document.createElement('section');
  el.className = 'model';
  el.dataset.model = name;
  const userLevel = status.privacy.unit === 'user';
  el.innerHTML = '<h2></h2><div class="guarantee"></div><dl></dl><div class="chart budget"></div>' +
    (userLevel ? '<div class="chart budget-epoch"></div>' : '');
  el.querySelector('h2').textContent = name + ' (' + status.policy + ')';
  el.querySelector('.guarantee').textContent = guaranteeText(status);
  const rows = [
    ['epsilon spent', fmt(status.privacy.epsilon), 'epsilon'],
    ['releases', String(status.privacy.releases), 'releases'],
    ['model version', String(status.modelVersion), 'version'],
    ['rounds learned', String(status.rounds), 'rounds'],
    ['decisions', String(status.decisions), 'decisions'],
    ['pending rewards', String(status.pendingRewards), 'pending'],
    // user-level bounds: rewards past a bound are acknowledged, counted and not learned
    ['dropped rewards', droppedText(status.privacy.dropped), 'dropped'],
    ['default rewards', String(status.defaultRewards), 'defaults'],
    ['reward rate', rateText, 'reward-rate'],
  ];
  const dl = el.querySelector('dl');
  for (const [k, v, id] of rows) {
    const dt = document.createElement('dt'); dt.textContent = k;
    const dd = document.createElement('dd'); dd.textContent = v; dd.dataset.field = id;
    dl.append(dt, dd);
  }
  el.querySelector('.budget').innerHTML = lineChartSvg(
    series.map((p) => ({ x: p.t, y: p.epsilon })),
    {
      title: userLevel ? 'cumulative epsilon per user over all epochs (from the ledger)' : 'epsilon spent over time (from the ledger)',
      xLabel: 'time (UTC)', yLabel: userLevel ? 'cumulative epsilon' : 'epsilon spent', time: true, step: true,
    },
  );
  if (userLevel) {
    // per epoch: what one unit has spent in the epoch of each release; it starts again at each epoch
    el.querySelector('.budget-epoch').innerHTML = lineChartSvg(
      epochBudgetSeries(ledger.releases).map((p) => ({ x: p.t, y: p.epsilon })),
      { title: 'epsilon per user in the epoch of each release (from the ledger; starts again each epoch)', xLabel: 'time (UTC)', yLabel: 'epsilon in its epoch', time: true, step: true, colour: '#EE6677' },
    );
  }
  return el;
}

async function refresh() {
  if (sessionStorage.getItem(KEY) === null) { statusEl.textContent = 'enter the API key'; return; }
  try {
    const { models } = await get('/v1/models');
    const cards = [];
    for (const m of models) {
      const name = encodeURIComponent(m.name);
      const [status, ledger, rewards] = await Promise.all([
        get('/v1/models/' + name), get('/v1/models/' + name + '/ledger'), get('/ui/api/models/' + name + '/rewards'),
      ]);
      cards.push(card(m.name, status, ledger, rewards));
    }
    modelsEl.replaceChildren(...cards);
    statusEl.className = '';
    statusEl.textContent = models.length + ' model(s); updated ' + new Date().toISOString().slice(11, 19) + ' UTC, every ' + every + ' s';
    document.body.dataset.updated = String(Date.now());
  } catch (err) {
    statusEl.className = 'error';
    statusEl.textContent = String(err.message ?? err);
  }
}

document.getElementById('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  sessionStorage.setItem(KEY, document.getElementById('key').value);
  document.getElementById('key').value = '';
  refresh();
});
document.getElementById('forget').addEventListener('click', () => {
  sessionStorage.removeItem(KEY);
  modelsEl.replaceChildren();
  statusEl.textContent = 'key forgotten';
});
refresh();
setInterval(refresh, every * 1000);
</script>
</body>
</html>
`;
