/*
 * Native C reference of one AdaPrivate-TS round (research mode: seeded exploration and noise), for
 * bench/nativeRound.bench.ts. Not part of the library: it exists to measure how far the TypeScript
 * hot loop is from compiled code on the same stream.
 *
 * It does what BatchedRidgePolicy + BasePolicy do per round, with the same arithmetic in the same
 * order (so that, with the same generator states, it makes the same decisions):
 *   select: copy + clip the K candidates (scale by 1 / sqrt(||x||^2) when ||x||^2 > 1),
 *           theta = A^{-1} b (forward + transposed back substitution on the Cholesky factor L),
 *           z ~ N(0, I_d) (xoshiro256** + Marsaglia's polar method, spare cached),
 *           tilde = theta + v L^{-T} z, arm = first argmax of x_a^T tilde;
 *   update: the batch sum s += r x (at the B-th round: b += s + r x + sigma N(0, I_d) from the noise
 *           stream, s = 0), then the rank-one update of L (L L^T + x x^T).
 * The validation, ledger and bookkeeping of the library are not reproduced (they are O(1) or O(d)).
 *
 * Input (binary, little endian, written by the bench): int32 d, k, n (stream rounds), horizon,
 * batch, block; float64 lambda, v, sigma; uint64 policy words[4], noise words[4]; then n*k*d
 * float64 features and n*k float64 rewards.
 * Usage: adaprivateTsRound STREAM_FILE REPEAT
 * Output (one JSON line): the sum over blocks of each block's fastest wall time over REPEAT runs
 * (and each block's), the CPU seconds of the whole process, and a 64-bit FNV-1a hash of the
 * decisions of the last run (h = (h ^ arm) * prime, from the offset basis).
 *
 * Build: gcc -O2 -ffp-contract=off -o adaprivateTsRound adaprivateTsRound.c -lm
 * (-ffp-contract=off: no fused multiply-add, as in JavaScript, so the results can be compared.)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  uint64_t s[4];
  double spare;
  int has_spare;
} rng_t;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next64(rng_t *r) {
  uint64_t *s = r->s;
  const uint64_t result = rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

static inline double uniform(rng_t *r) { return (double)(next64(r) >> 11) * (1.0 / 9007199254740992.0); }

static double normal1(rng_t *r) {
  if (r->has_spare) {
    r->has_spare = 0;
    return r->spare;
  }
  double u, v, q;
  do {
    u = 2 * uniform(r) - 1;
    v = 2 * uniform(r) - 1;
    q = u * u + v * v;
  } while (q >= 1 || q == 0);
  double f = sqrt((-2 * log(q)) / q);
  r->spare = v * f;
  r->has_spare = 1;
  return u * f;
}

/* exactly the values of n successive normal1 calls (as Xoshiro256.fillNormal) */
static void fill_normal(rng_t *r, double *out, int n) {
  int i = 0;
  if (i < n && r->has_spare) {
    r->has_spare = 0;
    out[i++] = r->spare;
  }
  while (i + 1 < n) {
    double u, v, q;
    do {
      u = 2 * uniform(r) - 1;
      v = 2 * uniform(r) - 1;
      q = u * u + v * v;
    } while (q >= 1 || q == 0);
    double f = sqrt((-2 * log(q)) / q);
    out[i] = u * f;
    out[i + 1] = v * f;
    i += 2;
  }
  if (i < n) out[i] = normal1(r);
}

static void chol_update(double *l, int n, const double *x, double *w) {
  for (int i = 0; i < n; i++) w[i] = x[i];
  for (int k = 0; k < n; k++) {
    const int kk = k * n + k;
    const double lkk = l[kk], wk = w[k];
    const double r = sqrt(lkk * lkk + wk * wk);
    const double c = r / lkk, s = wk / lkk;
    l[kk] = r;
    const double ic = 1 / c, sc = s / c;
    for (int i = k + 1; i < n; i++) {
      const int p = i * n + k;
      const double lik = l[p], wi = w[i];
      l[p] = ic * lik + sc * wi;
      w[i] = ic * wi - sc * lik;
    }
  }
}

static void forward_solve(const double *l, int n, const double *b, double *out) {
  for (int i = 0; i < n; i++) {
    const double *ri = l + (size_t)i * n;
    double s = b[i];
    for (int k = 0; k < i; k++) s -= ri[k] * out[k];
    out[i] = s / ri[i];
  }
}

static void back_solve_t(const double *l, int n, const double *y, double *out) {
  if (out != y)
    for (int i = 0; i < n; i++) out[i] = y[i];
  for (int i = n - 1; i >= 0; i--) {
    const double *ri = l + (size_t)i * n;
    const double zi = out[i] / ri[i];
    out[i] = zi;
    for (int k = 0; k < i; k++) out[k] -= ri[k] * zi;
  }
}

