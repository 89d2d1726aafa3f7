#!/usr/bin/env python3
"""A straightforward numpy LinTS, for comparison with `adaprivate bench` (docs/performance.md).

Per round: A^{-1} by np.linalg.inv, theta_hat = A^{-1} b, theta~ from rng.multivariate_normal
(theta_hat, v^2 A^{-1}) (an SVD inside), scores X theta~, then A += x x^T and b += r x. This is
how LinTS is usually written in numpy (O(d^3) per round). Same stream design as the bench: unit-norm
Gaussian features, K = 5, Bernoulli(sigmoid(x^T theta*)) rewards with ||theta*|| = 2, pre-generated
(1024 rounds, cycled) outside the timed loop. Timing as in `adaprivate bench`: the sum over blocks
of rounds of each block's fastest repetition. Run it on one thread for a like-for-like comparison:
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 python3 bench/lints_numpy.py

Usage: python3 bench/lints_numpy.py [--dims 20,50,100] [--repeat 3] [--block 256] [--json]
On a CPU throttled in bursts, a block must fit between two stalls in one repetition: at d = 50 and
100 (several ms per round) use --block 1 or 2.
"""
import argparse
import json
import time

import numpy as np

# Default rounds per timed block: each block is timed by its fastest repetition, as `adaprivate
# bench` does (1,024 there; fewer here because numpy rounds are slower).
BLOCK = 256


def run(d: int, k: int, horizon: int, seed: int, repeat: int, block: int = BLOCK) -> dict:
    if block < 1:
        raise SystemExit(f"lints_numpy: --block must be a positive integer. Got {block}.")
    rng = np.random.default_rng(seed)
    theta = rng.standard_normal(d)
    theta *= 2 / np.linalg.norm(theta)
    n = min(1024, horizon)
    feats = rng.standard_normal((n, k, d))
    feats /= np.linalg.norm(feats, axis=2, keepdims=True)
    rewards = (rng.random((n, k)) < 1 / (1 + np.exp(-feats @ theta))).astype(float)
    best = float("inf")
    checksum = 0
    blocks = (horizon + block - 1) // block
    block_best = [float("inf")] * blocks
    for _ in range(repeat):
        a_mat = np.eye(d)
        b = np.zeros(d)
        prng = np.random.default_rng(seed + 1)
        total = 0
        t0 = time.perf_counter()
        tb = t0
        for t in range(horizon):
            r = t % n
            x_all = feats[r]
            a_inv = np.linalg.inv(a_mat)
            theta_hat = a_inv @ b
            sample = prng.multivariate_normal(theta_hat, a_inv)
            arm = int(np.argmax(x_all @ sample))
            x = x_all[arm]
            a_mat += np.outer(x, x)
            b += rewards[r, arm] * x
            total += arm
            if (t + 1) % block == 0 or t + 1 == horizon:
                now = time.perf_counter()
                blk = t // block
                block_best[blk] = min(block_best[blk], now - tb)
                tb = now
        secs = time.perf_counter() - t0
        best = min(best, secs)
        checksum = total
    return {
        "implementation": "numpy LinTS (inv + multivariate_normal per round)",
        "roundsPerSecond": round(horizon / sum(block_best)),
        "bestRunSeconds": best,
        "dim": d,
        "arms": k,
        "horizon": horizon,
        "repeat": repeat,
        "blockRounds": block,
        "seconds": sum(block_best),
        "checksum": checksum,
        "numpy": np.__version__,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dims", default="20,50,100")
    p.add_argument("--arms", type=int, default=5)
    p.add_argument("--horizon", type=int, default=5000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--block", type=int, default=BLOCK, help="rounds per timed block")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    out = [run(int(d), a.arms, a.horizon, a.seed, a.repeat, a.block) for d in a.dims.split(",")]
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        for r in out:
            print(f"numpy LinTS d={r['dim']}: {r['roundsPerSecond']:,} rounds/s (T={r['horizon']}, fastest of {r['repeat']} per {r['blockRounds']}-round block)")


if __name__ == "__main__":
    main()
