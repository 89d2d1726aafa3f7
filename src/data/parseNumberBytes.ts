/**
 * Parses the decimal number written in bytes [start, end) of `buf` (ASCII), e.g. `-7.82`, `4`,
 * `3.5`, `1e3`. Returns NaN for anything else (empty, letters, a lone sign). Allocation-free for
 * plain decimals (digits / 10^k is correctly rounded, so the result equals `Number(text)`); other
 * spellings with an exponent fall back to `Number`.
 *
 * Cost: O(end - start). Never throws.
 * @example
 * parseNumberBytes(Buffer.from('-7.82'), 0, 5); // returns -7.82
 */
export function parseNumberBytes(buf: Uint8Array, start: number, end: number): number {
  // trim spaces
  while (start < end && buf[start] === 32) start++;
  while (end > start && buf[end - 1] === 32) end--;
  if (start >= end) return Number.NaN;
  let i = start;
  let negative = false;
  const c0 = buf[i]!;
  if (c0 === 45 || c0 === 43) {
    negative = c0 === 45;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let fracDigits = 0;
  let seenDot = false;
  for (; i < end; i++) {
    const c = buf[i]!;
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (seenDot) fracDigits++;
    } else if (c === 46 && !seenDot) {
      seenDot = true;
    } else {
      break;
    }
  }
  if (i < end || digits === 0 || digits > 15 || fracDigits > 22) {
    // exponent, too many digits or junk: let Number decide (rejects junk with NaN)
    if (digits === 0 && i >= end) return Number.NaN;
    const text = Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('latin1');
    const v = Number(text);
    return Number.isFinite(v) ? v : Number.NaN;
  }
  const v = fracDigits === 0 ? mantissa : mantissa / 10 ** fracDigits;
  return negative ? -v : v;
}
