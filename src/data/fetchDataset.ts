import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { dirname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/** An official dataset archive adaprivate can fetch. */
export interface DatasetSource {
  readonly name: string;
  readonly url: string;
  /** SHA-256 of the official archive where a trustworthy record exists, else null (then it is reported, not checked). */
  readonly sha256: string | null;
  /** The ratings file inside the unpacked archive (relative to --dir). */
  readonly ratingsFile: string;
  readonly note: string;
}

/**
 * The official archives (SPEC section 5). Checksums: ml-latest-small and jester-1 as recorded by
 * ISG-Siegen/OmniRec (see /work/shared/data/README files); none known for ml-25m and jester-2 here,
 * so those are reported after download and can be pinned with `--sha256`.
 */
export const DATASETS: Readonly<Record<string, DatasetSource>> = {
  'movielens-25m': {
    name: 'movielens-25m',
    url: 'https://files.grouplens.org/datasets/movielens/ml-25m.zip',
    sha256: null,
    ratingsFile: 'ml-25m/ratings.csv',
    note: 'GroupLens MovieLens 25M (25,000,095 ratings); research use, no redistribution.',
  },
  'movielens-latest-small': {
    name: 'movielens-latest-small',
    url: 'https://files.grouplens.org/datasets/movielens/ml-latest-small.zip',
    sha256: '696d65a3dfceac7c45750ad32df2c259311949efec81f0f144fdfb91ebc9e436',
    ratingsFile: 'ml-latest-small/ratings.csv',
    note: 'GroupLens ml-latest-small (a development set that may change over time).',
  },
  'jester-1': {
    name: 'jester-1',
    url: 'https://eigentaste.berkeley.edu/dataset/archive/jester_dataset_1_1.zip',
    sha256: 'cb7841756ded125b15f3d95c9f8241224065e96354c132a46ae4214deeab7615',
    ratingsFile: 'jester-data-1.xls',
    note: 'Jester dataset 1 part 1 (an .xls sheet: export it as CSV, e.g. jester-data-1.csv, for `data prepare`).',
  },
  'jester-2': {
    name: 'jester-2',
    url: 'https://eigentaste.berkeley.edu/dataset/archive/jester_dataset_2.zip',
    sha256: null,
    ratingsFile: 'jester_ratings.dat',
    note: 'Jester dataset 2 (jester_ratings.dat).',
  },
};

/** Options of {@link fetchDataset}. */
export interface FetchOptions {
  /** Target directory. Default `data`. */
  readonly dir?: string;
  /** Override the download URL (mirrors, tests). */
  readonly url?: string;
  /** Expected SHA-256 (hex); overrides the recorded one. */
  readonly sha256?: string;
  /** Called with (bytes downloaded, total bytes or NaN). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** What {@link fetchDataset} did. */
export interface FetchResult {
  readonly archive: string;
  readonly sha256: string;
  /** true when the checksum was compared against an expected value. */
  readonly verified: boolean;
  /** Bytes fetched in this call (0 when the archive was already complete). */
  readonly downloaded: number;
  /** true when an interrupted download was continued with an HTTP Range request. */
  readonly resumed: boolean;
  readonly files: readonly string[];
}

/**
 * Downloads an official dataset archive, verifies its SHA-256, and unpacks it into `dir`.
 * The download goes to `<archive>.part`; an interrupted transfer leaves the .part file, and the next
 * call continues it with an HTTP Range request (or restarts when the server ignores ranges). A
 * checksum mismatch deletes the .part file and fails. Unpacked files are written to a temporary
 * name and renamed, so no half-written file is ever left under its real name.
 * @example
 * await fetchDataset('movielens-latest-small', { dir: 'data' }); // data/ml-latest-small/ratings.csv
 */
export async function fetchDataset(name: string, options: FetchOptions = {}): Promise<FetchResult> {
  const source = DATASETS[name];
  if (source === undefined) {
    throw new Error(
      `data fetch: dataset must be one of ${Object.keys(DATASETS).join(', ')}. Got ${JSON.stringify(name)}.`,
    );
  }
  const expected = (options.sha256 ?? source.sha256)?.toLowerCase() ?? null;
  if (expected !== null && !/^[0-9a-f]{64}$/.test(expected)) {
    throw new Error(
      `data fetch: sha256 must be 64 hexadecimal digits. Got ${JSON.stringify(options.sha256)}.`,
    );
  }
  const dir = options.dir ?? 'data';
  const url = options.url ?? source.url;
  await mkdir(dir, { recursive: true });
  const archive = join(dir, url.split('/').pop()?.split('?')[0] || `${name}.zip`);
  const part = `${archive}.part`;

  let downloaded = 0;
  let resumed = false;
  let sha = (await size(archive)) > 0 ? await hashFile(archive) : '';
  if (sha === '' || (expected !== null && sha !== expected)) {
    if (sha !== '') await unlink(archive); // a stale or corrupt archive: fetch again
    const r = await download(url, part, options.onProgress);
    downloaded = r.downloaded;
    resumed = r.resumed;
    sha = await hashFile(part);
    if (expected !== null && sha !== expected) {
      await unlink(part).catch(() => undefined);
      throw new Error(
        `data fetch: checksum mismatch for ${url}: expected sha256 ${expected}, got ${sha}. The partial file was deleted; run again to restart.`,
      );
    }
    await rename(part, archive);
  }
  const files = await unzip(archive, dir);
  return { archive, sha256: sha, verified: expected !== null, downloaded, resumed, files };
}

async function size(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

async function hashFile(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) h.update(chunk);
  return h.digest('hex');
}

function get(url: string, headers: Record<string, string>): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : url.startsWith('http:') ? http : undefined;
    if (client === undefined) {
      reject(new Error(`data fetch: url must start with http: or https:. Got ${JSON.stringify(url)}.`));
      return;
    }
    const req = client.get(url, { headers }, resolve);
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`data fetch: no response from ${url} within 60 s.`)));
  });
}

