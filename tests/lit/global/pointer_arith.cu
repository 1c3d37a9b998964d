// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Pointer arithmetic before the access (`p = in + off; p[tx]`): the offset
// moves the warp's 128 bytes; only its alignment to 32-byte sectors matters.

__global__ void shifted(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = in + 32;
  out[i] = p[i];
  const float *q = in + 3;
  out[i] = q[i];
  // CHECK: :[[@LINE-1]]:12: remark: global load from 'in' uses 5 sectors per request (ideal 4): the warp's bytes start 12 bytes past a 32-byte sector boundary [coalesce-misaligned-global]
  const float *r = q + 5;
  out[i] = r[i];
}

// Each lane walks to its own row of 64 floats: lanes 256 bytes apart.
__global__ void per_lane_rows(const float *in, float *out) {
  const float *row = in + threadIdx.x * 64;
  out[blockIdx.x * 256 + threadIdx.x] = row[blockIdx.x];
  // CHECK: :[[@LINE-1]]:41: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 256 bytes apart [coalesce-uncoalesced-global]
}

// The offset comes from the launch: 8 floats keep the alignment, 2 do not.
__global__ void window(const float *in, float *out, int off) {
  const float *p = in + blockIdx.x * 256 + off;
  p += threadIdx.x;
  out[blockIdx.x * 256 + threadIdx.x] = *p;
  // CHECK: :[[@LINE-1]]:41: remark: global load from 'in' uses 5 sectors per request (ideal 4): the warp's bytes start 8 bytes past a 32-byte sector boundary [coalesce-misaligned-global]
  // CHECK: note: assuming blockDim = (256, 1, 1) from the launch at pointer_arith.cu:[[#@LINE+8]]
}

int main() {
  float *a, *b;
  shifted<<<64, 256>>>(a, b);
  per_lane_rows<<<64, 256>>>(a, b);
  window<<<64, 256>>>(a, b, 8);
  window<<<64, 256>>>(a, b, 2);
}
