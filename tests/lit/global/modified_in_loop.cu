// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A variable that a loop changes is the same induction variable however the
// change is spelled: `i += 1` in the body, through a helper taking it by
// reference, or through a reference to it. Each walks in[2 * ...] with
// stride 2 floats and a start that moves by 2 floats (8 bytes) per
// iteration: 8 sectors when aligned, 9 otherwise, which the loop counter
// (unknown trip count) decides. The interpreter and the host evaluator once
// asked two different walkers which variables a statement changes: the
// helper and the reference were missed here, and the alignment was taken as
// known (8 sectors, no range).

__device__ void bump(int &v) { v += 1; }

__global__ void direct(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k) {
    s += in[2 * i];
    // CHECK: :[[@LINE-1]]:10: warning: global load from 'in' uses 8 sectors per request (ideal 4)
    // CHECK: note: {{.*}}assuming the iteration of the loop at line 17 (which steps 'i' and 'k') keeps the 32-byte alignment of the address; otherwise 8 to 9 sectors
    i += 1;
  }
  out[i] = s;
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'out' cannot be predicted: 'i' is the value left by the loop at line 17
}

__global__ void helper(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k) {
    s += in[2 * i];
    // CHECK: :[[@LINE-1]]:10: warning: global load from 'in' uses 8 sectors per request (ideal 4)
    // CHECK: note: {{.*}}assuming the iteration of the loop at line 30 (which steps 'i' and 'k') keeps the 32-byte alignment of the address; otherwise 8 to 9 sectors
    bump(i);
  }
  out[i] = s;
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'out' cannot be predicted: 'i' is the value left by the loop at line 30
}

__global__ void reference(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k) {
    s += in[2 * i];
    // CHECK: :[[@LINE-1]]:10: warning: global load from 'in' uses 8 sectors per request (ideal 4)
    // CHECK: note: {{.*}}assuming the iteration of the loop at line 43 (which steps 'i' and 'k') keeps the 32-byte alignment of the address; otherwise 8 to 9 sectors
    int &r = i;
    r += 1;
  }
  out[i] = s;
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'out' cannot be predicted: 'i' is the value left by the loop at line 43
}

void launch(const float *in, float *out, int n) {
  direct<<<64, 256>>>(in, out, n);
  helper<<<64, 256>>>(in, out, n);
  reference<<<64, 256>>>(in, out, n);
}
