/**
 * `adaprivate privacy ...`: the privacy accountant on the command line (rho, rdp, epsilon,
 * calibrate, user, group, table). `epsilon` and `calibrate` take --accountant exact (default) | zcdp | rdp. JSON field names are an interface other tools rely on: keep them.
 * Bad input exits with code 2 and a one-line reason.
 */
import type { Command } from 'commander';
import {
  ACCOUNTANT_NAMES,
  type AccountantName,
  type Conversion,
  calibrateGaussianNoise,
  calibrateSigma,
  EXTENDED_ORDERS,
  epsilonToRho,
  type GaussianPlan,
  gaussianPlanEpsilon,
  type NoiseDistribution,
  type OrderSpec,
  resolveOrders,
  sigmaForRho,
  subsampledGaussianEpsilon,
  subsampledGaussianRdpCurve,
} from '../../privacy/index.js';
import { parseNumber, parsePositiveInt, printJson } from '../output.js';
import { UsageError } from '../UsageError.js';

/** Runs `fn`, turning library validation errors into one-line usage errors. */
function usage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RangeError || (e instanceof Error && e.name === 'UnreachablePrivacyTargetError')) {
      throw new UsageError(e.message);
    }
    throw e;
  }
}

function checkDelta(delta: number): number {
  if (!(delta > 0 && delta < 1)) throw new UsageError(`--delta must be in (0, 1). Got ${delta}.`);
  return delta;
}

function checkQ(q: number): number {
  if (!(q > 0 && q <= 1)) throw new UsageError(`--q must be in (0, 1]. Got ${q}.`);
  return q;
}

function checkPositive(name: string, v: number): number {
  if (!(v > 0)) throw new UsageError(`${name} must be > 0. Got ${v}.`);
  return v;
}

/** --conversion for zCDP: classic|paper or cks|improved. */
function zcdpConversion(raw: string): Conversion {
  if (raw === 'classic' || raw === 'paper') return 'classic';
  if (raw === 'cks' || raw === 'improved') return 'improved';
  throw new UsageError(`--conversion must be classic or cks. Got ${JSON.stringify(raw)}.`);
}

/** --conversion for RDP: classic or improved (cks accepted as a synonym). */
function rdpConversion(raw: string): Conversion {
  if (raw === 'classic') return 'classic';
  if (raw === 'improved' || raw === 'cks') return 'improved';
  throw new UsageError(`--conversion must be classic or improved. Got ${JSON.stringify(raw)}.`);
}

/** --orders paper|extended|LIST (every order > 1). */
function parseOrders(raw: string): OrderSpec {
  if (raw === 'paper' || raw === 'extended') return raw;
  const parts = raw.split(',').map((s) => s.trim());
  const list = parts.map(Number);
  if (parts.some((s) => s === '') || list.some((v) => !Number.isFinite(v))) {
    throw new UsageError(
      `--orders must be paper, extended or a comma-separated list of numbers. Got ${JSON.stringify(raw)}.`,
    );
  }
  for (const a of list) {
    if (!(a > 1)) throw new UsageError(`--orders: every order must be > 1. Got ${a}.`);
  }
  return list;
}

interface PlanCliOptions {
  readonly delta: number;
  readonly q: number;
  readonly compositions?: number;
  readonly steps?: number;
  readonly sensitivity: number;
  readonly accountant: string;
  readonly orders?: string;
  readonly conversion?: string;
  readonly noise: string;
  readonly json?: boolean;
}

interface CliPlan {
  readonly plan: GaussianPlan;
  readonly accountant: AccountantName;
  readonly options: { orders?: OrderSpec; conversion?: Conversion; noise?: NoiseDistribution };
}

