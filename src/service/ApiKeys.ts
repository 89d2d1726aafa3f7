/**
 * API keys of the service: read from a file (one key per line) or an environment variable, compared
 * in constant time (SHA-256 of both sides, `timingSafeEqual`, every key checked, no early exit), and
 * never logged or echoed.
 */
import * as crypto from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Shortest key accepted (a guessable key is refused at start). */
export const MIN_API_KEY_LENGTH = 32;

/** SHA-256 of the UTF-8 bytes of `s`: one-shot `crypto.hash` where Node has it (>= 20.12), about 2x faster. */
const digest: (s: string) => Buffer =
  typeof crypto.hash === 'function'
    ? (s) => crypto.hash('sha256', s, 'buffer')
    : (s) => crypto.createHash('sha256').update(s, 'utf8').digest();

export class ApiKeys {
  private readonly digests: readonly Buffer[];

  /** @param keys at least one key of at least 32 characters (e.g. 32 random bytes in base64url: 43). */
  constructor(keys: readonly string[]) {
    if (keys.length === 0) throw new RangeError('API keys: at least one key is required.');
    keys.forEach((k, i) => {
      if (typeof k !== 'string' || k.length < MIN_API_KEY_LENGTH || /\s/.test(k)) {
        throw new RangeError(
          `API keys: key ${i + 1} must be at least ${MIN_API_KEY_LENGTH} characters without spaces (its value is not shown).`,
        );
      }
    });
    this.digests = keys.map(digest);
  }

  /**
   * Keys from `file` (one per line; blank lines and lines starting with # ignored) or, when no file
   * is given, from the environment variable `envName` (comma-separated).
   *
   * @example
   * ApiKeys.load({ envName: 'ADAPRIVATE_API_KEY', env: { ADAPRIVATE_API_KEY: 'k'.repeat(32) } }); // one key
   */
  static load(source: {
    readonly file?: string;
    readonly envName: string;
    readonly env: Readonly<Record<string, string | undefined>>;
  }): ApiKeys | null {
    let keys: string[];
    if (source.file !== undefined) {
      keys = readFileSync(source.file, 'utf8')
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#'));
      if (keys.length === 0) throw new RangeError(`API keys: ${source.file} holds no key.`);
    } else {
      const raw = source.env[source.envName];
      if (raw === undefined || raw.trim() === '') return null;
      keys = raw
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== '');
    }
    return new ApiKeys(keys);
  }

  /** True when the `Authorization: Bearer <key>` header value carries one of the keys. */
  check(authorization: string | undefined): boolean {
    if (authorization === undefined || !authorization.startsWith('Bearer ')) return false;
    const d = digest(authorization.slice(7).trim());
    let ok = false;
    for (const k of this.digests) ok = crypto.timingSafeEqual(k, d) || ok;
    return ok;
  }
}
