import { Command } from 'commander';
import { registerPrivacy } from '../../src/cli/commands/privacy.js';

const cmds = [
  ['privacy', 'rho', '--epsilon', '1', '--delta', '1e-5'],
  ['privacy', 'rho', '--epsilon', '1', '--delta', '1e-5', '--conversion', 'cks', '--json'],
  ['privacy', 'rdp', '--sigma', '2.5', '--q', '0.3', '--orders', '2,3,4', '--json'],
  ['privacy', 'epsilon', '--sigma', '2.5', '--q', '0.3', '--delta', '1e-5', '--orders', 'paper', '--json'],
  ['privacy', 'epsilon', '--sigma', '2.5', '--q', '0.3', '--delta', '1e-5'],
  ['privacy', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--q', '0.3', '--orders', 'paper', '--json'],
  ['privacy', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--q', '0.3'],
  ['privacy', 'group', '--epsilon', '5', '--delta', '1e-5', '--k', '10'],
  ['privacy', 'group', '--epsilon', '5', '--delta', '1e-5', '--k', '5', '--json'],
];
for (const c of cmds) {
  const p = new Command();
  p.exitOverride();
  registerPrivacy(p);
  process.stdout.write(`$ adaprivate ${c.join(' ')}\n`);
  try {
    await p.parseAsync(c, { from: 'user' });
  } catch (e) {
    process.stdout.write(`adaprivate: ${(e as Error).message}\n`);
  }
  process.stdout.write('\n');
}