/** Validates the shared options of `epsilon` and `calibrate`, naming the option, the value and the rule. */
function planFromCli(o: PlanCliOptions): CliPlan {
  checkDelta(o.delta);
  checkQ(o.q);
  checkPositive('--sensitivity', o.sensitivity);
  if (!(ACCOUNTANT_NAMES as readonly string[]).includes(o.accountant)) {
    throw new UsageError(`--accountant must be exact, zcdp or rdp. Got ${JSON.stringify(o.accountant)}.`);
  }
  const accountant = o.accountant as AccountantName;
  if (o.compositions !== undefined && o.steps !== undefined && o.compositions !== o.steps) {
    throw new UsageError(
      `--steps is another name for --compositions: give one. Got --compositions ${o.compositions} and --steps ${o.steps}.`,
    );
  }
  const compositions = o.compositions ?? o.steps ?? 1;
  if (o.orders !== undefined && accountant !== 'rdp') {
    throw new UsageError(
      `--orders applies only to --accountant rdp. Got --orders ${JSON.stringify(o.orders)} with --accountant ${accountant}.`,
    );
  }
  if (o.conversion !== undefined && accountant === 'exact') {
    throw new UsageError(
      `--conversion applies only to --accountant zcdp or rdp (the exact accountant has no conversion). Got --conversion ${JSON.stringify(o.conversion)}.`,
    );
  }
  if (o.noise !== 'discrete' && o.noise !== 'continuous') {
    throw new UsageError(`--noise must be discrete or continuous. Got ${JSON.stringify(o.noise)}.`);
  }
  if (accountant === 'zcdp' && o.q < 1) {
    throw new UsageError(
      `--accountant zcdp has no bound for a subsampled Gaussian (--q ${o.q} < 1): use --accountant exact or rdp.`,
    );
  }
  const options: CliPlan['options'] = {};
  if (accountant === 'rdp') {
    options.orders = parseOrders(o.orders ?? 'extended');
    options.conversion = rdpConversion(o.conversion ?? 'classic');
  } else if (accountant === 'zcdp') {
    options.conversion = zcdpConversion(o.conversion ?? 'classic');
  } else {
    options.noise = o.noise;
  }
  return { plan: { sensitivity: o.sensitivity, compositions, q: o.q }, accountant, options };
}

/** Whether the RDP order attaining epsilon is at the edge of the grid (RDP only). */
function rdpEdge(sigma: number, p: CliPlan, delta: number): boolean {
  return subsampledGaussianEpsilon(sigma / p.plan.sensitivity, {
    q: p.plan.q,
    delta,
    steps: p.plan.compositions,
    orders: p.options.orders ?? 'extended',
    conversion: p.options.conversion ?? 'classic',
  }).orderAtEdge;
}

/** The accountant and method in words. */
function describeAccountant(p: CliPlan, method: string): string {
  switch (method) {
    case 'gdp':
      return `exact accountant (Gaussian DP curve${p.options.noise === 'continuous' ? '' : ', discrete-sampler margin included'})`;
    case 'subsampled-exact':
      return `exact accountant (closed-form subsampled Gaussian curve${p.options.noise === 'continuous' ? '' : ', discrete-sampler margin included'})`;
    case 'pld':
      return 'exact accountant (privacy loss distributions)';
    default:
      return `${p.accountant === 'zcdp' ? 'zCDP' : 'RDP'} accountant (${method})`;
  }
}

const fmt = (v: number, digits = 6): string =>
  Number.isFinite(v) ? Number(v.toPrecision(digits)).toString() : String(v);

interface TableOptions {
  readonly delta: number;
  readonly steps: number;
  readonly orders: OrderSpec;
  readonly conversion: Conversion;
}

/** The epsilons and sampling rates of the calibrated-sigma table in docs/privacy.md. */
export const TABLE_EPSILONS: readonly number[] = [0.1, 0.5, 1, 2, 5, 10];
export const TABLE_QS: readonly number[] = [1, 0.7, 0.5, 0.3, 0.1];

/** One cell of the calibrated-sigma table; sigma is null when the target is unreachable. */
export interface TableCell {
  readonly epsilon: number;
  readonly q: number;
  readonly sigma: number | null;
  readonly order: number | null;
  readonly orderAtEdge: boolean;
  readonly error: string | null;
}

/**
 * Calibrated sigma for every (epsilon, q) of the documented table.
 * @example privacyTable({ delta: 1e-5, steps: 1, orders: 'extended', conversion: 'classic' }).length // 30
 */
export function privacyTable(o: TableOptions): TableCell[] {
  const cells: TableCell[] = [];
  for (const epsilon of TABLE_EPSILONS) {
    for (const q of TABLE_QS) {
      try {
        const c = calibrateSigma(epsilon, {
          q,
          delta: o.delta,
          steps: o.steps,
          orders: o.orders,
          conversion: o.conversion,
        });
        cells.push({ epsilon, q, sigma: c.sigma, order: c.order, orderAtEdge: c.orderAtEdge, error: null });
      } catch (e) {
        if (!(e instanceof Error) || e.name !== 'UnreachablePrivacyTargetError') throw e;
        cells.push({ epsilon, q, sigma: null, order: null, orderAtEdge: false, error: e.message });
      }
    }
  }
  return cells;
}

