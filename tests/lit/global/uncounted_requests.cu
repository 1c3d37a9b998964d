// A record whose requests are counted in some warps and not in others
// (cost/Aggregate.cpp): the blocks of a triangle (`for (j = i; j < M; ++j)`,
// the lanes of a warp leaving one iteration apart) are walked one by one
// where their trip counts fit the walk's limit and with a symbolic iteration
// where they do not; weighing a count against an iteration would give a
// number Nsight Compute does not measure (31.06 sectors per request for the
// store below, where it measures 31.52: sample_kernels/column_stats.cu).
// Not exact, then: unknown, with the span of the costs.
// RUN: %lint --witness=off --format=json %s | FileCheck %s --check-prefix=JSON
// RUN: %lint --witness=off %s | FileCheck %s
// UNSUPPORTED: tidy
#define M 2048

// CHECK: uncounted_requests.cu:[[@LINE+5]]:7: remark: global store to 'sym' cannot be predicted: the requests of some warps are counted and those of others are not (the loop at line [[@LINE+4]] runs a number of iterations not known: the cost is per iteration), and they cost from 1 to 32 sectors per request: their average is not known
__global__ void triangle(float *sym, const float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < M) {
    for (int j2 = j1; j2 < M; j2++)
      sym[j1 * M + j2] = data[j2];
  }
}

// Every warp runs the same number of iterations: counted everywhere.
// CHECK: uncounted_requests.cu:[[@LINE+5]]:7: warning: global store to 'out' uses 32 sectors per request (ideal 4)
__global__ void square(float *out, const float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < M)
    for (int j2 = 0; j2 < 512; j2++)
      out[j1 * M + j2] = data[j2];
}

void run(float *s, const float *d) {
  triangle<<<M / 256, 256>>>(s, d);
  square<<<M / 256, 256>>>(s, d);
}
// JSON: "reason_kind": "uncounted-requests"
