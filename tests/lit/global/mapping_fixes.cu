// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// RUN: %lint --format=sarif %s | FileCheck %s --check-prefix=SARIF
// The thread-mapping fixes (cost/ThreadSwap.h, rules/docs/fix-thread-swap.md,
// rules/docs/fix-staged-transpose.md): proven by walking the launch again
// with warps formed threadIdx.y first, each with the numbers after for this
// access and every other access of the kernel it changes.

#define N 1024

// Offered: the naive product. B's lanes read one element before and a row
// after: at its ideal both ways, so no access wastes more.
__global__ void naive_matmul(const float *A, const float *B, float *C) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int k = 0; k < N; ++k)
    s += A[x * N + k] * B[k * N + y];
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:10: warning: global load from 'A' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart
  // CHECK: note: exchange the roles of x and y: in `naive_matmul` (and the functions it calls) swap .x and .y of threadIdx, blockIdx, blockDim and gridDim, and at the launch at mapping_fixes.cu:{{[0-9]+}} the block (32, 32, 1) stays as it is and the grid (32, 32, 1) stays as it is. The same threads then compute the same elements, the former threadIdx.y fastest in each warp, and this access takes 1 sector per request instead of 32 (32x fewer); the kernel's other accesses: the load of 'B' at line [[#@LINE-2]]: 1 -> 4 sectors per request (ideal 1 -> 4); the store to 'C' at line [[#@LINE+4]]: 32 -> 4 sectors per request. Shown by walking the launch again with x and y exchanged; the kernel has no shuffle, vote or warp-synchronous code whose result would change{{$}}
  // JSON: "array": "A",
  // JSON: "thread_swap": {
  // JSON: "sectors_per_request_after": 1
  C[x * N + y] = s;
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:3: warning: global store to 'C' uses 32 sectors per request (ideal 4)
  // CHECK: note: exchange the roles of x and y: {{.*}} this access takes 4 sectors per request instead of 32 (8x fewer); the kernel's other accesses: the load of 'A' at line [[#@LINE-8]]: 32 -> 1 sector per request (ideal 4 -> 1); the load of 'B' {{.*}}
}

// Offered with a new launch shape: a tall block (8, 64) becomes (64, 8).
// A read-modify-write: its load and store are one finding and one note.
__global__ void scale_cols(float *a) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  a[x * N + y] *= 2.0f;
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:3: warning: global load and store of 'a' each use 8 sectors per request (ideal 4)
  // CHECK: note: exchange the roles of x and y: in `scale_cols` {{.*}} make the block (64, 8, 1) instead of (8, 64, 1) and make the grid (16, 128, 1) instead of (128, 16, 1). The same threads then compute the same elements, the former threadIdx.y fastest in each warp, and this load and store each take 4 sectors per request instead of 8 (2x fewer). Shown by
  // CHECK-NOT: note: exchange
}

// Not offered: the read would get worse. The two sides of one assignment
// and a square block: the staged transpose, with its tile.
__global__ void transpose(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * N + y] = in[y * N + x];
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 4)
  // CHECK: note: stage the transpose through shared memory (__shared__ float tile[32][32 + 1]): keep the load of 'in' at line [[#@LINE-2]] as it is, storing its value in tile[threadIdx.y][threadIdx.x]; `__syncthreads()`; then write this element with threadIdx.x and threadIdx.y exchanged in its index, taking tile[threadIdx.x][threadIdx.y]. This access would take 4 sectors per request instead of 32 (8x fewer), the other keeps its 4 sectors per request, and the tile costs 1 wavefront per request along its rows and 1 down its columns (32 without the padding of 1); it holds for this launch's square block (32, 32, 1), where every thread of the block reaches the `__syncthreads()` (exchanging the roles of x and y would make the load of 'in' at line [[#@LINE-2]] worse (4 -> 32 sectors per request))
  // JSON: "staged_transpose": {
  // JSON: "column_wavefronts": 1,
  // JSON: "column_wavefronts_unpadded": 32,
  // JSON: "padding": 1,
  // JSON: "sectors_per_request_after": 4,
  // JSON: "tile": [
  // JSON-NEXT: 32,
  // JSON-NEXT: 33
  // SARIF: "mappingFix": "staged-transpose",
}

