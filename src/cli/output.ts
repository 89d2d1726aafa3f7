import { InvalidArgumentError } from 'commander';

/** Writes `value` as one JSON document on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Parses a finite number option, or fails with a message naming the option and the value. */
export function parseNumber(name: string): (raw: string) => number {
  return (raw: string) => {
    const v = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(v)) {
      throw new InvalidArgumentError(`${name} must be a finite number. Got ${JSON.stringify(raw)}.`);
    }
    return v;
  };
}

/** Parses a positive integer option. */
export function parsePositiveInt(name: string): (raw: string) => number {
  return (raw: string) => {
    const v = Number(raw);
    if (!Number.isSafeInteger(v) || v <= 0) {
      throw new InvalidArgumentError(`${name} must be a positive integer. Got ${JSON.stringify(raw)}.`);
    }
    return v;
  };
}

/** Parses a comma-separated list of finite numbers. */
export function parseNumberList(name: string): (raw: string) => number[] {
  return (raw: string) => {
    const parts = raw.split(',').map((s) => s.trim());
    const out = parts.map(Number);
    if (parts.some((s) => s === '') || out.some((v) => !Number.isFinite(v))) {
      throw new InvalidArgumentError(
        `${name} must be a comma-separated list of numbers. Got ${JSON.stringify(raw)}.`,
      );
    }
    return out;
  };
}
