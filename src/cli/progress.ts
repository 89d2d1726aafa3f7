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
  if (stream.isTTY !== true) {
    // stages may run at the same time (a reproduction's power runs beside its studies): each keeps
    // its own start time and next line
    const parts = Math.max(1, Math.floor(options.linesPerStage ?? 4));
    const stages = new Map<string, { started: number; nextPart: number; ended: boolean }>();
    const line = (name: string, started: number, done: number, total: number) => {
      const pct = Number.isFinite(total) && total > 0 ? ` (${Math.floor((100 * done) / total)}%` : ' (';
      const s = ((Date.now() - started) / 1000).toFixed(1);
      stream.write(`${name}: ${fmt(done)}/${fmt(total)}${unit}${pct}${pct === ' (' ? '' : ', '}${s} s)\n`);
    };
    return {
      update(name, done, total) {
        const known = Number.isFinite(total) && total > 0;
        let st = stages.get(name);
        if (st === undefined) {
          st = { started: Date.now(), nextPart: 1, ended: known && done >= total };
          stages.set(name, st);
          while (known && done >= (st.nextPart * total) / parts) st.nextPart++;
          line(name, st.started, done, total);
          return;
        }
        if (st.ended || !known) return;
        if (done >= total) {
          st.ended = true;
          line(name, st.started, done, total);
        } else if (done >= (st.nextPart * total) / parts) {
          while (done >= (st.nextPart * total) / parts) st.nextPart++;
          line(name, st.started, done, total);
        }
      },
      stop: () => undefined,
    };
  }
  // one bar per stage, shown once the stage has run a second (stages may run at the same time)
  let multi: cliProgress.MultiBar | undefined;
  const bars = new Map<string, { started: number; bar: cliProgress.SingleBar | undefined }>();
  return {
    update(name, done, total) {
      const now = Date.now();
      let st = bars.get(name);
      if (st === undefined) {
        st = { started: now, bar: undefined };
        bars.set(name, st);
      }
      if (st.bar === undefined && now - st.started > 1000 && Number.isFinite(total) && total > 0) {
        multi ??= new cliProgress.MultiBar(
          { format: `{stage} [{bar}] {percentage}% | {value}/{total}${unit} | ETA {eta_formatted}`, stream },
          cliProgress.Presets.shades_classic,
        );
        st.bar = multi.create(total, done, { stage: name });
      }
      st.bar?.update(done);
    },
    stop() {
      multi?.stop();
      multi = undefined;
      bars.clear();
    },
  };
}