// The read side strided, on doubles: the read is rewritten.
__global__ void transpose_read(const double *in, double *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * N + x] = in[x * N + y];
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:20: warning: global load from 'in' uses 16 sectors per request (ideal 8)
  // CHECK: note: stage the transpose through shared memory (__shared__ double tile[16][16 + 1]): read this element with threadIdx.x and threadIdx.y exchanged in its index into tile[threadIdx.x][threadIdx.y]; `__syncthreads()`; then take tile[threadIdx.y][threadIdx.x] for the store to 'out' at line [[#@LINE-2]], which stays as it is. This access would take 8 sectors per request instead of 16 (2x fewer), the other keeps its 8 sectors per request, and the tile costs 2 wavefronts per request along its rows and 2 down its columns (32 without the padding of 1)
}

// Sizes known only at run time: the costs are compared at every size the
// answers distinguish, and the note gives the case the finding states.
// B's lanes read one element before and a row of 32 after (1 -> 4, its
// ideal both ways); where n is not a multiple of 8 its rows start off a
// sector boundary, which the finding's own alignment assumption sets aside.
__global__ void naive_runtime(int rows, int n, int k, const float *A, const float *B, float *C) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < rows && y < n) {
    float t = 0;
    for (int i = 0; i < k; ++i)
      t += A[x * k + i] * B[i * n + y];
    // A remark (k == 1 would be ideal), with the same note.
    // CHECK: mapping_fixes.cu:[[@LINE-2]]:12: remark: global load from 'A' uses 32 sectors per request (ideal 4) for every k >= 8
    // CHECK: note: not a warning: the cost is 4 sectors (ideal 4) when k == 1
    // CHECK: note: exchange the roles of x and y: in `naive_runtime` {{.*}} this access takes 1 sector per request instead of 32 (32x fewer) for every k >= 8;
    C[x * n + y] = t;
    // CHECK: mapping_fixes.cu:[[@LINE-1]]:5: warning: global store to 'C' uses 32 sectors per request (ideal 4) for every n >= 8
    // CHECK: note: exchange the roles of x and y: in `naive_runtime` {{.*}} the block (32, 32, 1) stays as it is and exchange the grid's x and y. The same threads then compute the same elements, the former threadIdx.y fastest in each warp, and this access takes 4 sectors per request instead of 32 (8x fewer) for every n >= 8; the kernel's other accesses: the load of 'A' at line [[#@LINE-7]]: 32 -> 1 sector per request (ideal 4 -> 1) for every k >= 8; the load of 'B' at line [[#@LINE-7]]: 1 -> 4 sectors per request (ideal 1 -> 4). Shown by
  }
}

void launch_runtime(int rows, int n, int k, float *A, float *B, float *C) {
  naive_runtime<<<dim3((rows + 31) / 32, (n + 31) / 32), dim3(32, 32)>>>(rows, n, k, A, B, C);
}

// The kernel's code is the same for all its launches: the exchange must
// hold for each, and the note names every launch with its new shape.
__global__ void scale_twice(float *a) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  a[x * N + y] *= 2.0f;
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:3: warning: global load and store of 'a' each use 8 sectors per request (ideal 4)
  // CHECK: note: exchange the roles of x and y: in `scale_twice` (and the functions it calls) swap .x and .y of threadIdx, blockIdx, blockDim and gridDim, and at the launch at mapping_fixes.cu:172 make the block (64, 8, 1) instead of (8, 64, 1) and make the grid (16, 128, 1) instead of (128, 16, 1); at the launch at mapping_fixes.cu:173 make the block (32, 8, 1) instead of (8, 32, 1) and make the grid (32, 128, 1) instead of (128, 32, 1). The same threads
}

