import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import { fetchDataset } from '../../src/data/fetchDataset.js';

/** A minimal zip writer (stored entries, no compression) so the test makes its own archive. */
function makeZip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const fname = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fname.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fname.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fname, data);
    centrals.push(central, fname);
    offset += 30 + fname.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const ratings = `userId,movieId,rating,timestamp\n${Array.from({ length: 2000 }, (_, i) => `${i % 37},${i % 101},4.0,${i}`).join('\n')}\n`;
const zip = makeZip({ 'ml-latest-small/': '', 'ml-latest-small/ratings.csv': ratings });
const sha = createHash('sha256').update(zip).digest('hex');
let server: Server;
let base = '';
const requests: { path: string; range: string | undefined }[] = [];
let interruptNext = false;
/**
 * The response being interrupted: the server sends the first 1000 bytes and keeps the connection
 * open; the client's progress callback (which runs only once bytes have arrived) cuts it. So the
 * interruption always happens after some bytes reached the client, whatever the socket timing.
 */
let interrupted: ServerResponse | null = null;
const cutAfterFirstBytes = (): void => {
  interrupted?.destroy();
  interrupted = null;
};

before(async () => {
  server = createServer((req, res) => {
    const range = req.headers.range;
    requests.push({ path: req.url ?? '', range });
    if (req.url === '/missing.zip') {
      res.writeHead(404).end();
      return;
    }
    const m = range === undefined ? null : /^bytes=(\d+)-$/.exec(range);
    if (m !== null && req.url !== '/norange.zip') {
      const start = Number(m[1]);
      res.writeHead(206, {
        'Content-Length': zip.length - start,
        'Content-Range': `bytes ${start}-${zip.length - 1}/${zip.length}`,
      });
      res.end(zip.subarray(start));
      return;
    }
    res.writeHead(200, { 'Content-Length': zip.length });
    if (interruptNext) {
      interruptNext = false;
      interrupted = res;
      res.write(zip.subarray(0, 1000));
      return;
    }
    res.end(zip);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const root = mkdtempSync(join(tmpdir(), 'adaprivate-fetch-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('fetchDataset (local HTTP server)', () => {
  it('downloads, verifies and unpacks an archive', async () => {
    const dir = join(root, 'a');
    const r = await fetchDataset('movielens-latest-small', {
      dir,
      url: `${base}/ml-latest-small.zip`,
      sha256: sha,
    });
    assert.equal(r.verified, true);
    assert.equal(r.sha256, sha);
    assert.equal(readFileSync(join(dir, 'ml-latest-small', 'ratings.csv'), 'utf8'), ratings);
    assert.deepEqual(readdirSync(dir).sort(), ['ml-latest-small', 'ml-latest-small.zip']);
    const again = await fetchDataset('movielens-latest-small', {
      dir,
      url: `${base}/ml-latest-small.zip`,
      sha256: sha,
    });
    assert.equal(again.downloaded, 0, 'a complete, verified archive is not downloaded again');
  });

  it('keeps the partial file of an interrupted transfer and never the archive name', async () => {
    const dir = join(root, 'b0');
    interruptNext = true;
    await assert.rejects(
      fetchDataset('movielens-latest-small', {
        dir,
        url: `${base}/ml-latest-small.zip`,
        sha256: sha,
        onProgress: cutAfterFirstBytes,
      }),
      /interrupted|stopped at/,
    );
    assert.ok(existsSync(join(dir, 'ml-latest-small.zip.part')), 'the partial download is kept for resuming');
    assert.ok(!existsSync(join(dir, 'ml-latest-small.zip')), 'no half-written archive under the real name');
  });

  it('resumes an interrupted transfer with an HTTP Range request', async () => {
    // How many bytes of an interrupted response reach the disk depends on socket timing, so the
    // interrupted state is written directly: the first 1000 bytes of the archive in the .part file.
    const dir = join(root, 'b');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ml-latest-small.zip.part'), zip.subarray(0, 1000));
    requests.length = 0;
    const r = await fetchDataset('movielens-latest-small', {
      dir,
      url: `${base}/ml-latest-small.zip`,
      sha256: sha,
    });
    assert.equal(r.resumed, true);
    assert.equal(requests[0]?.range, 'bytes=1000-');
    assert.equal(r.downloaded, zip.length - 1000);
    assert.equal(readFileSync(join(dir, 'ml-latest-small', 'ratings.csv'), 'utf8'), ratings);
    assert.ok(!existsSync(join(dir, 'ml-latest-small.zip.part')));
  });

  it('restarts cleanly when the server ignores the range', async () => {
    const dir = join(root, 'c');
    interruptNext = true;
    await assert.rejects(
      fetchDataset('movielens-latest-small', {
        dir,
        url: `${base}/norange.zip`,
        sha256: sha,
        onProgress: cutAfterFirstBytes,
      }),
    );
    const r = await fetchDataset('movielens-latest-small', { dir, url: `${base}/norange.zip`, sha256: sha });
    assert.equal(r.resumed, false);
    assert.equal(r.downloaded, zip.length);
    assert.equal(r.sha256, sha);
  });

  it('refuses a checksum mismatch and leaves nothing behind', async () => {
    const dir = join(root, 'd');
    await assert.rejects(
      fetchDataset('movielens-latest-small', {
        dir,
        url: `${base}/ml-latest-small.zip`,
        sha256: 'a'.repeat(64),
      }),
      /checksum mismatch.*expected sha256 a{64}, got [0-9a-f]{64}/,
    );
    assert.deepEqual(readdirSync(dir), []);
  });

  it('reports HTTP errors, unknown datasets and bad checksums', async () => {
    const dir = join(root, 'e');
    await assert.rejects(
      fetchDataset('movielens-latest-small', { dir, url: `${base}/missing.zip` }),
      /HTTP 404/,
    );
    await assert.rejects(fetchDataset('netflix', { dir }), /dataset must be one of movielens-25m, /);
    await assert.rejects(
      fetchDataset('jester-1', { dir, sha256: 'xyz' }),
      /sha256 must be 64 hexadecimal digits/,
    );
  });
});
