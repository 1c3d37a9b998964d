// Found with the pathological seeds written for the whole-file fuzzer
// (docs/fuzzing.md): a __device__ function that calls itself twice ran into
// the step budget before its access was recorded, and the access vanished
// ("0 accesses in 1 kernel", no remark). The salvage walk takes both sides of
// every branch with calls nested at most 8 deep, so it reaches the store.
// RUN: %lint %s | FileCheck %s
// CHECK: :11:5: remark: global store to 'p' cannot be predicted: analysis budget exceeded (more than 20000000 interpretation steps)

__device__ int twice(float *p, int n) {
  if (n == 0) {
    p[threadIdx.x] = 0;
    return 0;
  }
  return twice(p, n - 1) + twice(p, n - 1);
}

__global__ void recurse(float *p) { twice(p, 40); }

void launch(float *p) { recurse<<<1, 1024>>>(p); }
