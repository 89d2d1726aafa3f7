/**
 * Group commit of a store's small writes (PostgresStore: pending rewards, decisions): a write of a
 * key (a model) goes out at once when no statement of that key is in flight, and otherwise waits for
 * it and then goes out with every write of the key that arrived meanwhile, in one statement (one
 * round trip, one commit). No timer: a lone write is not delayed, except with `lingerTurns` n > 0,
 * where it waits for the end of the n-th event-loop turn from the one it arrived in (`setImmediate`
 * n times), so that the writes of the requests the next reads of the sockets bring share its
 * statement. Each caller is answered only
 * after the statement carrying its write committed (an error answers all of them with it: none was
 * acknowledged). One id (an event id) goes out at most once per statement: a repeat waits for the
 * next one, so the statement never meets its own row twice.
 */

/** A write waiting for its statement, and the caller waiting for its answer. */
interface Queued<I, O> {
  readonly input: I;
  readonly resolve: (out: O) => void;
  readonly reject: (err: unknown) => void;
}

export class GroupCommit<I, O> {
  private readonly queues = new Map<string, { busy: boolean; queue: Queued<I, O>[] }>();

  /**
   * @param max most writes one statement carries
   * @param idOf the id a statement carries at most once
   * @param send writes `inputs` of `key` in one statement; answers them in order
   * @param sent called after each statement that committed, with the writes it carried
   * @param lingerTurns event-loop turns a write that would go out at once waits (0: none)
   */
  constructor(
    private readonly max: number,
    private readonly idOf: (input: I) => string,
    private readonly send: (key: string, inputs: readonly I[]) => Promise<readonly O[]>,
    private readonly sent: (writes: number) => void = () => {},
    private readonly lingerTurns = 0,
  ) {}

  /**
   * Queues `input` for key `key`; resolves with its answer once its statement committed.
   *
   * @example
   * const rewards = new GroupCommit(256, (r) => r.eventId, (model, rs) => insertAll(model, rs));
   * await rewards.add('m', reward); // answered after the statement carrying it committed
   */
  add(key: string, input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      let q = this.queues.get(key);
      if (q === undefined) {
        q = { busy: false, queue: [] };
        this.queues.set(key, q);
      }
      q.queue.push({ input, resolve, reject });
      if (q.busy) return;
      if (this.lingerTurns <= 0) return this.flush(key, q);
      q.busy = true;
      let turns = this.lingerTurns;
      const wait = (): void => {
        if (--turns > 0) setImmediate(wait);
        else this.flush(key, q!);
      };
      setImmediate(wait);
    });
  }

  /** Sends the queued writes of `key` (one statement), then whatever queued meanwhile. */
  private flush(key: string, q: { busy: boolean; queue: Queued<I, O>[] }): void {
    const batch: Queued<I, O>[] = [];
    const rest: Queued<I, O>[] = [];
    const ids = new Set<string>();
    for (const w of q.queue) {
      const id = this.idOf(w.input);
      if (batch.length < this.max && !ids.has(id)) {
        ids.add(id);
        batch.push(w);
      } else rest.push(w);
    }
    q.queue = rest;
    if (batch.length === 0) {
      q.busy = false;
      this.queues.delete(key);
      return;
    }
    q.busy = true;
    let sending: Promise<readonly O[]>;
    try {
      sending = this.send(
        key,
        batch.map((w) => w.input),
      );
    } catch (err) {
      sending = Promise.reject(err);
    }
    sending.then(
      (outs) => {
        this.sent(batch.length);
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve(outs[i]!);
        this.flush(key, q);
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
        this.flush(key, q);
      },
    );
  }
}
