// RUN: %lint --format=json %s | %records | FileCheck %s
// One launch site reached with shapes known in different parts (and the
// same arguments) gives two configurations, not one.
#include <cstdlib>
__global__ void stride2(float *p) { p[threadIdx.y * 4096 + threadIdx.x * 2] = 1; }
// CHECK: partial_shapes_distinct.cu:[[#@LINE-1]]:37: stride2 store global 'p' {{.*}} 8/4 uncoalesced
// CHECK: partial_shapes_distinct.cu:[[#@LINE-2]]:37: stride2 store global 'p' {{.*}} ?/? unknown
static void go(float *a, int x, int n) { stride2<<<1, dim3(x, n)>>>(a); }
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  float *a;
  cudaMalloc(&a, 1 << 26);
  go(a, 64, n);
  go(a, 4, n);
}
