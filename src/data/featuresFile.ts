import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { featureDim } from './ArmFeatureMap.js';
import type { FeaturesHeader, PreparedFeatures } from './PreparedFeatures.js';

const MAGIC = 'ADPFEAT1';
const FORMAT_VERSION = 2;

type SectionName =
  | 'userFactors'
  | 'itemFactors'
  | 'evalPtr'
  | 'evalItems'
  | 'evalRatings'
  | 'gram'
  | 'bScaled'
  | 'levels'
  | 'bLevels'
  | 'itemBias'
  | 'valPtr'
  | 'valItems'
  | 'valRatings';

const SECTIONS: readonly { name: SectionName; type: 'f64' | 'i32' | 'f32' }[] = [
  { name: 'userFactors', type: 'f64' },
  { name: 'itemFactors', type: 'f64' },
  { name: 'evalPtr', type: 'i32' },
  { name: 'evalItems', type: 'i32' },
  { name: 'evalRatings', type: 'f32' },
  { name: 'gram', type: 'f64' },
  { name: 'bScaled', type: 'f64' },
  { name: 'levels', type: 'f64' },
  { name: 'bLevels', type: 'f64' },
  { name: 'itemBias', type: 'f64' },
  { name: 'valPtr', type: 'i32' },
  { name: 'valItems', type: 'i32' },
  { name: 'valRatings', type: 'f32' },
];

interface SectionEntry {
  readonly name: SectionName;
  readonly type: 'f64' | 'i32' | 'f32';
  readonly length: number;
  readonly offset: number;
}

/**
 * Writes prepared features to `file` in the adaprivate features format (docs/data.md):
 * 8 bytes `ADPFEAT1`, a uint32 (little-endian) header length, the JSON header (FeaturesHeader plus
 * the section table), zero padding to a multiple of 8, then each typed-array section
 * (little-endian) at its recorded offset. The file is written to `file.tmp-<pid>` and renamed, so a
 * half-written file never takes the place of a good one.
 * @example
 * await writeFeaturesFile('ml.features', prepared); // file starts with "ADPFEAT1"
 */
export async function writeFeaturesFile(file: string, f: PreparedFeatures): Promise<void> {
  if (endianness() !== 'LE') throw new Error('features files are little-endian; this machine is big-endian.');
  let offset = 0;
  const sections: SectionEntry[] = SECTIONS.map(({ name, type }) => {
    const arr = f[name];
    const entry = { name, type, length: arr.length, offset };
    offset += Math.ceil(arr.byteLength / 8) * 8;
    return entry;
  });
  const headerJson = Buffer.from(JSON.stringify({ ...f.header, rank: f.rank, sections }), 'utf8');
  const prefix = 8 + 4 + headerJson.length;
  const dataStart = Math.ceil(prefix / 8) * 8;
  const out = Buffer.alloc(dataStart + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(headerJson.length, 8);
  headerJson.copy(out, 12);
  for (const s of sections) {
    const arr = f[s.name];
    Buffer.from(arr.buffer, arr.byteOffset, arr.byteLength).copy(out, dataStart + s.offset);
  }
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, out);
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * Reads only the JSON header of a features file (cheap: the first few kilobytes).
 * @example
 * (await readFeaturesHeader('ml.features')).params.rank; // returns 50
 */
export async function readFeaturesHeader(file: string): Promise<FeaturesHeader & { rank: number }> {
  const { parsed } = await readHeaderBytes(file);
  return parsed;
}

async function readHeaderBytes(
  file: string,
): Promise<{ parsed: FeaturesHeader & { rank: number; sections: SectionEntry[] }; dataStart: number }> {
  const { open } = await import('node:fs/promises');
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(12);
    await fh.read(head, 0, 12, 0);
    if (head.toString('latin1', 0, 8) !== MAGIC) {
      throw new Error(`${file} is not an adaprivate features file (run \`adaprivate data prepare\`).`);
    }
    const len = head.readUInt32LE(8);
    const json = Buffer.alloc(len);
    await fh.read(json, 0, len, 12);
    return { parsed: JSON.parse(json.toString('utf8')), dataStart: Math.ceil((12 + len) / 8) * 8 };
  } finally {
    await fh.close();
  }
}

