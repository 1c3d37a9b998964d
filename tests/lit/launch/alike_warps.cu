// The warps of a 1-D block walked as one (Analysis.cpp walkWarps(),
// interp/AlikeWarps.cpp): threadIdx.x = 32 * w + lane with w a symbol over
// the block's warps. The walk stands for them only when it is, at the first
// and the last warp, event for event the walk of that warp, and asked for
// no cut between blocks; a comparison that differs between warps splits
// the warps there. Whatever the kernel does, the records are those of
// walking every warp (--alike-warps=off): compared byte for byte below,
// and the number of walks shows where one walk stood for several warps.
// RUN: %lint --witness=off --format=json %s > %t.on.json
// RUN: %lint --witness=off --alike-warps=off --format=json %s > %t.off.json
// RUN: diff %t.on.json %t.off.json
// RUN: %lint --witness=off %s > %t.on.txt
// RUN: %lint --witness=off --alike-warps=off %s > %t.off.txt
// RUN: diff %t.on.txt %t.off.txt
// RUN: %lint --witness=off -j1 --time-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WALKS
// RUN: %lint --witness=off -j1 --alike-warps=off --time-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: %lint --witness=off --exit-zero %s | FileCheck %s
// RUN: not %lint --witness=off --alike-warps=maybe %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: --alike-warps needs on or off
// UNSUPPORTED: tidy
#define N 8192
#define C 768

// One thread per row: every warp walks the same loops, its lanes 32 rows
// further on (a multiple of 128 bytes). First, last, and one for all.
// WALKS-DAG: 8 warps in 3 walks: rows
// ALL-DAG: 8 warps in 8 walks: rows
// CHECK: alike_warps.cu:[[@LINE+7]]:12: warning: global load from 'in' uses 32 sectors per request (ideal 4)
__global__ void rows(float *out, const float *in) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N) {
    const float *x = in + idx * C;
    float m = 0.0f;
    for (int i = 0; i < C; i++)
      m += x[i];
    out[idx] = m / C;
  }
}

// Bytes: a warp's lanes are 32 bytes after the last warp's, not a multiple
// of 128; the one walk stands for the warps all the same (each warp's
// requests are costed at its own address).
// WALKS-DAG: 8 warps in 3 walks: bytes
__global__ void bytes(unsigned char *out, const unsigned char *in) {
  __shared__ unsigned char tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

// The first two warps do something else: the walk asks for a cut at warp 2
// and each side is walked on its own (warp 1 alone: too few to walk as one).
// WALKS-DAG: 8 warps in 7 walks: roles
// CHECK: alike_warps.cu:[[@LINE+5]]:5: warning: global store to 'out' uses 32 sectors per request (ideal 4)
__global__ void roles(float *out, const float *in) {
  int t = threadIdx.x;
  int row = blockIdx.x * blockDim.x + t;
  if (t < 64)
    out[row * 64] = in[row];
  else
    out[row] = in[row * 2];
}

// A tree reduction: its comparisons cut the warps at every power of two
// and lanes leave warp by warp; the walk of all warps is not used (the
// first, the last, the one walk given up, and the six between).
// WALKS-DAG: 8 warps in 9 walks: reduce
__global__ void reduce(float *out, const float *in) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// Warp and lane numbers: `t / 64` of 32 * w + lane is a symbol derived
// from w, which the check against the first and the last warps refuses
// (their walks read a number there): every warp on its own.
// WALKS-DAG: 8 warps in 9 walks: lanes
__global__ void lanes(float *out, const float *in) {
  __shared__ float s[4][64];
  int t = threadIdx.x;
  int warp = t / 32, lane = t % 32, half = t / 64;
  s[half][t % 64] = in[blockIdx.x * 256 + t];
  __syncthreads();
  out[(blockIdx.x * 8 + warp) * 32 + lane] = s[lane % 4][warp * 8];
}

// A bound the lanes are compared with that is not known: the guard's
// heuristic (interior warps) reads the lanes' own numbers, which differ
// between warps here (`t >= 40` is decided false in warp 0 and true in the
// others): the walk of all warps asks for a cut at warp 1, and warps 1 to 7
// are walked as one (warps 0 and 7 alone, then 1 and 6, then 1 to 6).
// WALKS-DAG: 8 warps in 6 walks: guarded
__global__ void guarded(float *out, const float *in, int n) {
  int t = threadIdx.x + n;
  if (t >= 40)
    out[blockIdx.x * 256 + threadIdx.x] = in[t];
}

// A block 32 threads wide: its warps are its rows (threadIdx.y = w). A
// column of the tile read down a warp's lanes conflicts 32 ways in every
// warp alike.
// WALKS-DAG: 8 warps in 3 walks: columns
// CHECK: alike_warps.cu:[[@LINE+6]]:40: warning: shared load from 't' has a 32-way bank conflict
__global__ void columns(float *out, const float *in) {
  __shared__ float t[32][32];
  int x = threadIdx.x, y = threadIdx.y;
  t[y][x] = in[(blockIdx.x * 8 + y) * 32 + x];
  __syncthreads();
  out[(blockIdx.x * 8 + y) * 32 + x] = t[x][y];
}

void launch(float *f, float *g, unsigned char *b, unsigned char *c, int n) {
  rows<<<N / 256, 256>>>(f, g);
  bytes<<<N / 256, 256>>>(b, c);
  roles<<<N / 256, 256>>>(f, g);
  reduce<<<N / 256, 256>>>(f, g);
  lanes<<<N / 256, 256>>>(f, g);
  guarded<<<N / 256, 256>>>(f, g, n);
  columns<<<N / 256, dim3(32, 8)>>>(f, g);
}
