import cliProgress from 'cli-progress';

/** A progress reporter for long work made of named stages (steps, studies). */
export interface StageProgress {
  /** `done` of `total` units of `stage` are finished; a new name starts a new stage. */
  readonly update: (stage: string, done: number, total: number) => void;
  /** Ends the display (idempotent); call it before printing results and on the error path. */
  readonly stop: () => void;
}

/** Options of {@link stageProgress}. */
export interface StageProgressOptions {
  /** Unit shown after the counts in lines and bars (e.g. 'cells'); none by default. */
  readonly unit?: string;
  /** Where to write (default process.stderr). */
  readonly stream?: NodeJS.WriteStream;
  /** Line mode prints a line each time a stage passes another `1 / linesPerStage` of its total (default 4). */
  readonly linesPerStage?: number;
}

/**
 * Progress on stderr for long work: a cli-progress bar on an interactive terminal (shown once a
 * stage has run for more than a second), and plain lines when stderr is a pipe or a file, so that
 * logs of unattended runs show where a run is: one line when a stage starts, one per quarter of its
 * total and one when it ends, each with the elapsed seconds of the stage.
 */
export function stageProgress(options: StageProgressOptions = {}): StageProgress {
  const stream = options.stream ?? process.stderr;
  const unit = options.unit === undefined ? '' : ` ${options.unit}`;
  const fmt = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '?');
  let stage = '';
  let started = 0;
  if (stream.isTTY !== true) {
    const parts = Math.max(1, Math.floor(options.linesPerStage ?? 4));
    let nextPart = 0;
    let ended = false;
    const line = (done: number, total: number) => {
      const pct = Number.isFinite(total) && total > 0 ? ` (${Math.floor((100 * done) / total)}%` : ' (';
      const s = ((Date.now() - started) / 1000).toFixed(1);
      stream.write(`${stage}: ${fmt(done)}/${fmt(total)}${unit}${pct}${pct === ' (' ? '' : ', '}${s} s)\n`);
    };
    return {
      update(name, done, total) {
        const known = Number.isFinite(total) && total > 0;
        if (name !== stage) {
          stage = name;
          started = Date.now();
          ended = known && done >= total;
          nextPart = 1;
          while (known && done >= (nextPart * total) / parts) nextPart++;
          line(done, total);
          return;
        }
        if (ended || !known) return;
        if (done >= total) {
          ended = true;
          line(done, total);
        } else if (done >= (nextPart * total) / parts) {
          while (done >= (nextPart * total) / parts) nextPart++;
          line(done, total);
        }
      },
      stop: () => undefined,
    };
  }
  let bar: cliProgress.SingleBar | undefined;
  return {
    update(name, done, total) {
      const now = Date.now();
      if (name !== stage) {
        bar?.stop();
        bar = undefined;
        stage = name;
        started = now;
      }
      if (bar === undefined && now - started > 1000 && Number.isFinite(total) && total > 0) {
        bar = new cliProgress.SingleBar(
          { format: `${name} [{bar}] {percentage}% | {value}/{total}${unit} | ETA {eta_formatted}`, stream },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done);
      }
      bar?.update(done);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
