/** An invalid experiment configuration; the message names the field, the value and the rule. */
export class ExperimentConfigError extends Error {
  override readonly name = 'ExperimentConfigError';
}
