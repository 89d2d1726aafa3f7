/**
 * Collects validated decisions, one at a time, into the columnar {@link DecisionLog} (typed arrays
 * that grow by doubling), so a streamed file never exists as an array of objects.
 */
import { GrowableTypedArray } from '../data/GrowableTypedArray.js';
import type { DecisionLog } from './DecisionLog.js';
import { type DecisionRecord, PROPENSITY_KINDS } from './DecisionRecord.js';

export class DecisionLogBuilder {
  private dimension: number | null = null;
  private readonly offsets = new GrowableTypedArray(Int32Array);
  private readonly features = new GrowableTypedArray(Float64Array);
  private readonly chosen = new GrowableTypedArray(Int32Array);
  private readonly propensity = new GrowableTypedArray(Float64Array);
  private readonly inversePropensity = new GrowableTypedArray(Float64Array);
  private readonly propensityKind = new GrowableTypedArray(Int32Array);
  private readonly slot = new GrowableTypedArray(Int32Array);
  private anySlot = false;
  private readonly units: (string | null)[] = [];
  private anyUnit = false;
  private readonly floor = new GrowableTypedArray(Float64Array);
  private anyFloor = false;
  private readonly probabilities = new GrowableTypedArray(Float64Array);
  private readonly reward = new GrowableTypedArray(Float64Array);
  private readonly lines = new GrowableTypedArray(Int32Array);
  private readonly eventIds: string[] = [];
  private arms = 0;
  private anyProbabilities = false;

  constructor() {
    this.offsets.push(0);
  }

  /** The feature dimension fixed by the first decision (null before it). */
  get dim(): number | null {
    return this.dimension;
  }

  /** Number of decisions added. */
  get rounds(): number {
    return this.chosen.length;
  }

  /** Appends a decision already checked by `validateDecisionRecord`. */
  add(record: DecisionRecord, line: number): void {
    const k = record.arms.length;
    if (this.dimension === null) this.dimension = record.arms[0]!.features.length;
    for (const arm of record.arms) for (const x of arm.features) this.features.push(x);
    this.arms += k;
    this.offsets.push(this.arms);
    this.chosen.push(record.chosen);
    this.propensity.push(typeof record.propensity === 'number' ? record.propensity : Number.NaN);
    this.inversePropensity.push(
      typeof record.inversePropensity === 'number' ? record.inversePropensity : Number.NaN,
    );
    this.propensityKind.push(
      record.propensityKind === undefined ? 0 : PROPENSITY_KINDS.indexOf(record.propensityKind) + 1,
    );
    if (typeof record.slot === 'number') this.anySlot = true;
    this.slot.push(typeof record.slot === 'number' ? record.slot : -1);
    if (typeof record.unit === 'string') this.anyUnit = true;
    this.units.push(typeof record.unit === 'string' ? record.unit : null);
    if (typeof record.explorationFloor === 'number') this.anyFloor = true;
    this.floor.push(typeof record.explorationFloor === 'number' ? record.explorationFloor : Number.NaN);
    const probs = record.probabilities;
    if (probs !== undefined && probs !== null) this.anyProbabilities = true;
    for (let a = 0; a < k; a++) this.probabilities.push(probs?.[a] ?? Number.NaN);
    this.reward.push(typeof record.reward === 'number' ? record.reward : Number.NaN);
    this.lines.push(line);
    this.eventIds.push(record.eventId);
  }

  /** The log collected so far. */
  build(source: string): DecisionLog {
    return Object.freeze({
      source,
      dim: this.dimension ?? 0,
      rounds: this.chosen.length,
      armOffsets: this.offsets.toArray(),
      features: this.features.toArray(),
      chosen: this.chosen.toArray(),
      propensity: this.propensity.toArray(),
      inversePropensity: this.inversePropensity.toArray(),
      propensityKind: this.propensityKind.toArray(),
      slot: this.anySlot ? this.slot.toArray() : null,
      units: this.anyUnit ? this.units.slice() : null,
      explorationFloor: this.anyFloor ? this.floor.toArray() : null,
      loggingProbabilities: this.anyProbabilities ? this.probabilities.toArray() : null,
      reward: this.reward.toArray(),
      eventIds: this.eventIds.slice(),
      lines: this.lines.toArray(),
    });
  }
}
