import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ExperimentConfigError } from './ExperimentConfigError.js';
import type { ExperimentConfig } from './types.js';
import { validateExperimentConfig } from './validateExperimentConfig.js';

/**
 * Reads an experiment config file: JSON for `.json`, YAML otherwise (`.yaml`, `.yml`), then
 * validates it with `validateExperimentConfig`.
 *
 * @example
 * loadExperimentConfig('experiments/quick.yaml').horizon; // returns e.g. 1000
 */
export function loadExperimentConfig(path: string): ExperimentConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ExperimentConfigError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    const first = ((err as Error).message.split('\n')[0] ?? '').trim();
    throw new ExperimentConfigError(
      `config file ${path} is not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${first}`,
    );
  }
  return validateExperimentConfig(raw);
}