async function download(
  url: string,
  part: string,
  onProgress?: (done: number, total: number) => void,
): Promise<{ downloaded: number; resumed: boolean }> {
  let have = await size(part);
  let current = url;
  for (let redirects = 0; redirects < 6; redirects++) {
    const res = await get(current, have > 0 ? { Range: `bytes=${have}-` } : {});
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location !== undefined) {
      res.resume();
      current = new URL(res.headers.location, current).toString();
      continue;
    }
    if (status === 416 && have > 0) {
      // the .part file is already complete (or longer than the resource): let the checksum decide
      res.resume();
      return { downloaded: 0, resumed: true };
    }
    if (status !== 200 && status !== 206) {
      res.resume();
      throw new Error(`data fetch: ${current} answered HTTP ${status}.`);
    }
    const resumed = status === 206 && have > 0;
    if (!resumed) have = 0; // server ignored the range (or fresh start): restart cleanly
    const length = Number(res.headers['content-length']);
    const total = Number.isFinite(length) ? have + length : Number.NaN;
    // The .part file is opened before any byte is read (the response stays paused until the 'data'
    // listener below), so an interruption at any moment leaves it on disk for the next resume.
    const file = await open(part, resumed ? 'a' : 'w');
    let got = 0;
    res.on('data', (c: Buffer) => {
      got += c.length;
      onProgress?.(have + got, total);
    });
    try {
      await pipeline(res, file.createWriteStream());
    } catch (err) {
      throw new Error(
        `data fetch: the download of ${current} was interrupted after ${have + got} bytes (${err instanceof Error ? err.message : String(err)}); run the command again to resume.`,
      );
    }
    if (Number.isFinite(total) && have + got < total) {
      throw new Error(
        `data fetch: the download of ${current} stopped at ${have + got} of ${total} bytes; run the command again to resume.`,
      );
    }
    return { downloaded: got, resumed };
  }
  throw new Error(`data fetch: too many redirects from ${url}.`);
}

function unzip(archive: string, dir: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(archive, { lazyEntries: true }, (err, zip) => {
      if (err || zip === undefined) {
        reject(
          new Error(
            `data fetch: ${archive} is not a readable zip archive (${err?.message ?? 'unknown error'}).`,
          ),
        );
        return;
      }
      const files: string[] = [];
      const fail = (e: unknown): void => {
        zip.close();
        reject(e instanceof Error ? e : new Error(String(e)));
      };
      zip.on('error', fail);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        const rel = normalize(entry.fileName);
        if (rel.startsWith('..') || rel.startsWith(sep) || rel.includes(`..${sep}`)) {
          fail(
            new Error(`data fetch: ${archive} has an unsafe entry name ${JSON.stringify(entry.fileName)}.`),
          );
          return;
        }
        const target = join(dir, rel);
        if (entry.fileName.endsWith('/')) {
          mkdir(target, { recursive: true }).then(() => zip.readEntry(), fail);
          return;
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || stream === undefined) {
            fail(e ?? new Error('no stream'));
            return;
          }
          const tmp = `${target}.tmp-${process.pid}`;
          mkdir(dirname(target), { recursive: true })
            .then(() => pipeline(stream, createWriteStream(tmp)))
            .then(() => rename(tmp, target))
            .then(() => {
              files.push(target);
              zip.readEntry();
            })
            .catch(async (x: unknown) => {
              await unlink(tmp).catch(() => undefined);
              fail(x);
            });
        });
      });
      zip.readEntry();
    });
  });
}
