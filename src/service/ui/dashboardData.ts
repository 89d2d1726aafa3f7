/**
 * The dashboard's data and drawing, as pure functions that run in the browser (served at
 * `/ui/dashboardData.js`, no imports, no Node built-ins) and in Node (tests): the budget spent over
 * time from the ledger's rows, the reward rate's interval, the guarantee in words and a small SVG
 * line chart (hand-drawn: no chart library).
 */

/** One ledger row as `GET /v1/models/{name}/ledger` returns it (the fields the dashboard reads). */
export interface LedgerRowView {
  readonly version: number;
  readonly time: string;
  readonly rewards: number;
  readonly releases: number;
  readonly rounds: number;
  readonly spent: Readonly<Record<string, unknown>>;
}

/** One point of the budget chart: after the release `version` at `time`, the guarantee spent. */
export interface BudgetPoint {
  /** Milliseconds since the epoch. */
  readonly t: number;
  readonly version: number;
  /** epsilon spent after this release (the ledger's guarantee). */
  readonly epsilon: number;
  /** Privacy releases counted by the ledger up to this row. */
  readonly releases: number;
  /** Rewards that entered this release. */
  readonly rewards: number;
}

/**
 * The budget spent over time, one point per ledger row, in ledger order: epsilon is the row's
 * `spent.epsilon` (the guarantee after that release, as the ledger recorded it), releases the
 * running sum of the rows' releases. Rows without a finite epsilon (non-private models) give 0.
 *
 * @example
 * budgetSeries([{ version: 1, time: '2026-01-01T00:00:00Z', rewards: 300, releases: 1, rounds: 300, spent: { epsilon: 0.7 } }])[0].epsilon; // returns 0.7
 */
export function budgetSeries(rows: readonly LedgerRowView[]): BudgetPoint[] {
  let releases = 0;
  return rows.map((r) => {
    releases += r.releases;
    const e = r.spent.epsilon;
    return {
      t: Date.parse(r.time),
      version: r.version,
      epsilon: typeof e === 'number' && Number.isFinite(e) ? e : 0,
      releases,
      rewards: r.rewards,
    };
  });
}

/**
 * One point of the per-epoch budget chart of a user-level model: after the release `version` at
 * `t`, one unit's guarantee spent in the epoch `epoch` that release belongs to (it starts again
 * at each new epoch; the cumulative one is `budgetSeries`).
 */
export interface EpochBudgetPoint {
  readonly t: number;
  readonly version: number;
  /** Index of the epoch whose data the release held. */
  readonly epoch: number;
  /** epsilon one unit has spent in that epoch so far (the ledger row's `spent.releaseEpoch.guarantee`). */
  readonly epsilon: number;
  /** Compositions of one release that figure is for: min(m, releases of the epoch so far). */
  readonly compositions: number;
  /** Releases of that epoch so far. */
  readonly releases: number;
}

/**
 * The budget per epoch of a user-level model, one point per ledger row that records its epoch
 * (`spent.releaseEpoch`, written by the policy at each release), in ledger order. Rows without it
 * (event-level models) give no point.
 *
 * @example
 * epochBudgetSeries([{ version: 1, time: '2026-01-01T00:00:00Z', rewards: 3, releases: 1, rounds: 3, spent: { releaseEpoch: { index: 0, releases: 1, guarantee: { epsilon: 0.4, compositions: 1 } } } }])[0].epsilon; // returns 0.4
 */
export function epochBudgetSeries(rows: readonly LedgerRowView[]): EpochBudgetPoint[] {
  const out: EpochBudgetPoint[] = [];
  for (const r of rows) {
    const e = r.spent.releaseEpoch as
      | {
          readonly index?: unknown;
          readonly releases?: unknown;
          readonly guarantee?: { readonly epsilon?: unknown; readonly compositions?: unknown };
        }
      | null
      | undefined;
    if (e == null || typeof e.index !== 'number' || typeof e.guarantee?.epsilon !== 'number') continue;
    out.push({
      t: Date.parse(r.time),
      version: r.version,
      epoch: e.index,
      epsilon: e.guarantee.epsilon,
      compositions: typeof e.guarantee.compositions === 'number' ? e.guarantee.compositions : 0,
      releases: typeof e.releases === 'number' ? e.releases : 0,
    });
  }
  return out;
}

