// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A helper that returns on one side of a branch whose condition is uniform
// but unknown (n) returns one of two values: both sides run, and the result
// must be their join, not the value of whichever side ran last. (It was the
// latter: pick() below looked like `i`, and the store like a contiguous one.)

__device__ int pick(int n, int i) {
  if (n > 4)
    return i * 2;
  return i;
}

__device__ int outer(int n, int i) {
  int r = pick(n, i) + 1;
  return pick(n, r);
}

__global__ void lane_varying(float *p, int n) {
  p[outer(n, threadIdx.x)] = 0;
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'p' cannot be predicted: the value returned by 'pick' depends on which side of the branch at line 8 was taken
}

// Uniform results on both sides: the lanes stay 4 bytes apart, only the
// start of the warp depends on n.
__device__ int offset_for(int n) {
  if (n > 4)
    return 8;
  return 0;
}

__global__ void uniform_result(float *p, int n) {
  p[threadIdx.x + offset_for(n)] = 0;
}

// Both sides return the same value: nothing depends on the branch.
__device__ int same(int n, int i) {
  if (n > 4)
    return i;
  return i;
}

__global__ void same_value(float *p, int n) {
  p[same(n, threadIdx.x)] = 0;
}

void launch(float *p, int n) {
  lane_varying<<<1, 32>>>(p, n);
  uniform_result<<<1, 32>>>(p, n);
  same_value<<<1, 32>>>(p, n);
}