static double now_s(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: adaprivateTsRound STREAM_FILE REPEAT\n");
    return 2;
  }
  FILE *fp = fopen(argv[1], "rb");
  if (!fp) {
    perror(argv[1]);
    return 2;
  }
  int32_t hdr[6];
  double par[3];
  uint64_t words[8];
  if (fread(hdr, 4, 6, fp) != 6 || fread(par, 8, 3, fp) != 3 || fread(words, 8, 8, fp) != 8) {
    fprintf(stderr, "bad header\n");
    return 2;
  }
  const int d = hdr[0], k = hdr[1], n = hdr[2], horizon = hdr[3], batch = hdr[4], block = hdr[5];
  const double lambda = par[0], v = par[1], sigma = par[2];
  const int repeat = atoi(argv[2]);
  double *features = malloc(sizeof(double) * (size_t)n * k * d);
  double *rewards = malloc(sizeof(double) * (size_t)n * k);
  if (fread(features, 8, (size_t)n * k * d, fp) != (size_t)n * k * d || fread(rewards, 8, (size_t)n * k, fp) != (size_t)n * k) {
    fprintf(stderr, "short stream\n");
    return 2;
  }
  fclose(fp);
  double *l = malloc(sizeof(double) * d * d), *b = calloc(d, 8), *s = calloc(d, 8);
  double *theta = calloc(d, 8), *z = calloc(d, 8), *pert = calloc(d, 8), *tilde = calloc(d, 8);
  double *work = calloc(d, 8), *x = calloc(d, 8), *sum = calloc(d, 8), *noise = calloc(d, 8);
  double *feats = calloc((size_t)k * d, 8);
  const int blocks = (horizon + block - 1) / block;
  double *best = malloc(sizeof(double) * blocks);
  for (int i = 0; i < blocks; i++) best[i] = INFINITY;
  uint64_t hash = 0;
  long checksum = 0;
  const double cpu0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
  for (int rep = 0; rep < repeat; rep++) {
    rng_t prng = {{words[0], words[1], words[2], words[3]}, 0, 0};
    rng_t nrng = {{words[4], words[5], words[6], words[7]}, 0, 0};
    memset(l, 0, sizeof(double) * d * d);
    for (int i = 0; i < d; i++) l[i * d + i] = sqrt(lambda);
    memset(b, 0, 8 * d);
    memset(s, 0, 8 * d);
    int in_batch = 0;
    hash = 14695981039346656037ull;
    checksum = 0;
    double tb = now_s(CLOCK_MONOTONIC);
    for (int t = 0, r = 0; t < horizon; t++) {
      /* select */
      const double *fr = features + (size_t)r * k * d;
      for (int a = 0; a < k; a++) {
        double n2 = 0;
        for (int i = 0; i < d; i++) {
          const double vv = fr[a * d + i];
          feats[a * d + i] = vv;
          n2 += vv * vv;
        }
        if (n2 > 1) {
          const double sc = 1 / sqrt(n2);
          for (int i = 0; i < d; i++) feats[a * d + i] *= sc;
        }
      }
      forward_solve(l, d, b, theta);
      back_solve_t(l, d, theta, theta);
      fill_normal(&prng, z, d);
      back_solve_t(l, d, z, pert);
      for (int i = 0; i < d; i++) tilde[i] = theta[i] + v * pert[i];
      int arm = 0;
      double bs = -INFINITY;
      for (int a = 0; a < k; a++) {
        double m = 0;
        for (int i = 0; i < d; i++) m += feats[a * d + i] * tilde[i];
        if (m > bs) {
          bs = m;
          arm = a;
        }
      }
      /* update */
      memcpy(x, feats + arm * d, 8 * d);
      const double rw = rewards[(size_t)r * k + arm];
      if (in_batch + 1 >= batch) {
        for (int i = 0; i < d; i++) sum[i] = s[i] + rw * x[i];
        fill_normal(&nrng, noise, d);
        for (int i = 0; i < d; i++) noise[i] = sum[i] + sigma * noise[i];
        for (int i = 0; i < d; i++) {
          b[i] = b[i] + noise[i] * 1.0;
          s[i] = 0;
        }
        in_batch = 0;
        chol_update(l, d, x, work);
      } else {
        chol_update(l, d, x, work);
        for (int i = 0; i < d; i++) s[i] = s[i] + rw * x[i];
        in_batch++;
      }
      hash = (hash ^ (uint64_t)arm) * 1099511628211ull;
      checksum += arm;
      r = r + 1 == n ? 0 : r + 1;
      if ((t + 1) % block == 0 || t + 1 == horizon) {
        const double now = now_s(CLOCK_MONOTONIC);
        const int bi = t / block;
        if (now - tb < best[bi]) best[bi] = now - tb;
        tb = now;
      }
    }
  }
  const double cpu = now_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
  double secs = 0;
  for (int i = 0; i < blocks; i++) secs += best[i];
  printf("{\"roundsPerSecond\":%.0f,\"seconds\":%.9f,\"cpuSeconds\":%.6f,\"checksum\":%ld,\"hash\":\"%016llx\",\"blockSeconds\":[",
         horizon / secs, secs, cpu, checksum, (unsigned long long)hash);
  for (int i = 0; i < blocks; i++) printf("%s%.9f", i ? "," : "", best[i]);
  printf("]}\n");
  return 0;
}
