/**
 * Writes a synthetic ratings.csv with the size and shape of MovieLens ml-25m (25,000,095 ratings,
 * 162,541 users, 59,047 movies; heavy-tailed counts: user activity and movie popularity follow
 * Zipf-like laws) into a temporary directory (not committed). Deterministic (seeded).
 *
 * Usage: node dist/bench/gen-ml25m.js [outDir] [ratings]   (default: a new dir under os.tmpdir())
 */
import { createWriteStream, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../src/random/index.js';

export async function generateMl25m(
  outDir: string,
  ratings = 25_000_095,
  users = 162_541,
  movies = 59_047,
): Promise<string> {
  const rng = createRng(25, 'gen-ml25m');
  // user counts: at least 20 each (as in ml-25m), the rest spread with Zipf(1) weights
  const w = new Float64Array(users);
  let total = 0;
  for (let u = 0; u < users; u++) {
    w[u] = 1 / (u + 10);
    total += w[u]!;
  }
  const counts = new Int32Array(users);
  let assigned = 0;
  for (let u = 0; u < users; u++) {
    counts[u] = 20 + Math.floor(((ratings - 20 * users) * w[u]!) / total);
    counts[u] = Math.min(counts[u]!, movies);
    assigned += counts[u]!;
  }
  for (let u = 0; assigned < ratings; u = (u + 1) % users) {
    if (counts[u]! < movies) {
      counts[u]!++;
      assigned++;
    }
  }
  // movie popularity: Zipf(0.9) via an alias-free cumulative table
  const cum = new Float64Array(movies);
  let acc = 0;
  for (let m = 0; m < movies; m++) {
    acc += 1 / (m + 1) ** 0.9;
    cum[m] = acc;
  }
  const file = join(outDir, 'ratings.csv');
  const out = createWriteStream(file);
  out.write('userId,movieId,rating,timestamp\n');
  const seen = new Uint8Array(movies);
  const picked = new Int32Array(movies);
  let buf = '';
  for (let u = 0; u < users; u++) {
    const n = counts[u]!;
    let k = 0;
    while (k < n) {
      const x = rng.uniform() * acc;
      let lo = 0;
      let hi = movies - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cum[mid]! < x) lo = mid + 1;
        else hi = mid;
      }
      if (seen[lo] === 1) {
        if (n > movies / 2) lo = rng.integer(movies); // dense users: fall back to uniform
        if (seen[lo] === 1) continue;
      }
      seen[lo] = 1;
      picked[k++] = lo;
    }
    for (let i = 0; i < n; i++) {
      const m = picked[i]!;
      seen[m] = 0;
      const r = Math.min(10, Math.max(1, Math.round(7 + 2 * rng.normal()))) / 2;
      buf += `${u + 1},${m + 1},${r.toFixed(1)},${1_000_000_000 + i}\n`;
    }
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  out.write(buf);
  await new Promise<void>((r) => out.end(() => r()));
  return file;
}

if (process.argv[1]?.endsWith('gen-ml25m.js')) {
  const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'adaprivate-ml25m-'));
  mkdirSync(dir, { recursive: true });
  const n = process.argv[3] !== undefined ? Number(process.argv[3]) : undefined;
  generateMl25m(dir, n).then((f) => process.stdout.write(`${f}\n`));
}
