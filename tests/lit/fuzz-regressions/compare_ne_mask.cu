// Found by coalesce-fuzz-models (invariant cmp-uniform-outcome, docs/fuzzing.md):
// comparePoly(D, 0, NE) with D = 2*n + (lane & 1) answers "Uniform, true on
// all lanes", but the odd lanes can never have D == 0: only the even lanes
// can take the else branch. The interpreter then runs the else branch with
// all 32 lanes and predicted 32 sectors where 16 lanes (16 sectors) store.
// Now a uniform condition has two worlds (Cond::TrueElse): the else branch
// runs only where the condition can fail, on the even lanes.
// RUN: %lint --block=32 %s | FileCheck %s

__global__ void ne_mask(float *out, int n) {
  int d = 2 * n + (threadIdx.x & 1);
  if (d != 0) {
    out[threadIdx.x] = 1.0f;
  } else {
    out[threadIdx.x * 32] = 2.0f;
    // CHECK: :[[@LINE-1]]:5: warning: global store to 'out' uses 16 sectors per request (ideal 2): 16 of 32 lanes are active, 256 bytes apart
  }
}