/**
 * Dropped rewards of a user-level model in words, by bound ('none (no contribution bound)' for an
 * event-level model).
 *
 * @example
 * droppedText({ perRelease: 2, perEpoch: 1, total: 3 }); // returns '3 (2 past c rewards in a release, 1 past m releases in an epoch)'
 */
export function droppedText(
  d: { readonly perRelease: number; readonly perEpoch: number; readonly total: number } | undefined,
): string {
  if (d === undefined) return 'none (no contribution bound)';
  return `${d.total} (${d.perRelease} past c rewards in a release, ${d.perEpoch} past m releases in an epoch)`;
}

/** Running sums of learned rewards, from which the rate and its interval follow. */
export interface RewardSums {
  readonly n: number;
  readonly sum: number;
  readonly sumSquares: number;
}

/**
 * The reward rate (mean reward) with its 95% confidence interval by the normal approximation
 * (mean +- 1.96 s / sqrt(n), s the sample standard deviation), clipped to [0, 1]; null when fewer
 * than 2 rewards.
 *
 * @example
 * rewardRate({ n: 4, sum: 2, sumSquares: 2 }); // returns { mean: 0.5, lo: 0, hi: 1, n: 4 } (s = 0.577: 0.5 +- 0.566, clipped)
 */
export function rewardRate(
  s: RewardSums,
): { readonly mean: number; readonly lo: number; readonly hi: number; readonly n: number } | null {
  if (!(s.n >= 2)) return null;
  const mean = s.sum / s.n;
  const variance = Math.max(0, (s.sumSquares - s.n * mean * mean) / (s.n - 1));
  const half = (1.96 * Math.sqrt(variance)) / Math.sqrt(s.n);
  return { mean, lo: Math.max(0, mean - half), hi: Math.min(1, mean + half), n: s.n };
}

/** The fields of a model's status (`GET /v1/models/{name}`) that the guarantee sentence reads. */
export interface StatusView {
  readonly policy: string;
  readonly privacy: {
    readonly epsilon: number;
    readonly delta: number;
    readonly rho: number | null;
    readonly releases: number;
    readonly composition: string;
    readonly conversion: string;
    readonly noise: string;
    /** 'user' for a user-level model (absent or 'event' otherwise). */
    readonly unit?: string;
    /** The policy's own words for its guarantee (unit, bounds, epochs, per epoch and cumulative). */
    readonly statement?: string;
    readonly dropped?: { readonly perRelease: number; readonly perEpoch: number; readonly total: number };
  };
  readonly budget: { readonly note: string; readonly target: { readonly epsilon: number | null } | null };
  readonly options?: Readonly<Record<string, unknown>>;
}

/** A number with up to `digits` significant digits, for the page. */
export function fmt(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return String(x);
  return Number(x.toPrecision(digits)).toString();
}

/**
 * The guarantee in words, from the model's status (itself from the ledger): who is protected, the
 * (epsilon, delta) spent, how many releases and how they compose, and the service's budget note.
 *
 * @example
 * guaranteeText(status); // returns e.g. 'Every single reward (event-level) is protected by (epsilon = 0.71, delta = 1e-5)-DP, spent over 3 releases (composition: zcdp; ...). ...'
 */
export function guaranteeText(s: StatusView): string {
  const p = s.privacy;
  if (p.noise === 'none' && !(p.epsilon > 0 && Number.isFinite(p.epsilon)))
    return `No privacy guarantee: ${s.policy} is not a private policy. ${s.budget.note}`;
  const note = s.budget.note === '' ? '' : ` ${s.budget.note[0]!.toUpperCase()}${s.budget.note.slice(1)}`;
  // a user-level model: the policy's own sentence (unit, bounds, per-epoch and cumulative guarantee)
  if (p.unit === 'user' && typeof p.statement === 'string' && p.statement !== '')
    return `${p.statement[0]!.toUpperCase()}${p.statement.slice(1)}${note}`;
  const unit =
    s.options?.privacyUnit === 'user'
      ? 'all rewards of one user (user-level)'
      : 'every single reward (event-level)';
  const target = s.budget.target?.epsilon;
  const released =
    p.releases === 0
      ? 'nothing released yet'
      : `spent over ${p.releases} release${p.releases === 1 ? '' : 's'} (composition: ${p.composition}; conversion: ${p.conversion}${p.rho === null ? '' : `; rho = ${fmt(p.rho)}`})`;
  return `${unit[0]!.toUpperCase()}${unit.slice(1)} is protected by (epsilon = ${fmt(p.epsilon)}, delta = ${fmt(p.delta)})-DP, ${released}${typeof target === 'number' ? `; target epsilon ${fmt(target)}` : ''}.${note}`;
}

