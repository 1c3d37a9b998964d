// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=REG
// Per-thread arrays indexed at run time live in local memory, which the
// hardware interleaves by 4-byte words across the lanes: every lane at the
// same offset reads whole 128-byte lines (4 sectors per word, the ideal);
// lanes at different offsets spread the request over a line per distinct
// word. The numbers were measured on an H200 (sample_kernels/local_memory.cu).

__global__ void words(float *out, int n, int k) {
  float t[256];
  for (int i = 0; i < n; ++i)
    t[i] = threadIdx.x + i;
  out[threadIdx.x] = t[k];
  out[threadIdx.x] = t[threadIdx.x % 4 + k];
  // CHECK: :[[@LINE-1]]:22: warning: local load from 't' uses 16 sectors per request (ideal 4): the lanes use different offsets in their own copies of the array [coalesce-uncoalesced-local]
  // CHECK: note: lane 0 -> byte +0, lane 1 -> byte +4, lane 2 -> byte +8, ..., lane 31 -> byte +12 (relative to lane 0); the lanes are spread by `threadIdx.x % 4` (each lane's offset in its own 't')
  // CHECK: note: {{.*}}assuming the compiler keeps 't' in local memory, as it does an array indexed at run time unless the array is small ('ptxas -v' reports a stack frame)
  out[threadIdx.x] = t[threadIdx.x + k];
  // CHECK: :[[@LINE-1]]:22: warning: local load from 't' uses 32 sectors per request (ideal 4)
}

// 8-byte elements span two words, 128 bytes apart: 8 sectors when uniform.
__global__ void doubles(double *out, int n, int k) {
  double t[128];
  for (int i = 0; i < n; ++i)
    t[i] = i;
  out[threadIdx.x] = t[threadIdx.x % 2 + k];
  // CHECK: :[[@LINE-1]]:22: warning: local load from 't' uses 16 sectors per request (ideal 8)
}

// Negative: indices the compiler knows (constants, counters of loops with
// constant bounds, which it unrolls) are registers, not requests: no record.
// So are arrays of at most 256 bytes, even indexed per lane (measured: 8, 32
// and 64 floats had no stack frame on sm_90; 128 floats had one).
__global__ void in_registers(const float *in, float *out, int k) {
  float r[8];
  for (int i = 0; i < 8; ++i)
    r[i] = threadIdx.x * i;
  out[threadIdx.x] = r[3] + r[2 * 2];
  float s[64];
  for (int i = 0; i < 64; ++i)
    s[i] = in[i * 1024 + threadIdx.x];
  out[threadIdx.x] = s[threadIdx.x % 64] + s[k];
}

// The same for a const index computed from such counters (SGEMM_CUDA's
// warp-tiled kernels: `const int i = (m * TM + rm) * TN + rn;`): an array of
// 512 bytes in registers.
template <int TM, int TN>
__global__ void tiled(float *out) {
  float acc[TM * TN * 2] = {0.0f};
  for (int m = 0; m < 2; ++m)
    for (int rm = 0; rm < TM; ++rm)
      for (int rn = 0; rn < TN; rn += 4) {
        const int i = (m * TM + rm) * TN + rn;
        out[threadIdx.x + 32 * i] = acc[i + 0] + acc[i + 1] + acc[i + 2] + acc[i + 3];
      }
}
template __global__ void tiled<8, 8>(float *);
// REG-NOT: "array": "acc"
// REG-NOT: "array": "r"
// REG-NOT: "array": "s"
// JSON: "array": "t",
// JSON: "space": "local",