/** Registers the `privacy` command group. */
export function registerPrivacy(program: Command): void {
  const privacy = program
    .command('privacy')
    .description(
      'privacy accounting: zCDP and RDP of the (subsampled) Gaussian mechanism, calibration, group privacy',
    );
  privacy.exitOverride();

  privacy
    .command('rho')
    .description('zCDP rho (and the sensitivity-1 noise sigma) for a target (epsilon, delta)')
    .requiredOption('--epsilon <E>', 'target epsilon (> 0)', parseNumber('--epsilon'))
    .requiredOption('--delta <D>', 'target delta, in (0, 1)', parseNumber('--delta'))
    .option(
      '--conversion <C>',
      'classic (the paper, Bun-Steinke 2016) or cks (Canonne-Kamath-Steinke 2020)',
      'classic',
    )
    .option('--json', 'print JSON {"rho", "sigma", ...}')
    .exitOverride()
    .action((o: { epsilon: number; delta: number; conversion: string; json?: boolean }) => {
      const conversion = zcdpConversion(o.conversion);
      checkPositive('--epsilon', o.epsilon);
      checkDelta(o.delta);
      const rho = usage(() => epsilonToRho(o.epsilon, o.delta, conversion));
      const sigma = sigmaForRho(rho);
      const name = conversion === 'classic' ? 'classic' : 'cks';
      if (o.json) {
        printJson({ rho, sigma, epsilon: o.epsilon, delta: o.delta, conversion: name });
      } else {
        process.stdout.write(
          `rho = ${fmt(rho)} for (epsilon=${o.epsilon}, delta=${o.delta}) with the ${name} conversion; ` +
            `Gaussian noise sigma = ${fmt(sigma)} per unit of L2 sensitivity (the noise multiplier)\n`,
        );
      }
    });

  privacy
    .command('rdp')
    .description('Renyi DP of the Poisson-subsampled Gaussian (Mironov-Talwar-Zhang 2019) at given orders')
    .requiredOption('--sigma <S>', 'noise multiplier (> 0)', parseNumber('--sigma'))
    .requiredOption('--q <Q>', 'sampling rate, in (0, 1]', parseNumber('--q'))
    .option('--orders <LIST>', 'paper, extended or a comma-separated list of orders > 1', 'paper')
    .option('--steps <N>', 'number of composed releases', parsePositiveInt('--steps'), 1)
    .option('--json', 'print JSON {"orders": [..], "rdp": [..]}')
    .exitOverride()
    .action((o: { sigma: number; q: number; orders: string; steps: number; json?: boolean }) => {
      checkPositive('--sigma', o.sigma);
      checkQ(o.q);
      const orders = usage(() => resolveOrders(parseOrders(o.orders)));
      const rdp = Array.from(
        subsampledGaussianRdpCurve(o.q, o.sigma, orders, o.steps, new Float64Array(orders.length)),
      );
      if (o.json) {
        printJson({ orders, rdp, sigma: o.sigma, q: o.q, steps: o.steps });
      } else {
        process.stdout.write(
          `RDP of ${o.steps} subsampled Gaussian release(s), q=${o.q}, sigma=${o.sigma}:\n`,
        );
        orders.forEach((a, i) => {
          process.stdout.write(`  order ${a}: ${fmt(rdp[i]!)}\n`);
        });
      }
    });

  privacy
    .command('epsilon')
    .description(
      'epsilon(delta) of m Gaussian releases (optionally Poisson-subsampled) at noise sigma, by the exact (default), zCDP or RDP accountant',
    )
    .requiredOption(
      '--sigma <S>',
      'noise standard deviation (> 0); the noise multiplier when --sensitivity is 1',
      parseNumber('--sigma'),
    )
    .requiredOption('--delta <D>', 'delta, in (0, 1)', parseNumber('--delta'))
    .option('--q <Q>', 'Poisson sampling rate, in (0, 1]; 1 = no subsampling', parseNumber('--q'), 1)
    .option(
      '--compositions <M>',
      'number of releases composed on the same data (default 1)',
      parsePositiveInt('--compositions'),
    )
    .option('--steps <N>', 'the same as --compositions (older name)', parsePositiveInt('--steps'))
    .option('--sensitivity <S>', 'L2 sensitivity of each release (> 0)', parseNumber('--sensitivity'), 1)
    .option('--accountant <A>', 'exact (Gaussian DP / exact curve / PLD), zcdp (the paper) or rdp', 'exact')
    .option('--orders <LIST>', 'rdp only: paper, extended (default) or a comma-separated list of orders > 1')
    .option('--conversion <C>', 'zcdp and rdp only: classic (default, the paper) or improved (cks)')
    .option(
      '--noise <N>',
      'exact only: discrete (default, the secure sampler; adds its proven margin) or continuous',
      'discrete',
    )
    .option('--json', 'print JSON {"epsilon", "epsilonLower", "accountant", "method", "order", ...}')
    .exitOverride()
    .action((o: PlanCliOptions & { sigma: number }) => {
      checkPositive('--sigma', o.sigma);
      const p = planFromCli(o);
      const g = usage(() => gaussianPlanEpsilon(o.sigma, p.plan, o.delta, p.accountant, p.options));
      if (o.json) {
        printJson({
          epsilon: g.epsilon,
          epsilonLower: g.epsilonLower,
          accountant: g.accountant,
          method: g.method,
          order: g.order,
          orderAtEdge: p.accountant === 'rdp' ? rdpEdge(o.sigma, p, o.delta) : false,
          delta: o.delta,
          conversion: p.accountant === 'exact' ? null : (p.options.conversion ?? 'classic'),
          noise: p.accountant === 'exact' ? (p.options.noise ?? 'discrete') : null,
          sigma: o.sigma,
          sensitivity: p.plan.sensitivity,
          q: p.plan.q,
          compositions: p.plan.compositions,
          steps: p.plan.compositions,
        });
      } else {
        const bound = g.method === 'pld' ? ` (PLD upper bound; optimistic value ${fmt(g.epsilonLower)})` : '';
        const order = g.order === null ? '' : `; order ${g.order}`;
        process.stdout.write(
          `epsilon = ${fmt(g.epsilon)}${bound} at delta=${o.delta} by the ${describeAccountant(p, g.method)}${order} ` +
            `for ${p.plan.compositions} release(s) with q=${p.plan.q}, sigma=${o.sigma}, sensitivity=${p.plan.sensitivity}\n`,
        );
      }
    });

  privacy
    .command('calibrate')
    .description(
      'smallest noise sigma meeting (epsilon, delta) for m Gaussian releases (optionally Poisson-subsampled), by the exact (default), zCDP or RDP accountant',
    )
    .requiredOption('--epsilon <E>', 'target epsilon (> 0)', parseNumber('--epsilon'))
    .requiredOption('--delta <D>', 'delta, in (0, 1)', parseNumber('--delta'))
    .option('--q <Q>', 'Poisson sampling rate, in (0, 1]; 1 = no subsampling', parseNumber('--q'), 1)
    .option(
      '--compositions <M>',
      'number of releases composed on the same data (default 1)',
      parsePositiveInt('--compositions'),
    )
    .option('--steps <N>', 'the same as --compositions (older name)', parsePositiveInt('--steps'))
    .option(
      '--sensitivity <S>',
      'L2 sensitivity of each release (> 0); sigma is absolute',
      parseNumber('--sensitivity'),
      1,
    )
    .option('--accountant <A>', 'exact (Gaussian DP / exact curve / PLD), zcdp (the paper) or rdp', 'exact')
    .option('--orders <LIST>', 'rdp only: paper, extended (default) or a comma-separated list of orders > 1')
    .option('--conversion <C>', 'zcdp and rdp only: classic (default, the paper) or improved (cks)')
    .option(
      '--noise <N>',
      'exact only: discrete (default, the secure sampler; adds its proven margin) or continuous',
      'discrete',
    )
    .option('--json', 'print JSON {"sigma", "epsilon", "accountant", "method", "order", ...}')
    .exitOverride()
    .action((o: PlanCliOptions & { epsilon: number }) => {
      checkPositive('--epsilon', o.epsilon);
      const p = planFromCli(o);
      const c = usage(() =>
        calibrateGaussianNoise({ epsilon: o.epsilon, delta: o.delta }, p.plan, p.accountant, p.options),
      );
      if (o.json) {
        printJson({
          sigma: c.sigma,
          epsilon: c.epsilon,
          epsilonLower: c.epsilonLower,
          accountant: c.accountant,
          method: c.method,
          order: c.order,
          orderAtEdge: p.accountant === 'rdp' ? rdpEdge(c.sigma, p, o.delta) : false,
          targetEpsilon: o.epsilon,
          delta: o.delta,
          conversion: p.accountant === 'exact' ? null : (p.options.conversion ?? 'classic'),
          noise: p.accountant === 'exact' ? (p.options.noise ?? 'discrete') : null,
          sensitivity: p.plan.sensitivity,
          q: p.plan.q,
          compositions: p.plan.compositions,
          steps: p.plan.compositions,
        });
      } else {
        const order = c.order === null ? '' : `; order ${c.order}`;
        process.stdout.write(
          `sigma = ${fmt(c.sigma, 8)} gives epsilon = ${fmt(c.epsilon)} <= ${o.epsilon} at delta=${o.delta} ` +
            `(${describeAccountant(p, c.method)}${order}; q=${p.plan.q}, ${p.plan.compositions} release(s), sensitivity ${p.plan.sensitivity})\n`,
        );
      }
    });

  privacy
    .command('user')
    .description(
      "user-level calibration: sigma per release so that all of one unit's contributions (c per release, at most m releases) meet (epsilon, delta); side by side with the event-level sigma and group privacy for k = c m events",
    )
    .requiredOption('--epsilon <E>', 'user-level target epsilon (> 0)', parseNumber('--epsilon'))
    .requiredOption('--delta <D>', 'user-level delta, in (0, 1)', parseNumber('--delta'))
    .requiredOption(
      '--contributions <C>',
      'most rewards of one unit in one release (positive integer; the sensitivity of a release)',
      parsePositiveInt('--contributions'),
    )
    .requiredOption(
      '--participations <M>',
      'most releases one unit takes part in per epoch (positive integer)',
      parsePositiveInt('--participations'),
    )
    .option('--accountant <A>', 'exact (Gaussian DP: mu = c sqrt(m) / sigma) or zcdp (m c^2 rho)', 'exact')
    .option('--conversion <C>', 'zcdp only: classic (default, the paper) or cks')
    .option('--json', 'print JSON {"sigma", "eventLevel": {"sigma"}, "groupPrivacy": {"k", "sigma"}, ...}')
    .exitOverride()
    .action(
      (o: {
        epsilon: number;
        delta: number;
        contributions: number;
        participations: number;
        accountant: string;
        conversion?: string;
        json?: boolean;
      }) => {
        checkPositive('--epsilon', o.epsilon);
        checkDelta(o.delta);
        if (o.accountant !== 'exact' && o.accountant !== 'zcdp') {
          throw new UsageError(
            `--accountant must be exact or zcdp for user-level calibration. Got ${JSON.stringify(o.accountant)}.`,
          );
        }
        const accountant: AccountantName = o.accountant;
        if (o.conversion !== undefined && accountant !== 'zcdp') {
          throw new UsageError(
            `--conversion applies only to --accountant zcdp. Got --conversion ${JSON.stringify(o.conversion)} with --accountant ${accountant}.`,
          );
        }
        const conversion = o.conversion === undefined ? 'classic' : zcdpConversion(o.conversion);
        const options = accountant === 'zcdp' ? { conversion } : {};
        const c = o.contributions;
        const m = o.participations;
        const target = { epsilon: o.epsilon, delta: o.delta };
        const user = usage(() =>
          calibrateGaussianNoise(target, { sensitivity: c, compositions: m, q: 1 }, accountant, options),
        );
        const event = usage(() =>
          calibrateGaussianNoise(target, { sensitivity: 1, compositions: 1, q: 1 }, accountant, options),
        );
        // group privacy: an event-level mechanism protects k events with k mu (GDP) or k^2 rho (zCDP)
        const k = c * m;
        const group = k * event.sigma;
        const rho = accountant === 'zcdp' ? epsilonToRho(o.epsilon, o.delta, conversion) : null;
        if (o.json) {
          printJson({
            sigma: user.sigma,
            epsilon: user.epsilon,
            delta: o.delta,
            accountant,
            method: user.method,
            unit: 'user',
            contributions: c,
            participations: m,
            mu: accountant === 'exact' ? (c * Math.sqrt(m)) / user.sigma : null,
            rho,
            rhoPerRelease: rho === null ? null : (c * c) / (2 * user.sigma * user.sigma),
            eventLevel: { sigma: event.sigma, epsilon: event.epsilon },
            groupPrivacy: { k, sigma: group },
          });
        } else {
          process.stdout.write(
            `user-level (epsilon=${o.epsilon}, delta=${o.delta}) for units contributing at most ${c} reward(s) per release and ${m} release(s): ` +
              `sigma = ${fmt(user.sigma)} per release (${accountant === 'exact' ? `exact: Gaussian DP mu = c sqrt(m) / sigma = ${fmt((c * Math.sqrt(m)) / user.sigma)}` : `zCDP: m c^2 rho_release = rho = ${fmt(rho!)}`})\n` +
              `  event-level (one reward, one release): sigma = ${fmt(event.sigma)}\n` +
              `  group privacy for k = c m = ${k} events instead: sigma = ${fmt(group)} (${fmt(group / user.sigma, 4)}x the user-level noise)\n`,
          );
        }
      },
    );

  privacy
    .command('group')
    .description(
      'per-record zCDP rho that gives a user-level (epsilon, delta) for groups of K records (k^2 rho)',
    )
    .requiredOption('--epsilon <E>', 'user-level epsilon (> 0)', parseNumber('--epsilon'))
    .requiredOption('--delta <D>', 'user-level delta, in (0, 1)', parseNumber('--delta'))
    .requiredOption('--k <K>', 'records per user (group size)', parsePositiveInt('--k'))
    .option('--conversion <C>', 'classic (the paper) or cks', 'classic')
    .option('--json', 'print JSON {"rho", "rhoPerRecord", ...}')
    .exitOverride()
    .action((o: { epsilon: number; delta: number; k: number; conversion: string; json?: boolean }) => {
      const conversion = zcdpConversion(o.conversion);
      checkPositive('--epsilon', o.epsilon);
      checkDelta(o.delta);
      const rho = usage(() => epsilonToRho(o.epsilon, o.delta, conversion));
      const rhoPerRecord = rho / (o.k * o.k);
      if (o.json) {
        printJson({
          rho,
          rhoPerRecord,
          k: o.k,
          sigmaPerRecord: sigmaForRho(rhoPerRecord),
          epsilon: o.epsilon,
          delta: o.delta,
        });
      } else {
        process.stdout.write(
          `user-level (epsilon=${o.epsilon}, delta=${o.delta}) is rho = ${fmt(rho)}; protecting k=${o.k} records ` +
            `needs rho = ${fmt(rhoPerRecord)} per record (sigma = ${fmt(sigmaForRho(rhoPerRecord))})\n`,
        );
      }
    });

  privacy
    .command('table')
    .description(
      'calibrated sigma for epsilon in {0.1,0.5,1,2,5,10} x q in {1,0.7,0.5,0.3,0.1} (the docs table)',
    )
    .option('--delta <D>', 'delta, in (0, 1)', parseNumber('--delta'), 1e-5)
    .option('--steps <N>', 'number of composed releases', parsePositiveInt('--steps'), 1)
    .option(
      '--orders <LIST>',
      'paper, extended (default) or a comma-separated list of orders > 1',
      'extended',
    )
    .option('--conversion <C>', 'classic or improved', 'classic')
    .option('--json', 'print JSON {"cells": [...]}')
    .exitOverride()
    .action((o: { delta: number; steps: number; orders: string; conversion: string; json?: boolean }) => {
      checkDelta(o.delta);
      const conversion = rdpConversion(o.conversion);
      const orders = parseOrders(o.orders);
      const cells = usage(() => privacyTable({ delta: o.delta, steps: o.steps, orders, conversion }));
      if (o.json) {
        printJson({ delta: o.delta, steps: o.steps, orders: o.orders, conversion, cells });
        return;
      }
      const lines = [
        `| epsilon | ${TABLE_QS.map((q) => `q = ${q}`).join(' | ')} |`,
        `|---|${TABLE_QS.map(() => '---').join('|')}|`,
      ];
      for (const e of TABLE_EPSILONS) {
        const row = cells
          .filter((c) => c.epsilon === e)
          .map((c) =>
            c.sigma === null
              ? 'unreachable'
              : `${fmt(c.sigma, 5)} (${c.order}${c.orderAtEdge ? ', edge' : ''})`,
          );
        lines.push(`| ${e} | ${row.join(' | ')} |`);
      }
      process.stdout.write(
        `Calibrated sigma (order) at delta=${o.delta}, ${o.steps} step(s), ${o.orders === 'extended' ? `extended grid (${EXTENDED_ORDERS.length} orders)` : `orders ${o.orders}`}, ${conversion} conversion:\n${lines.join('\n')}\n`,
      );
    });
}