/**
 * Reads a whole features file written by {@link writeFeaturesFile}, checking its size against the
 * section table (a truncated file is refused).
 * @example
 * const f = await readFeaturesFile('ml.features');
 * f.rank; // returns 50
 */
export async function readFeaturesFile(file: string): Promise<PreparedFeatures> {
  const { parsed, dataStart } = await readHeaderBytes(file);
  const bytes = await readFile(file);
  return decode(file, bytes, parsed, dataStart);
}

/** Synchronous variant of {@link readFeaturesFile} (used by environment factories). */
export function readFeaturesFileSync(file: string, bytes: Buffer): PreparedFeatures {
  if (bytes.toString('latin1', 0, 8) !== MAGIC) {
    throw new Error(`${file} is not an adaprivate features file (run \`adaprivate data prepare\`).`);
  }
  const len = bytes.readUInt32LE(8);
  const parsed = JSON.parse(bytes.toString('utf8', 12, 12 + len));
  return decode(file, bytes, parsed, Math.ceil((12 + len) / 8) * 8);
}

function decode(
  file: string,
  bytes: Buffer,
  parsed: FeaturesHeader & { rank: number; sections: SectionEntry[] },
  dataStart: number,
): PreparedFeatures {
  const { sections, rank, ...header } = parsed;
  if (header.version !== FORMAT_VERSION) {
    throw new Error(
      `${file} is a version ${String(header.version)} features file; this adaprivate reads version ${FORMAT_VERSION} (rebuild it with \`adaprivate data prepare\`).`,
    );
  }
  const arrays: Partial<Record<SectionName, Float64Array | Int32Array | Float32Array>> = {};
  for (const s of sections) {
    const size = s.type === 'f64' ? 8 : 4;
    const start = dataStart + s.offset;
    const end = start + s.length * size;
    if (end > bytes.length)
      throw new Error(
        `${file} is truncated (section ${s.name} ends at ${end}, file has ${bytes.length} bytes).`,
      );
    // copy into a fresh, aligned ArrayBuffer
    const copy = new ArrayBuffer(s.length * size);
    new Uint8Array(copy).set(bytes.subarray(start, end));
    arrays[s.name] =
      s.type === 'f64'
        ? new Float64Array(copy)
        : s.type === 'i32'
          ? new Int32Array(copy)
          : new Float32Array(copy);
  }
  const get = <T>(name: SectionName): T => {
    const a = arrays[name];
    if (a === undefined) throw new Error(`${file} has no section ${name}.`);
    return a as T;
  };
  return {
    header: header as FeaturesHeader,
    rank,
    dim: featureDim(header.construction.kind, rank),
    userFactors: get<Float64Array>('userFactors'),
    itemFactors: get<Float64Array>('itemFactors'),
    evalPtr: get<Int32Array>('evalPtr'),
    evalItems: get<Int32Array>('evalItems'),
    evalRatings: get<Float32Array>('evalRatings'),
    gram: get<Float64Array>('gram'),
    bScaled: get<Float64Array>('bScaled'),
    levels: get<Float64Array>('levels'),
    bLevels: get<Float64Array>('bLevels'),
    itemBias: get<Float64Array>('itemBias'),
    valPtr: get<Int32Array>('valPtr'),
    valItems: get<Int32Array>('valItems'),
    valRatings: get<Float32Array>('valRatings'),
  };
}

/**
 * SHA-256 of a file, streamed (hex).
 * @example
 * await sha256File('ratings.csv'); // returns 'aa289ca8...'
 */
export async function sha256File(
  file: string,
  onProgress?: (done: number, total: number) => void,
): Promise<string> {
  const total = (await stat(file)).size;
  const hash = createHash('sha256');
  let done = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    done += chunk.length;
    onProgress?.(done, total);
  }
  return hash.digest('hex');
}
