// `--assume NAME=V` also stands for host variables of that name that the host
// code cannot know (issue 13: sizes read from argv). The grid computed from
// them is then known, and the launch is averaged over every warp it runs,
// the partial last warp included. A value the code computes itself is kept,
// and a name nobody stated stays unknown.
// RUN: %lint %s | FileCheck %s --check-prefix=UNSTATED --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s --assume=n=1000 | FileCheck %s --check-prefix=STATED --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s --assume=n=1000 --format=json | FileCheck %s --check-prefix=JSON
// RUN: %lint %s --assume=threads=64 --assume=n=1000 | FileCheck %s --check-prefix=KEPT --implicit-check-not=warning: --implicit-check-not=remark:
#include <cstdlib>

// 1000 elements in blocks of 256: 32 warps run, the last with 8 lanes:
// the misaligned load is (31 x 5 + 1) / 32 = 4.875 sectors per request.
// UNSTATED: :[[@LINE+5]]:23: remark: global load from 'in' uses 5 sectors per request (ideal 4)
// STATED: :[[@LINE+4]]:23: warning: global load from 'in' uses 4.906 sectors per request (ideal 3.906)
// KEPT: :[[@LINE+3]]:23: warning: global load from 'in' uses 4.906 sectors per request (ideal 3.906)
__global__ void shift(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + 1];
}

// JSON: "stated-fact"
// JSON: "n": 1000
// JSON: "grid": [
// JSON-NEXT: 4,
int main(int argc, char **argv) {
  int n;
  n = atoi(argv[1]);          // stated: 1000
  const int threads = 256;    // computed by the code: --assume threads=64 does not change it
  float *in, *out;
  cudaMalloc(&in, (n + 1) * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  shift<<<(n + threads - 1) / threads, threads>>>(in, out, n);
  return 0;
}
// STATED: note: {{.*}}'n = 1000'
