// RUN: %lint --format=json %s | %records --launch | FileCheck %s
// A function pointer that holds one kernel on one side of a branch the host
// code cannot decide and another on the other side (llama.cpp picks its
// flash-attention kernel so, on a value read from the tensor's parameters),
// then launches it through a wrapper that takes the kernel as a template
// argument and the shape in a struct. The join of the two sides does not
// know the kernel; each side does: the walk runs again once per side, and
// each kernel gets the launch with its side named.
#include <cstring>
#include <utility>

typedef void (*kernel_t)(const float *, float *, int);

template <int N, bool soft> __global__ void scaled(const float *a, float *b, int n) {
  const int i = blockIdx.x * 128 + threadIdx.y * 32 + threadIdx.x;
  b[i] = soft ? a[i * N] * 0.5f : a[i * N];
}
// With (32, 4) blocks, every warp reads 32 floats 8 bytes apart: 8 sectors.
// CHECK-DAG: kernel_pointer_branch.cu:[[#@LINE-3]]:{{[0-9]+}}: scaled<2, false> load global 'a' `a[i * N]` 8/4 uncoalesced @(32,4,1) when `softcap == 0.0f` at kernel_pointer_branch.cu:[[#@LINE+25]] is true
// CHECK-DAG: kernel_pointer_branch.cu:[[#@LINE-4]]:{{[0-9]+}}: scaled<2, true> load global 'a' `a[i * N]` 8/4 uncoalesced @(32,4,1) when `softcap == 0.0f` at kernel_pointer_branch.cu:[[#@LINE+24]] is false

struct launch_params {
  dim3 grid, block;
  size_t shmem;
  cudaStream_t stream;
  launch_params(const dim3 &g, const dim3 &b, const size_t s, const cudaStream_t st)
      : grid(g), block(b), shmem(s), stream(st) {}
};

template <typename Kernel, typename... Args>
static void launch(Kernel k, const launch_params &p, Args &&...args) {
  k<<<p.grid, p.block, p.shmem, p.stream>>>(std::forward<Args>(args)...);
}

static void run_with(kernel_t k, const int nwarps, const float *a, float *b, int n) {
  const dim3 block(32, nwarps, 1);
  launch(k, launch_params(dim3(n / 128), block, 0, 0), a, b, n);
}

void run(const float *a, float *b, int n, const float *op_params) {
  float softcap;
  memcpy(&softcap, op_params + 2, sizeof(float));
  kernel_t k;
  if (softcap == 0.0f) {
    k = scaled<2, false>;
  } else {
    k = scaled<2, true>;
  }
  run_with(k, 4, a, b, n);
}

// Negative: the pointer comes from the input with no branch to split on
// (an element of a table indexed at run time): the kernel stays unknown,
// and the launch with it; the kernel is analysed with an assumed shape.
__global__ void from_table(const float *a, float *b, int n) { b[threadIdx.x] = a[threadIdx.x * 3]; }
// CHECK-DAG: kernel_pointer_branch.cu:[[#@LINE-1]]:{{[0-9]+}}: from_table load global 'a' `a[threadIdx.x * 3]` 12/4 uncoalesced @?
static kernel_t table[3] = {from_table, from_table, from_table};
void run_table(const float *a, float *b, int n, int which) {
  table[which]<<<1, 64>>>(a, b, n);
}
