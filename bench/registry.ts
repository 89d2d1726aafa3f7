/**
 * Benchmark registry types. A suite builds its cases (inputs allocated and filled OUTSIDE the timed
 * function), the harness (bench/main.ts) times each case's `fn` with tinybench and then calls `check`
 * so that a broken or optimised-away kernel fails the run instead of reporting a fast time.
 *
 * To add a suite: write `bench/<name>Suite.ts` exporting a `BenchSuite`, and add it to the list in
 * bench/suites.ts.
 */
export interface BenchCase {
  /** Unique within its suite, e.g. `cholUpdate+2solves d=50 ours`. */
  readonly name: string;
  /** Operations performed by one call of `fn`; the harness reports time per operation. */
  readonly opsPerCall: number;
  /** The timed function. Must not allocate its inputs; should run for >= ~5 microseconds. */
  readonly fn: () => void;
  /** Called once after timing; throws if the results are wrong (e.g. a checksum is not finite). */
  readonly check?: () => void;
  /** Optional group key: cases with the same group are compared with each other in the report. */
  readonly group?: string;
}

/** A named family of benchmark cases. */
export interface BenchSuite {
  /** Short name used by `--filter`, e.g. `rng`, `linalg`. */
  readonly name: string;
  readonly description: string;
  /** Builds the cases (allocation and input set-up happen here, not in `fn`). */
  readonly cases: () => readonly BenchCase[];
}
