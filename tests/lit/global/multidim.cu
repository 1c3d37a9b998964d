// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Multi-dimensional arrays: a __device__ 2-D array and a pointer to rows of
// 64 floats. Walking the last index across lanes is coalesced; walking the
// first puts each lane in its own sector.

__device__ float table[64][64];

__global__ void device_array(float *out) {
  int r = blockIdx.x, c = threadIdx.x;
  out[r * 64 + c] = table[r][c];
  out[r * 64 + c] = table[c][r];
  // CHECK: :[[@LINE-1]]:21: warning: global load from 'table' uses 32 sectors per request (ideal 4): lanes are 256 bytes apart [coalesce-uncoalesced-global]
}

__global__ void pointer_to_array(const float (*a)[64], float *out) {
  int r = blockIdx.x, c = threadIdx.x;
  out[r * 64 + c] = a[r][c];
  out[r * 64 + c] = a[c][r];
  // CHECK: :[[@LINE-1]]:21: warning: global load from 'a' uses 32 sectors per request (ideal 4): lanes are 256 bytes apart [coalesce-uncoalesced-global]
}

int main() {
  float *o;
  float (*m)[64];
  device_array<<<64, 64>>>(o);
  pointer_to_array<<<64, 64>>>(m, o);
}
