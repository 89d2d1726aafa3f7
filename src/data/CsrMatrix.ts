/**
 * A sparse matrix in compressed sparse row form: row r holds the entries
 * (colIdx[k], values[k]) for k in [rowPtr[r], rowPtr[r+1]).
 */
export interface CsrMatrix {
  readonly rows: number;
  readonly cols: number;
  readonly rowPtr: Int32Array;
  readonly colIdx: Int32Array;
  readonly values: Float32Array;
}

/**
 * Builds a CSR matrix from coordinate triplets, keeping only the entries where `keep(k)` is true
 * (default: all). Entries keep their input order within a row; duplicate (row, col) pairs are not
 * merged (the loaders' sources have none).
 *
 * Cost: O(nnz + rows) time (counting sort), 8 bytes per kept entry plus 4 per row.
 * @example
 * const m = buildCsr(2, 3, Int32Array.of(1, 0), Int32Array.of(2, 0), Float32Array.of(5, 4));
 * Array.from(m.rowPtr); // returns [0, 1, 2]
 */
export function buildCsr(
  rows: number,
  cols: number,
  rowOf: Int32Array,
  colOf: Int32Array,
  valueAt: Float32Array,
  keep?: (k: number) => boolean,
): CsrMatrix {
  const n = rowOf.length;
  const rowPtr = new Int32Array(rows + 1);
  let nnz = 0;
  for (let k = 0; k < n; k++) {
    if (keep !== undefined && !keep(k)) continue;
    rowPtr[rowOf[k]! + 1]!++;
    nnz++;
  }
  for (let r = 0; r < rows; r++) rowPtr[r + 1]! += rowPtr[r]!;
  const next = rowPtr.slice(0, rows);
  const colIdx = new Int32Array(nnz);
  const values = new Float32Array(nnz);
  for (let k = 0; k < n; k++) {
    if (keep !== undefined && !keep(k)) continue;
    const p = next[rowOf[k]!]!++;
    colIdx[p] = colOf[k]!;
    values[p] = valueAt[k]!;
  }
  return { rows, cols, rowPtr, colIdx, values };
}

/**
 * y = A x for a dense row-major block: x is cols x l (row-major), y is rows x l written
 * column-major (column c at [c*rows, (c+1)*rows)). `acc` is scratch of length >= l.
 * Cost: O(nnz * l). Allocation-free; never throws.
 */
export function csrTimesBlock(
  a: CsrMatrix,
  x: Float64Array,
  l: number,
  y: Float64Array,
  acc: Float64Array,
): void {
  const { rows, rowPtr, colIdx, values } = a;
  for (let i = 0; i < rows; i++) {
    acc.fill(0, 0, l);
    for (let p = rowPtr[i]!, e = rowPtr[i + 1]!; p < e; p++) {
      const v = values[p]!;
      const base = colIdx[p]! * l;
      for (let c = 0; c < l; c++) acc[c]! += v * x[base + c]!;
    }
    for (let c = 0; c < l; c++) y[c * rows + i] = acc[c]!;
  }
}

/**
 * z = A^T x: x is rows x l column-major, z is cols x l written row-major (zeroed first).
 * `row` is scratch of length >= l. Cost: O(nnz * l). Allocation-free; never throws.
 */
export function csrTransposeTimesBlock(
  a: CsrMatrix,
  x: Float64Array,
  l: number,
  z: Float64Array,
  row: Float64Array,
): void {
  const { rows, rowPtr, colIdx, values } = a;
  z.fill(0, 0, a.cols * l);
  for (let i = 0; i < rows; i++) {
    const s = rowPtr[i]!;
    const e = rowPtr[i + 1]!;
    if (s === e) continue;
    for (let c = 0; c < l; c++) row[c] = x[c * rows + i]!;
    for (let p = s; p < e; p++) {
      const v = values[p]!;
      const base = colIdx[p]! * l;
      for (let c = 0; c < l; c++) z[base + c]! += v * row[c]!;
    }
  }
}
