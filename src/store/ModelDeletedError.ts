/**
 * A write refused because its model is no longer served: it was deleted (a tombstone or purged) while
 * the write was on its way, or a model of that name was deleted and not purged, so it cannot be
 * created again. Nothing was written. The service answers it with 410 model_deleted (409 on create).
 */
export class ModelDeletedError extends Error {
  override readonly name = 'ModelDeletedError';
  /** The model's name. */
  readonly model: string;

  constructor(model: string, message: string) {
    super(message);
    this.model = model;
  }

  /** A create refused: the name belongs to a tombstone. */
  static tombstoned(name: string): ModelDeletedError {
    return new ModelDeletedError(
      name,
      `model '${name}' was deleted and its ledger is kept as a tombstone: a model of that name cannot be created again (its spent budget would restart from zero). Use another name, or purge the tombstone first (DELETE /v1/models/${name}?purge=true&confirm=${name}), which discards the ledger record.`,
    );
  }

  /** A write refused: the model does not exist (any more). */
  static gone(name: string): ModelDeletedError {
    return new ModelDeletedError(name, `model '${name}' was deleted; nothing was stored.`);
  }
}