/** Options of {@link lineChartSvg}. */
export interface LineChartOptions {
  readonly width?: number;
  readonly height?: number;
  readonly xLabel: string;
  readonly yLabel: string;
  /** x values are times in ms (axis labelled as clock times). Default false. */
  readonly time?: boolean;
  /** Stroke colour; default Paul Tol's blue #4477AA (colour-blind safe). */
  readonly colour?: string;
  /** Draw the line as steps (a budget that jumps at each release). Default false. */
  readonly step?: boolean;
  /** Accessible title of the chart. */
  readonly title: string;
}

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/**
 * A small SVG line chart of `points` (x ascending), with axes, min and max labels and a title for
 * screen readers; each point also carries a `data-x`/`data-y` attribute (what the chart shows, for
 * tests). No points: a chart with the text 'no data yet'.
 *
 * @example
 * lineChartSvg([{ x: 0, y: 0 }, { x: 1, y: 1 }], { xLabel: 'time', yLabel: 'epsilon', title: 'budget' }).startsWith('<svg'); // returns true
 */
export function lineChartSvg(points: readonly { x: number; y: number }[], o: LineChartOptions): string {
  const w = o.width ?? 420;
  const h = o.height ?? 180;
  const m = { l: 52, r: 12, t: 10, b: 34 };
  const colour = o.colour ?? '#4477AA';
  const head = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(o.title)}"><title>${esc(o.title)}</title>`;
  const axes = `<line x1="${m.l}" y1="${h - m.b}" x2="${w - m.r}" y2="${h - m.b}" stroke="#444"/><line x1="${m.l}" y1="${m.t}" x2="${m.l}" y2="${h - m.b}" stroke="#444"/><text x="${(m.l + w - m.r) / 2}" y="${h - 4}" text-anchor="middle" font-size="11">${esc(o.xLabel)}</text><text x="12" y="${(m.t + h - m.b) / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 12 ${(m.t + h - m.b) / 2})">${esc(o.yLabel)}</text>`;
  if (points.length === 0)
    return `${head}${axes}<text x="${w / 2}" y="${h / 2}" text-anchor="middle" font-size="12" fill="#666">no data yet</text></svg>`;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(0, ...ys), Math.max(...ys)];
  const sx = (x: number) => m.l + (x1 === x0 ? 0.5 : (x - x0) / (x1 - x0)) * (w - m.l - m.r);
  const sy = (y: number) => h - m.b - (y1 === y0 ? 0.5 : (y - y0) / (y1 - y0)) * (h - m.t - m.b);
  let d = '';
  points.forEach((p, i) => {
    if (i === 0) d += `M${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`;
    else if (o.step === true) d += `H${sx(p.x).toFixed(1)}V${sy(p.y).toFixed(1)}`;
    else d += `L${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`;
  });
  // clock times; with the date too when the chart's ends fall on different days (epochs of days)
  const day = (x: number) => new Date(x).toISOString().slice(0, 10);
  const xText = (x: number) =>
    o.time !== true
      ? fmt(x)
      : day(x0) !== day(x1)
        ? new Date(x).toISOString().slice(0, 16).replace('T', ' ')
        : new Date(x).toISOString().slice(11, 19);
  const labels = `<text x="${m.l - 4}" y="${sy(y1) + 4}" text-anchor="end" font-size="10">${fmt(y1)}</text><text x="${m.l - 4}" y="${sy(y0) + 4}" text-anchor="end" font-size="10">${fmt(y0)}</text><text x="${m.l}" y="${h - m.b + 12}" font-size="10">${xText(x0)}</text><text x="${w - m.r}" y="${h - m.b + 12}" text-anchor="end" font-size="10">${xText(x1)}</text>`;
  const dots = points
    .map(
      (p) =>
        `<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="2.5" fill="${colour}" data-x="${p.x}" data-y="${p.y}"/>`,
    )
    .join('');
  return `${head}${axes}${labels}<path d="${d}" fill="none" stroke="${colour}" stroke-width="2"/>${dots}</svg>`;
}