// One launch would gain, the other lose: withdrawn, with the launch it
// would hurt.
__global__ void either_way(float *a, int rowMajor) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (rowMajor)
    a[y * N + x] = 1.0f;
  else
    a[x * N + y] = 1.0f;
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:5: warning: global store to 'a' uses 8 sectors per request (ideal 4)
  // CHECK: note: make consecutive lanes {{.*}} (exchanging the roles of x and y would make the store to 'a' at line [[#@LINE-4]] worse (4 -> 8 sectors per request), in the launch at mapping_fixes.cu:174 (block (32, 8, 1)))
}

// Negatives. A block that is not square: no staged transpose (its
// threads would not cover the same tile both ways), and no exchange.
__global__ void transpose_rect(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * N + y] = in[y * N + x];
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 4)
  // CHECK: note: consecutive lanes walk down a column (a transposed access); stage the tile through shared memory or let threadIdx.x index the contiguous dimension: 4 sectors per request (8x fewer) (exchanging the roles of x and y would make the load of 'in' at line [[#@LINE-2]] worse (4 -> 8 sectors per request))
}

// A global read into a shared tile: the exchange would give the tile's
// store a conflict, and a staged transpose needs two global sides.
__global__ void into_shared(const float *in, float *out) {
  __shared__ float s[32][32];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  s[threadIdx.y][threadIdx.x] = in[x * N + y];
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:33: warning: global load from 'in' uses 32 sectors per request (ideal 4)
  // CHECK: note: consecutive lanes walk down a column {{.*}} (exchanging the roles of x and y would make the shared store to 's' at line [[#@LINE-2]] worse (1 -> 32 wavefronts per request))
  __syncthreads();
  out[y * N + x] = s[threadIdx.x][threadIdx.y];
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:20: warning: shared load from 's' has a 32-way bank conflict
}

// A shuffle: the warps' membership is part of what the kernel computes.
__global__ void shuffled(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = in[x * N + y];
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:13: warning: global load from 'in' uses 32 sectors per request (ideal 4)
  // CHECK: note: consecutive lanes walk down a column {{.*}} (exchanging the roles of x and y could change what the kernel computes: it depends on which threads share a warp (`__shfl_xor_sync` at mapping_fixes.cu:[[#@LINE+1]]))
  v += __shfl_xor_sync(0xffffffff, v, 1);
  out[x * N + y] = v;
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 4)
}

// An access that cannot be predicted with x and y exchanged: `in[idx[y]]`
// reads one address per warp now (1 sector), an unknown one per lane after.
__global__ void indirect(const float *in, const int *idx, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = in[idx[y]];
  out[x * N + y] = v;
  // CHECK: mapping_fixes.cu:[[@LINE-1]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 4)
  // CHECK: note: consecutive lanes {{.*}} (exchanging the roles of x and y is not shown to help: the cost of the load of 'in' at line [[#@LINE-3]] is not known both ways)
}

int main() {
  float *a, *b, *c;
  double *d, *e;
  int *i;
  naive_matmul<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, b, c);
  scale_cols<<<dim3(N / 8, N / 64), dim3(8, 64)>>>(a);
  transpose<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, b);
  transpose_read<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(d, e);
  scale_twice<<<dim3(N / 8, N / 64), dim3(8, 64)>>>(a);
  scale_twice<<<dim3(N / 8, N / 32), dim3(8, 32)>>>(a);
  either_way<<<dim3(N / 32, N / 8), dim3(32, 8)>>>(a, 1);
  either_way<<<dim3(N / 8, N / 32), dim3(8, 32)>>>(a, 0);
  transpose_rect<<<dim3(N / 32, N / 8), dim3(32, 8)>>>(a, b);
  into_shared<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, b);
  shuffled<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, b);
  indirect<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, i, b);
}
