/**
 * The settings every real-data study run shares (SPEC section 6): the replay protocol on the
 * prepared features, K = 5 candidates per logged step, delta 1e-5 and 20 checkpoints.
 * `runRealDataReproduction` and scripts/rerender-realdata-curves.mjs build their cells from it, so a
 * re-run gives the same cells (and numbers) as the study.
 *
 * @example
 * const main = { ...realDataBaseConfig('features.bin', 200_000, [1, 2, 3, 4, 5], true), name: 'm', policies, epsilons: [1] };
 */
export function realDataBaseConfig(
  featuresFile: string,
  horizon: number,
  seeds: readonly number[],
  warmStart: boolean,
) {
  return {
    env: { kind: 'ratings' as const, options: { featuresFile, armsPerRound: 5, horizon, warmStart } },
    protocol: 'replay' as const,
    delta: 1e-5,
    seeds: [...seeds],
    horizon,
    checkpoints: 20,
  };
}
