/**
 * `adaprivate privacy ...`: the privacy accountant on the command line (rho, rdp, epsilon,
 * calibrate, group, table). JSON field names are an interface other tools rely on: keep them.
 * Bad input exits with code 2 and a one-line reason.
 */
import type { Command } from 'commander';
import {
  type Conversion,
  calibrateSigma,
  EXTENDED_ORDERS,
  epsilonToRho,
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
    .description('(epsilon, delta) of subsampled Gaussian releases by the RDP accountant')
    .requiredOption('--sigma <S>', 'noise multiplier (> 0)', parseNumber('--sigma'))
    .requiredOption('--q <Q>', 'sampling rate, in (0, 1]', parseNumber('--q'))
    .requiredOption('--delta <D>', 'delta, in (0, 1)', parseNumber('--delta'))
    .option('--steps <N>', 'number of composed releases', parsePositiveInt('--steps'), 1)
    .option(
      '--orders <LIST>',
      'paper, extended (default) or a comma-separated list of orders > 1',
      'extended',
    )
    .option(
      '--conversion <C>',
      'classic (Mironov 2017, the paper) or improved (Balle et al. 2020)',
      'classic',
    )
    .option('--json', 'print JSON {"epsilon", "order", ...}')
    .exitOverride()
    .action(
      (o: {
        sigma: number;
        q: number;
        delta: number;
        steps: number;
        orders: string;
        conversion: string;
        json?: boolean;
      }) => {
        checkPositive('--sigma', o.sigma);
        checkQ(o.q);
        checkDelta(o.delta);
        const conversion = rdpConversion(o.conversion);
        const orders = parseOrders(o.orders);
        const g = usage(() =>
          subsampledGaussianEpsilon(o.sigma, { q: o.q, delta: o.delta, steps: o.steps, orders, conversion }),
        );
        if (o.json) {
          printJson({
            epsilon: g.epsilon,
            order: g.order,
            orderAtEdge: g.orderAtEdge,
            delta: o.delta,
            conversion,
            sigma: o.sigma,
            q: o.q,
            steps: o.steps,
          });
        } else {
          process.stdout.write(
            `epsilon = ${fmt(g.epsilon)} at delta=${o.delta} (order ${g.order}${g.orderAtEdge ? ', at the edge of the order grid' : ''}; ${conversion} conversion) ` +
              `for ${o.steps} release(s) with q=${o.q}, sigma=${o.sigma}\n`,
          );
        }
      },
    );

  privacy
    .command('calibrate')
    .description('smallest noise multiplier sigma meeting (epsilon, delta) for subsampled Gaussian releases')
    .requiredOption('--epsilon <E>', 'target epsilon (> 0)', parseNumber('--epsilon'))
    .requiredOption('--delta <D>', 'delta, in (0, 1)', parseNumber('--delta'))
    .requiredOption('--q <Q>', 'sampling rate, in (0, 1]', parseNumber('--q'))
    .option('--steps <N>', 'number of composed releases', parsePositiveInt('--steps'), 1)
    .option(
      '--orders <LIST>',
      'paper, extended (default) or a comma-separated list of orders > 1',
      'extended',
    )
    .option(
      '--conversion <C>',
      'classic (Mironov 2017, the paper) or improved (Balle et al. 2020)',
      'classic',
    )
    .option('--json', 'print JSON {"sigma", "order", "epsilon", ...}')
    .exitOverride()
    .action(
      (o: {
        epsilon: number;
        delta: number;
        q: number;
        steps: number;
        orders: string;
        conversion: string;
        json?: boolean;
      }) => {
        checkPositive('--epsilon', o.epsilon);
        checkDelta(o.delta);
        checkQ(o.q);
        const conversion = rdpConversion(o.conversion);
        const orders = parseOrders(o.orders);
        const c = usage(() =>
          calibrateSigma(o.epsilon, { q: o.q, delta: o.delta, steps: o.steps, orders, conversion }),
        );
        if (o.json) {
          printJson({
            sigma: c.sigma,
            order: c.order,
            epsilon: c.epsilon,
            orderAtEdge: c.orderAtEdge,
            targetEpsilon: o.epsilon,
            delta: o.delta,
            conversion,
            q: o.q,
            steps: o.steps,
          });
        } else {
          process.stdout.write(
            `sigma = ${fmt(c.sigma, 8)} gives epsilon = ${fmt(c.epsilon)} <= ${o.epsilon} at delta=${o.delta} ` +
              `(order ${c.order}${c.orderAtEdge ? ', at the edge of the order grid' : ''}; ${conversion} conversion; q=${o.q}, ${o.steps} step(s))\n`,
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
